import Foundation
import Testing

/// The README's console examples print what the built `textmeasure` prints, byte for
/// byte: each ```console block runs in a fresh folder with the built executable first
/// on PATH, its `$ ` commands in order, and each command's standard output must be the
/// lines the README shows under it.
@Suite("README console examples")
struct ReadmeTests {
    struct Command: CustomStringConvertible {
        var line: Int
        var script: String
        var expected: String
        var description: String { "README.md:\(line): $ \(script)" }
    }

    /// The commands of each console block. A command continues on the next line after
    /// a line ending in `\` or `|`; its output is every line up to the next `$ `.
    static func consoleBlocks() throws -> [[Command]] {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [[Command]] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```console" else { index += 1; continue }
            index += 1
            var commands: [Command] = []
            while index < lines.count, lines[index] != "```" {
                let line = lines[index]
                guard line.hasPrefix("$ ") else {
                    if commands.isEmpty {
                        Issue.record("README.md:\(index + 1): console output before any command")
                    } else {
                        commands[commands.count - 1].expected += line + "\n"
                    }
                    index += 1
                    continue
                }
                var script = String(line.dropFirst(2))
                let start = index + 1
                while script.hasSuffix("\\") || script.hasSuffix("|"), index + 1 < lines.count {
                    index += 1
                    script += "\n" + lines[index]
                }
                commands.append(Command(line: start, script: script, expected: ""))
                index += 1
            }
            blocks.append(commands)
            index += 1
        }
        return blocks
    }

    /// Runs `script` with bash in `folder/work`, the built executable first on PATH.
    static func run(_ script: String, in folder: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let executable = try #require(CLI.executable, "build the textmeasure product first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -o pipefail\n" + script]
        process.currentDirectoryURL = folder.appendingPathComponent("work")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = folder.appendingPathComponent(".stdout"), errors = folder.appendingPathComponent(".stderr")
        try Data().write(to: output)
        try Data().write(to: errors)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8),
                try String(contentsOf: errors, encoding: .utf8))
    }

    @Test("every console example prints what the README shows")
    func consoleExamples() throws {
        let blocks = try Self.consoleBlocks()
        #expect(blocks.count >= 3, "the README's measure, explain and batch examples")
        for commands in blocks {
            #expect(!commands.isEmpty)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("textmeasure-readme-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("work"), withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            for command in commands {
                let run = try Self.run(command.script, in: folder)
                #expect(run.status == 0, "\(command) exits \(run.status): \(run.stderr)")
                #expect(run.stdout == command.expected, """
                    \(command)
                    README shows:
                    \(command.expected)
                    it prints:
                    \(run.stdout)
                    """)
            }
        }
    }
}
