import Foundation
import Testing

/// What input must never reach: a trap. `try!` and `fatalError` end the process
/// with SIGILL instead of an error a user can act on, and so do Foundation's
/// `readDataToEndOfFile()` and `FileHandle.standard*` writes, which use `try!`
/// inside. The CLI writes standard output only through `StandardOutput`, which
/// checks every write (`print` drops a failed write and exits 0).
@Suite("sources: no trap reachable from input")
struct SourceLintTests {
    /// Occurrences known to be unreachable from input, as "path: line text", each
    /// with the reason it cannot be reached. None so far.
    static let allowed: Set<String> = []

    static func swiftFiles(under folder: String) throws -> [(path: String, lines: [Substring])] {
        let root = CLI.packageRoot.appendingPathComponent(folder)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        return try paths.sorted().map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            return ("\(folder)/\(path)", text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    /// The lines of `files` that contain any of `patterns`, outside `//` comments.
    static func offending(_ files: [(path: String, lines: [Substring])], _ patterns: [String]) -> [String] {
        files.flatMap { file in
            file.lines.filter { line in
                let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
                return patterns.contains { code.contains($0) }
            }.map { "\(file.path): \($0.trimmingCharacters(in: .whitespaces))" }
        }.filter { !allowed.contains($0) }
    }

    @Test("no try!, fatalError or trapping Foundation I/O in Sources")
    func noTraps() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 50)
        #expect(Self.offending(files, ["try!", "fatalError(", "readDataToEndOfFile", "FileHandle.standard"]) == [])
    }

    @Test("the CLI writes standard output only through StandardOutput")
    func noPrint() throws {
        let files = try Self.swiftFiles(under: "Sources/textmeasure")
        #expect(Self.offending(files, ["print("]) == [])
    }
}
