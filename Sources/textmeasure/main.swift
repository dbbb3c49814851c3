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

    Run 'textmeasure <command> --help' for a command's options, 'textmeasure --version'
    for the version and whether this build has the embedded fonts. A TEXT that begins
    with - goes after --: textmeasure measure --width 100 -- "-5 °C"
    Exit status: 0 success, 1 bad input or data or output that cannot be written,
    2 usage error; 141 (quietly, as SIGPIPE ends a filter) when the reader of standard
    output goes away.
    """

/// The first line of a help text's description: the line after its usage lines.
func summary(of help: String) -> String {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let blank = lines.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }), blank + 1 < lines.count else { return "" }
    return String(lines[blank + 1])
}

/// The version, and whether the embedded fonts were built in: without them (the
/// EmbeddedFonts trait off) every measurement needs --font.
let versionLine: String = {
    let embedded = FontSet.embeddedFontNames.count
    let fonts = embedded == 0 ? "no embedded fonts (give fonts with --font)" : "\(embedded) embedded fonts"
    return "textmeasure \(TextMeasure.version), \(fonts)"
}()

@MainActor func main() -> Int32 {
    var tokens = Array(CommandLine.arguments.dropFirst())
    guard let name = tokens.first else {
        printError(usage)
        return 2
    }
    tokens.removeFirst()
    if name == "--version" {
        return printText(versionLine)
    }
    if ["--help", "-h", "help"].contains(name) {
        guard let topic = tokens.first else { return printText(usage) }
        guard let command = commands[topic] else { printError("textmeasure: unknown command '\(topic)'"); return 2 }
        return printText(command.help)
    }
    guard let command = commands[name] else {
        printError("textmeasure: unknown command '\(name)'\n\n\(usage)")
        return 2
    }
    var arguments = Arguments(tokens)
    if arguments.flag("--help") || arguments.flag("-h") {
        return printText(command.help)
    }
    do {
        try command.run(&arguments)
        return 0
    } catch {
        report(error, prefix: "textmeasure \(name)")
        return error.exitCode
    }
}

/// Writes `text` and a newline to standard output (a help text); returns the exit status.
func printText(_ text: String) -> Int32 {
    do {
        try StandardOutput.writeLine(text)
        return 0
    } catch {
        report(error, prefix: "textmeasure")
        return error.exitCode
    }
}

/// Tells `error` on standard error, but nothing when the reader of standard output
/// went away: a filter under `head` ends in silence.
func report(_ error: CLIError, prefix: String) {
    if case .readerGone = error { return }
    printError("\(prefix): \(error.description)")
}

exit(main())
