// Foundation for JSONEncoder/JSONDecoder and Process: the cases travel as the batch
// format's JSON lines. This module sees no ICU headers (see BrowserFidelityTests).
import Foundation
import Testing
import TextMeasure

/// Measuring is deterministic: the same cases measured by `textmeasure batch` in two
/// separate processes (one job and two, each with a cold shape cache) give the same
/// bytes, and those are this process's answers (its shared cache warmed by every other
/// test), bit for bit. Widths are integers, so nothing may depend on the machine,
/// thread, cache state or order of measuring.
@Suite struct ProcessDeterminismTests {
    /// The built command-line tool, beside this test binary (SwiftPM builds both there).
    static let executable: String? = {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [binary.deletingLastPathComponent().appendingPathComponent("textmeasure").path,
                          packageRoot + "/.build/debug/textmeasure"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Random texts in every script at random widths, sizes, line heights and modes.
    static func cases() -> [MeasurementCase] {
        var random = RandomTexts.Generator(state: 2026)
        return (0..<120).map { index in
            let text = RandomTexts.text(&random, length: Int.random(in: 0...20, using: &random))
            let mode = LineBreakMode.allCases.randomElement(using: &random)!
            return MeasurementCase(id: .integer(index), text: text, size: [13, 17, 22.5].randomElement(using: &random)!,
                                   width: Double(Int.random(in: 64...(400 * 64), using: &random)) / 64,
                                   lineHeight: Bool.random(using: &random) ? nil : .fixed(21),
                                   maxLines: Int.random(in: 0...3, using: &random), lineBreakMode: mode,
                                   emptyLines: Bool.random(using: &random) ? .label : .textView)
        }
    }

    /// Runs `textmeasure batch` with `arguments` on `input` in a child process.
    static func batch(_ input: URL, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable, "build the textmeasure product first"))
        process.arguments = ["batch"] + arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        // A file rather than a pipe: no read to be interrupted, no deadlock however much it prints.
        let output = input.appendingPathExtension("out-\(arguments.joined())")
        defer { try? FileManager.default.removeItem(at: output) }
        try Data().write(to: output)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try Data(contentsOf: output)
    }

    @Test func twoProcessesAndThisOneGiveTheSameBits() throws {
        let cases = Self.cases()
        let encoder = JSONEncoder()
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("determinism-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(cases.map { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }.joined().utf8).write(to: input)

        let first = try Self.batch(input, ["--jobs", "1"])
        let second = try Self.batch(input, ["--jobs", "2"])
        #expect(first == second)

        let lines = String(decoding: first, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == cases.count)
        let fonts = FontCache()
        // Twice first, so that this process answers from a shared cache holding the words
        // (a segment is stored on its second lookup) where the children started cold.
        for _ in 1...2 { for measurement in cases { _ = try measurement.measure(fonts: fonts) } }
        for (line, measurement) in zip(lines, cases) {
            let theirs = try JSONDecoder().decode(MeasurementResult.self, from: Data(line.utf8))
            var ours = try measurement.measure(fonts: fonts)
            // The CLI prints widths to 0.01 px (README, "The command line"): round ours the same way,
            // then compare doubles by their bits (JSON carries the shortest exact decimal).
            ours.usedWidth = (ours.usedWidth * 100).rounded() / 100
            #expect(theirs.height.bitPattern == ours.height.bitPattern && theirs.usedWidth.bitPattern == ours.usedWidth.bitPattern
                    && theirs == ours, "\(measurement.text.debugDescription)")
        }
    }
}
