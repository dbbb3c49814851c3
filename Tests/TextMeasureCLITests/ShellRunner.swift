import Foundation
import Testing

/// Runs the built `textmeasure` through bash, for what only a shell sets up: closed
/// descriptors (`<&-`), devices (`< /dev/zero`, `> /dev/full`), `ulimit`, pipelines.
enum Shell {
    /// Runs `script` in `directory`; the script names the executable `"$TM"`. Standard
    /// input is empty unless the script redirects it; stdout and stderr are captured.
    static func run(_ script: String, in directory: URL) throws -> CLIRun {
        let executable = try #require(CLI.executable, "build the textmeasure product first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        // The backtracer would turn a trap into pages of stderr; its status is what counts.
        process.environment = ProcessInfo.processInfo.environment.merging(["TM": executable.path,
                                                                           "SWIFT_BACKTRACE": "enable=no"]) { $1 }
        return try CLI.run(process, stdin: nil)
    }

    /// A new empty directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("textmeasure-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
