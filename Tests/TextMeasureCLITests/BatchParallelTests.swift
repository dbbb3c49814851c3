import Foundation
import Testing

/// The README's recipe for more than one machine: `batch` under GNU parallel
/// (`parallel --pipe --keep-order`) gives the results of a single `batch`, byte for byte.
@Suite("textmeasure batch under GNU parallel")
struct BatchParallelTests {
    @Test("parallel --pipe --keep-order over batch equals one batch, in every script")
    func parallelEqualsOneBatch() throws {
        let paragraphs = try CLI.fixtureParagraphs()
        // Every paragraph at three widths, a few lines that fail, so that errors keep their place too.
        var lines: [String] = []
        for (index, paragraph) in paragraphs.enumerated() {
            for width in [90, 240, 390] {
                let object: [String: Any] = ["id": lines.count, "text": paragraph, "width": width, "size": [13, 17][index % 2]]
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
            }
            if index % 10 == 0 { lines.append("not json \(index)") }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("textmeasure-parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("work"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("work/cases.jsonl"),
                                                         atomically: true, encoding: .utf8)

        let parallel = try ReadmeTests.run("command -v parallel", in: folder)
        try #require(parallel.status == 0, "GNU parallel is missing: run scripts/setup")
        let one = try ReadmeTests.run("textmeasure batch < cases.jsonl", in: folder)
        // Blocks of 17 lines over several processes: block edges fall inside every script.
        let split = try ReadmeTests.run("parallel --pipe --keep-order -N 17 textmeasure batch --jobs 1 < cases.jsonl",
                                        in: folder)
        #expect(one.status == 0 && split.status == 0, "\(one.stderr)\(split.stderr)")
        let results = one.stdout.split(separator: "\n")
        #expect(results.count == lines.count)
        #expect(results.filter { $0.contains("\"error\"") }.count == lines.filter { $0.hasPrefix("not json") }.count)
        #expect(split.stdout == one.stdout)
    }
}
