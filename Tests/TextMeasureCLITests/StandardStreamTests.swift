import Foundation
import Testing

/// Standard input that cannot be read: an error on stderr and exit 1, never a trap
/// or an endless read (issue 17).
@Suite("textmeasure: unreadable stdin, unwritable stdout")
struct StandardStreamTests {
    /// The commands that read their TEXT from standard input.
    static let textCommands = ["measure --width 100", "explain --width 100", "render --width 100 -o out.png", "breaks"]

    static let unreadable: [(redirection: String, reason: String)] = [("< /", "Is a directory"), ("<&-", "it is closed")]

    @Test("standard input that is a directory or closed: an error naming why, exit 1",
          arguments: textCommands, unreadable)
    func unreadableInput(_ command: String, _ input: (redirection: String, reason: String)) throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Shell.run(#""$TM" \#(command) - \#(input.redirection)"#, in: directory)
        let name = command.prefix { $0 != " " }
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "textmeasure \(name): cannot read standard input: \(input.reason)\n")
    }

    @Test("endless standard input stops at the library's limit of UTF-16 code units")
    func endlessInput() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Shell.run(#""$TM" measure --width 100 - < /dev/zero"#, in: directory)
        #expect(run.status == 1)
        #expect(run.stderr == "textmeasure measure: standard input is longer than 2147483646 UTF-16 code units, "
                + "the most a text can have\n")
    }

    // AddressSanitizer reserves terabytes of address space: under `ulimit -v` nothing starts.
    @Test("standard input larger than memory allows: an error, not a trap",
          .enabled(if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil))
    func inputBeyondMemory() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Shell.run(#"ulimit -v 1000000; "$TM" measure --width 100 - < /dev/zero"#, in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("textmeasure measure: standard input does not fit in memory: "))
    }
}
