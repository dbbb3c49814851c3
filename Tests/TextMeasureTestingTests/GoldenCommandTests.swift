import Foundation
import Testing
import TextMeasureTesting

/// `textmeasure golden` and `textmeasure render`, run as a user runs them: the
/// built executable, beside this test bundle.
@Suite(.temporaryFiles) struct GoldenCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func textmeasure(_ arguments: [String], in directory: String) throws -> Run {
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("textmeasure")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                   stderr: String(decoding: err, as: UTF8.self))
    }

    /// Three cases in the batch format: one without an id, one with a font path
    /// relative to the current directory, and a blank line.
    static func writeCases(in directory: String) throws {
        try FileManager.default.copyItem(atPath: notoSansPath, toPath: directory + "/Body.ttf")
        let lines = [
            #"{"id": "gatsby", "text": "\#(gatsby)", "width": 390, "insets": [8, 0, 8, 0], "padding": 5}"#,
            "",
            #"{"text": "Hello, wrapping world", "fonts": ["Body.ttf"], "width": 120}"#,
            #"{"id": "bubble", "text": "Party 🎉🎉🎉 tonight at eight, bring snacks 🍕", "width": 150, "size": 15, "lineHeight": 20}"#,
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: directory + "/cases.jsonl"))
    }

    @Test func recordThenVerifyExitsZero() throws {
        let directory = try temporaryDirectory()
        try Self.writeCases(in: directory)
        let record = try Self.textmeasure(["golden", "record", "cases.jsonl", "-o", "golden/heights.json"], in: directory)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout.contains("recorded 3 cases"))

        let file = try GoldenFile(contentsOfFile: directory + "/golden/heights.json")
        #expect(file.cases.map(\.id) == ["gatsby", 3, "bubble"], "a case without an id gets its line number")
        #expect(file.cases[1].input.fonts == ["../Body.ttf"])

        let verify = try Self.textmeasure(["golden", "verify", "golden/heights.json"], in: directory)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("all 3 cases match"))
    }

    @Test func verifyExitsOneListingEachMismatchAndDrawsIt() throws {
        let directory = try temporaryDirectory()
        try Self.writeCases(in: directory)
        _ = try Self.textmeasure(["golden", "record", "cases.jsonl", "-o", "heights.json"], in: directory)
        var file = try GoldenFile(contentsOfFile: directory + "/heights.json")
        let gatsbyHeight = file.cases[0].expected.height, bubbleHeight = file.cases[2].expected.height
        file.cases[0].expected.height += 22
        file.cases[2].expected.height -= 20
        try file.write(to: directory + "/heights.json")

        let verify = try Self.textmeasure(["golden", "verify", "heights.json", "--render", "pictures", "--scale", "1"],
                                          in: directory)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("✗ gatsby: height expected \(Int(gatsbyHeight) + 22), actual \(Int(gatsbyHeight))"))
        #expect(verify.stdout.contains("✗ bubble: height expected \(Int(bubbleHeight) - 20), actual \(Int(bubbleHeight))"))
        #expect(!verify.stdout.contains("✗ 3"))
        #expect(verify.stderr.contains("2 of 3 cases do not match"))

        // One picture per failing case: the recorded frame beside today's.
        let margin = PanelRenderer.margin
        let size = try #require(pngSize(directory + "/pictures/gatsby.png"))
        #expect(size.width == Int(margin + 390 + margin + 390 + margin))
        #expect(size.height == Int(PanelRenderer.captionHeight + margin + gatsbyHeight + 22 + margin))
        #expect(pngSize(directory + "/pictures/bubble.png") != nil)
        #expect(pngSize(directory + "/pictures/3.png") == nil)
        #expect(verify.stdout.contains("wrote pictures/gatsby.png\n"))

        // A folder given with its slash names the same files, with one slash between.
        let again = try Self.textmeasure(["golden", "verify", "heights.json", "--render", "pictures/", "--scale", "1"],
                                         in: directory)
        #expect(again.stdout.contains("wrote pictures/gatsby.png\n") && !again.stdout.contains("//"), "\(again.stdout)")
    }

    @Test func renderWritesAPNGOfTheFramePlusMargins() throws {
        let directory = try temporaryDirectory()
        let run = try Self.textmeasure(["render", "--width", "300", "--scale", "2", "--inset", "8,0,8,0",
                                        "-o", "out.png", gatsby + " 😀"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        var container = TextContainer()
        container.textContainerInset = EdgeInsets(top: 8, bottom: 8)
        let height = try #require(try TextMeasurer(text: gatsby + " 😀", container: container)
            .sizeThatFits(ProposedSize(width: 300))?.height)
        let size = try #require(pngSize(directory + "/out.png"))
        #expect(size.width == Int((300 + 2 * PanelRenderer.margin) * 2))
        #expect(size.height == Int((height + 2 * PanelRenderer.margin) * 2))
    }

    @Test func renderCountsOneLineInTheSingular() throws {
        let directory = try temporaryDirectory()
        let one = try Self.textmeasure(["render", "--width", "300", "-o", "one.png", "Hi"], in: directory)
        #expect(one.status == 0 && one.stdout.hasSuffix(", 1 line\n"), "\(one.stdout)")
        let two = try Self.textmeasure(["render", "--width", "300", "-o", "two.png", "Hi\nthere"], in: directory)
        #expect(two.status == 0 && two.stdout.hasSuffix(", 2 lines\n"), "\(two.stdout)")
    }

    @Test func usageAndInputErrorsExitTwoAndOne() throws {
        let directory = try temporaryDirectory()
        let cases: [([String], Int32)] = [
            (["golden"], 2),
            (["golden", "bless", "x.json"], 2),
            (["golden", "record", "cases.jsonl"], 2),
            (["golden", "verify", "x.json", "-o", "y.json"], 2),
            (["golden", "verify", "missing.json"], 1),
            (["render", "--width", "100", "text"], 2),
            (["render", "--width", "0", "-o", "out.png", "text"], 1),
            (["render", "--width", "1e9", "-o", "out.png", "text"], 1),
        ]
        for (arguments, status) in cases {
            let run = try Self.textmeasure(arguments, in: directory)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.isEmpty)
        }
    }
}
