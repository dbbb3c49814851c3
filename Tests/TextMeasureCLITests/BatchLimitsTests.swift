import Foundation
import Testing

/// `textmeasure batch` stays within bounded memory on input meant to exhaust it: a
/// line far too long, and one font file named through hundreds of paths. Run as the
/// built binary, its peak memory sampled from /proc (see `BatchMemoryTests`).
@Suite("textmeasure batch limits")
struct BatchLimitsTests {
    /// A 10 MB line (20 MB aborted the process under a memory limit, losing the lines
    /// after it) gets an error row with a null id; the lines after it are measured.
    @Test func tooLongLineFailsAloneInBoundedMemory() throws {
        let long = #"{"id": "long", "width": 100, "text": ""# + String(repeating: "x", count: 10_000_000) + #""}"#
        let input = Data(([long] + (1...3).map { #"{"id": \#($0), "text": "Hello, world", "width": 390}"# })
            .joined(separator: "\n").utf8)
        let run = try CLI.run(["batch"], stdin: input)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)
        #expect(lines[0] == #"{"error":"line of \#(long.utf8.count) bytes is longer than the 8 MiB a line may have","id":null}"#)
        for (index, line) in lines.dropFirst().enumerated() {
            #expect(line.hasPrefix(#"{"height":23,"id":\#(index + 1),"#), "\(line)")
        }
        let peak = try BatchMemoryTests.peakResidentKiB(batch: input)
        #expect(peak < 100 * 1024 || BatchMemoryTests.underAddressSanitizer, "peak \(peak) KiB")
    }

    /// 200 lines naming the 11 MB emoji font through 200 spellings of its path
    /// (`Fonts/./././…`) load it once: they held 2.3 GB when fonts were keyed by path.
    @Test func manySpellingsOfAFontPathLoadItOnce() throws {
        let folder = CLI.packageRoot.appendingPathComponent("Fonts").path
        let lines = (0..<200).map { i in
            let path = folder + String(repeating: "/.", count: i) + "/NotoColorEmoji.ttf"
            return #"{"id": \#(i), "text": "🙂 ok", "width": 200, "fonts": ["\#(path)"]}"#
        }
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        let run = try CLI.run(["batch"], stdin: input)
        let outputs = run.output.split(separator: "\n")
        #expect(outputs.count == 200)
        #expect(outputs.allSatisfy { !$0.contains("error") && $0.contains("\"lines\":1") })
        let peak = try BatchMemoryTests.peakResidentKiB(batch: input)
        #expect(peak < 200 * 1024 || BatchMemoryTests.underAddressSanitizer, "peak \(peak) KiB")
    }
}
