// Foundation for JSONSerialization: the corpus and the recording are JSON.
import Foundation
import Testing

/// `chromium.jsonl` is still what `texts.json` expands to: a text edited, added or
/// removed in the corpus without recording Chromium again would leave
/// `BrowserFidelityTests` comparing against answers for other cases.
@Suite struct BrowserCorpusTests {
    static let directory = packageRoot + "/Tests/Fixtures/browser/"

    /// A JSON object from one line.
    static func object(_ line: some StringProtocol) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any], "not an object: \(line)")
    }

    /// The object's canonical JSON (sorted keys), to compare objects by.
    static func canonical(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The recorded cases without Chromium's answers, as JSON objects, in file order.
    static func recordedCases() throws -> [[String: Any]] {
        let contents = try #require(readTextFile(directory + "chromium.jsonl"))
        return try contents.split(separator: "\n").map { line in
            var recorded = try object(line)
            recorded["chromium"] = nil
            return recorded
        }
    }

    /// Every recorded case measures the text its id names in `texts.json`, or in the
    /// option groups of `options.json` (`script-index-fonts-size-lineheight-wwidth`,
    /// the group in the script's place), and every text is recorded.
    @Test func recordedTextsAreTheCorpusTexts() throws {
        let texts = try #require(readTextFile(Self.directory + "texts.json"))
        var corpus = try #require(try JSONSerialization.jsonObject(with: Data(texts.utf8)) as? [String: [String]])
        let options = try #require(readTextFile(Self.directory + "options.json"))
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(options.utf8)) as? [String: [String: Any]])
        for (group, spec) in groups { corpus[group] = try #require(spec["texts"] as? [String]) }
        var unrecorded = Set(corpus.flatMap { script, texts in texts.indices.map { "\(script)-\($0)" } })
        for recorded in try Self.recordedCases() {
            let id = try #require(recorded["id"] as? String)
            let script = try #require(recorded["script"] as? String)
            // A group's name may hold a "-" (line-strict): the index follows the script's name.
            #expect(id.hasPrefix(script + "-"), "\(id)")
            let index = try #require(Int(id.dropFirst(script.count + 1).split(separator: "-")[0]))
            #expect(corpus[script]?.indices.contains(index) == true, "\(id)")
            #expect(corpus[script]?[index] == recorded["text"] as? String, "\(id): the text is not the corpus text")
            unrecorded.remove("\(script)-\(index)")
        }
        #expect(unrecorded.sorted() == [], "corpus texts not recorded: run scripts/browser-check --record")
    }

    static let python = shellOutput("command -v python3") != nil

    /// All of it, by the recorder's own expansion (widths from a seeded random
    /// generator, font lists, sizes, line heights): case for case, in order.
    @Test(.enabled(if: python, "needs python3, as scripts/browser-check does"))
    func recordingIsWhatTheCorpusExpandsTo() throws {
        let script = "import sys, json; sys.path.insert(0, 'scripts'); import browser_check; "
            + "[print(json.dumps(c, ensure_ascii=False)) for c in browser_check.expand_corpus()]"
        let output = try #require(shellOutput("cd '\(packageRoot)' && python3 -c \"\(script)\""))
        let expanded = try output.split(separator: "\n").map(Self.object)
        let recorded = try Self.recordedCases()
        #expect(expanded.count == recorded.count)
        let differing = try zip(expanded, recorded).filter { try Self.canonical($0) != Self.canonical($1) }
            .map { $0.0["id"] as? String ?? "?" }
        #expect(differing.isEmpty, "\(differing.count) cases differ from texts.json's expansion, first \(differing.prefix(3))")
    }
}
