import Foundation
import Testing

/// Standard input that cannot be read and standard output that cannot be written:
/// an error on stderr and exit 1, never a trap, an endless read, or lost output with
/// exit 0 (issue 17).
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

    /// Each command that prints, with what it needs (the directory holds cases.jsonl,
    /// texts.jsonl and golden.json).
    static let printing: [(name: String, arguments: String)] = [
        ("measure", #"measure --width 100 "Hello, world""#), ("measure", #"measure --json --width 100 "Hello, world""#),
        ("explain", #"explain --width 100 "Hello, world""#), ("breaks", #"breaks "Hello, world""#),
        ("breaks", "breaks --jsonl < texts.jsonl"), ("batch", "batch < cases.jsonl"),
        ("golden", "golden verify golden.json"), ("golden", "golden record cases.jsonl -o recorded.json"),
        ("render", "render --width 100 -o out.png Hello"), ("textmeasure", "--help"),
    ]

    static let unwritable: [(redirection: String, reason: String)] = [
        ("> /dev/full", "No space left on device"), (">&-", "it is closed"),
    ]

    @Test("standard output that is full or closed: an error naming why, exit 1", arguments: printing, unwritable)
    func unwritableOutput(_ command: (name: String, arguments: String), _ output: (redirection: String, reason: String)) throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"id": "a", "text": "Hello, world", "width": 100}"#.write(to: directory.appendingPathComponent("cases.jsonl"),
                                                                       atomically: true, encoding: .utf8)
        try #"{"id": "a", "text": "Hello, world"}"#.write(to: directory.appendingPathComponent("texts.jsonl"),
                                                         atomically: true, encoding: .utf8)
        try #require(try Shell.run(#""$TM" golden record cases.jsonl -o golden.json"#, in: directory).status == 0)

        let run = try Shell.run(#""$TM" \#(command.arguments) \#(output.redirection)"#, in: directory)
        #expect(run.status == 1)
        let prefix = command.name == "textmeasure" ? "textmeasure" : "textmeasure \(command.name)"
        #expect(run.stderr == "\(prefix): cannot write standard output: \(output.reason)\n")
    }

    /// 20,000 cases, one per line.
    static func manyCases(in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("cases.jsonl")
        try (0..<20_000).map { #"{"id": \#($0), "text": "Hello, world", "width": 100}"# + "\n" }.joined()
            .write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("batch into a non-blocking pipe read slowly: every result arrives, exit 0")
    func nonBlockingOutput() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = try Self.manyCases(in: directory)
        let executable = try #require(CLI.executable, "build the textmeasure product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["batch"]
        process.standardInput = try FileHandle(forReadingFrom: cases)
        let pipe = Pipe()
        // The flag belongs to the pipe, so the process writes to it non-blocking too.
        let writeEnd = pipe.fileHandleForWriting.fileDescriptor
        try #require(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var output = Data()
        // Slower than the batch writes: the pipe fills, and writes meet EAGAIN.
        while let chunk = try pipe.fileHandleForReading.read(upToCount: 8192), !chunk.isEmpty {
            output.append(chunk)
            usleep(1000)
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let lines = output.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 20_000)
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).contains(#""id":19999"#) } == true)
    }

    /// `textmeasure` started on a pipe set non-blocking (the flag belongs to the pipe, so
    /// the process reads it non-blocking too), writing another pipe.
    struct NonBlockingRun {
        var process: Process
        var input: FileHandle
        var output: FileHandle
        /// A reader of the input pipe besides the process: when the process fails and exits
        /// early, writing to it still succeeds and the test fails on the missing answer,
        /// rather than SIGPIPE ending the whole test run.
        var reader: FileHandle

        init(_ arguments: [String]) throws {
            let executable = try #require(CLI.executable, "build the textmeasure product first (swift build)")
            process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let input = Pipe(), output = Pipe()
            let readEnd = input.fileHandleForReading.fileDescriptor
            try #require(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK) == 0)
            reader = FileHandle(fileDescriptor: fcntl(readEnd, F_DUPFD_CLOEXEC, 0), closeOnDealloc: true)
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            (self.input, self.output) = (input.fileHandleForWriting, output.fileHandleForReading)
        }
    }

    @Test("batch as a co-process on a non-blocking pipe: it waits for each line, answers it, exits 0")
    func nonBlockingBatchInput() throws {
        let run = try NonBlockingRun(["batch"])
        let (process, input, output) = (run.process, run.input, run.output)
        // One line, then its answer: the batch finds the pipe empty each time it reads on.
        for index in 0..<20 {
            try input.write(contentsOf: Data((#"{"id": \#(index), "text": "Hello, world", "width": 100}"# + "\n").utf8))
            var answer = Data()
            while answer.last != UInt8(ascii: "\n"), let byte = try output.read(upToCount: 1), !byte.isEmpty {
                answer.append(byte)
            }
            try #require(String(decoding: answer, as: UTF8.self).hasPrefix(#"{"height":23,"id":\#(index),"#))
        }
        try input.close()
        #expect(try output.readToEnd() == nil)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test("measure - on a non-blocking pipe written in two parts: it reads to the end")
    func nonBlockingTextInput() throws {
        let run = try NonBlockingRun(["measure", "--json", "--width", "1000", "-"])
        let (process, input, output) = (run.process, run.input, run.output)
        try input.write(contentsOf: Data("Hello, ".utf8))
        usleep(300_000)   // longer than the process takes to start and find the pipe empty
        try input.write(contentsOf: Data("world".utf8))
        try input.close()
        let printed = String(decoding: try output.readToEnd() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(printed.contains(#""text":"Hello, world""#))
    }

    @Test("a reader that goes away (| head -1) ends batch quietly with 141, as SIGPIPE does, whether or not SIGPIPE is ignored",
          arguments: ["", "trap '' PIPE; "])
    func readerGoesAway(_ prelude: String) throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.manyCases(in: directory)
        let run = try Shell.run(#"\#(prelude)"$TM" batch < cases.jsonl | head -1; echo "${PIPESTATUS[0]}""#, in: directory)
        #expect(run.stderr.isEmpty)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2 && lines.first?.hasPrefix(#"{"height""#) == true)
        #expect(lines.last == "141")
    }
}
