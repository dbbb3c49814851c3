import Foundation
import TextMeasure

// Before anything opens a file: a closed standard descriptor must not be reused.
_ = StandardDescriptors.closed

/// Each command: its help text and what runs it.
let commands: [String: (help: String, run: (inout Arguments) throws(CLIError) -> Void)] = [
    "measure": (MeasureCommand.help, MeasureCommand.run),
    "explain": (ExplainCommand.help, ExplainCommand.run),
    "breaks": (BreaksCommand.help, BreaksCommand.run),
    "batch": (BatchCommand.help, BatchCommand.run),
    "render": (RenderCommand.help, RenderCommand.run),
    "golden": (GoldenCommand.help, GoldenCommand.run),
    "bench": (BenchCommand.help, BenchCommand.run),
]

/// The top-level help; each command is listed with the first line of its own
/// help's description.
let usage = """
    usage: textmeasure <command> [options]

    Breaks Unicode text into lines and measures it with ICU, HarfBuzz and FreeType,
    using the embedded default fonts unless --font is given.

    commands:
    \(commands.keys.sorted().map { "  \(TerminalText.padded($0, toColumns: 10))\(summary(of: commands[$0]?.help ?? ""))" }
        .joined(separator: "\n"))

    Run 'textmeasure <command> --help' for a command's options. A TEXT that begins
    with - goes after --: textmeasure measure --width 100 -- "-5 °C"
    Exit status: 0 success, 1 bad input or data, 2 usage error.
    """

/// The first line of a help text's description: the line after its usage lines.
func summary(of help: String) -> String {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let blank = lines.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }), blank + 1 < lines.count else { return "" }
    return String(lines[blank + 1])
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

@MainActor func main() -> Int32 {
    var tokens = Array(CommandLine.arguments.dropFirst())
    guard let name = tokens.first else {
        printError(usage)
        return 2
    }
    tokens.removeFirst()
    if ["--help", "-h", "help"].contains(name) {
        guard let topic = tokens.first else { print(usage); return 0 }
        guard let command = commands[topic] else { printError("textmeasure: unknown command '\(topic)'"); return 2 }
        print(command.help)
        return 0
    }
    guard let command = commands[name] else {
        printError("textmeasure: unknown command '\(name)'\n\n\(usage)")
        return 2
    }
    var arguments = Arguments(tokens)
    if arguments.flag("--help") || arguments.flag("-h") {
        print(command.help)
        return 0
    }
    do {
        try command.run(&arguments)
        return 0
    } catch {
        printError("textmeasure \(name): \(error.description)")
        return error.exitCode
    }
}

exit(main())
