import Foundation
import TextMeasure

let usage = """
    usage: textmeasure <command> [options]

    Breaks Unicode text into lines and measures it with ICU, HarfBuzz and FreeType,
    using the embedded default fonts unless --font is given.

    commands:
      measure   the size of a text at a proposed width, and its lines
      breaks    the line-break opportunities of a text

    Run 'textmeasure <command> --help' for a command's options.
    """

/// Each command: its help text and what runs it.
let commands: [String: (help: String, run: (inout Arguments) throws(CLIError) -> Void)] = [
    "measure": (MeasureCommand.help, MeasureCommand.run),
    "breaks": (BreaksCommand.help, BreaksCommand.run),
    "bench": (BenchCommand.help, BenchCommand.run),
]

@MainActor func main() -> Int32 {
    var tokens = Array(CommandLine.arguments.dropFirst())
    guard let name = tokens.first, name != "--help", name != "-h", name != "help" else {
        print(usage)
        return tokens.isEmpty ? 2 : 0
    }
    tokens.removeFirst()
    guard let command = commands[name] else {
        FileHandle.standardError.write(Data("textmeasure: unknown command '\(name)'\n\n\(usage)\n".utf8))
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
        FileHandle.standardError.write(Data("textmeasure \(name): \(error.description)\n".utf8))
        return error.exitCode
    }
}

exit(main())
