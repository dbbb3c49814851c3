import Foundation
import Testing

/// What one run of the `textmeasure` executable printed and returned.
struct CLIRun {
    var status: Int32
    var stdout: Data
    var stderr: String
    var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs the built `textmeasure` executable, as a user's shell would.
enum CLI {
    /// The executable: `$TEXTMEASURE_CLI` if set, else `textmeasure` beside the
    /// test binary (SwiftPM builds both into `.build/<triple>/<configuration>/`),
    /// else in `.build/debug/` of this package.
    static let executable: URL? = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["TEXTMEASURE_CLI"] { candidates.append(URL(fileURLWithPath: path)) }
        for binary in [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), Bundle.main.executableURL]
            .compactMap({ $0 }) {
            candidates.append(binary.deletingLastPathComponent().appendingPathComponent("textmeasure"))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {   // macOS: the .xctest bundle
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("textmeasure"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/textmeasure"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The package's root folder, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `textmeasure arguments...` with `stdin` as standard input (empty when nil)
    /// and waits for it to end.
    static func run(_ arguments: [String], stdin: Data? = nil) throws -> CLIRun {
        let executable = try #require(executable, "build the textmeasure product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        return try run(process, stdin: stdin)
    }

    /// Runs `process` with `stdin` as standard input (empty when nil), capturing its
    /// stdout and stderr, and waits for it to end.
    static func run(_ process: Process, stdin: Data?) throws -> CLIRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("textmeasure-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files rather than pipes: no deadlock however much a run prints.
        let input = folder.appendingPathComponent("stdin"), output = folder.appendingPathComponent("stdout"),
            errors = folder.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: input)
        try Data().write(to: output)
        try Data().write(to: errors)

        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: try Data(contentsOf: output),
                      stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }

    static func run(_ arguments: String..., stdin: String) throws -> CLIRun {
        try run(arguments, stdin: Data(stdin.utf8))
    }

    static func run(_ arguments: String...) throws -> CLIRun {
        try run(arguments, stdin: nil)
    }

    /// The paragraphs of the project's texts in every script (`Tests/Fixtures/texts`),
    /// file by file in name order.
    static func fixtureParagraphs() throws -> [String] {
        let texts = packageRoot.appendingPathComponent("Tests/Fixtures/texts")
        var paragraphs: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: texts.path).sorted() where file.hasSuffix(".txt") {
            let text = try String(contentsOf: texts.appendingPathComponent(file), encoding: .utf8)
            paragraphs += text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        }
        try #require(paragraphs.count > 50, "the texts in Tests/Fixtures/texts")
        return paragraphs
    }

    /// Decodes a run's standard output as one JSON document.
    static func decode<T: Decodable>(_ type: T.Type, _ run: CLIRun) throws -> T {
        try JSONDecoder().decode(T.self, from: run.stdout)
    }

    /// A run's standard output as JSON objects, one per line.
    static func jsonLines(_ run: CLIRun) throws -> [[String: Any]] {
        try run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
    }
}

/// `measure --json`'s output, as issue 2 defines it. Encoded again by `JSONEncoder` with
/// sorted keys and slashes unescaped, it gives what `measure` prints, byte for byte.
struct MeasureJSON: Codable {
    struct Size: Codable, Equatable { var width: Double; var height: Double }
    struct Line: Codable { var start: Int; var end: Int; var width: Double; var text: String }
    var size: Size
    var intrinsicContentSize: Size
    var idealWidth: Double
    var lines: [Line]
    var truncated: Bool?
    var missingGlyphs: Int?
}

/// A paragraph several times wider than a phone screen when unwrapped.
let paragraph = "In my younger and more vulnerable years my father gave me some advice that I’ve been "
    + "turning over in my mind ever since. “Whenever you feel like criticizing anyone,” he told me, "
    + "“just remember that all the people in this world haven’t had the advantages that you’ve had.”"

/// Runs `textmeasure arguments...` and expects it to fail cleanly: `status`,
/// nothing on stdout, and one message on stderr naming the command.
func expectFailure(_ arguments: [String], status: Int32, stdin: Data? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
    let run = try CLI.run(arguments, stdin: stdin)
    #expect(run.status == status, sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("textmeasure \(arguments[0]): "), sourceLocation: sourceLocation)
}
