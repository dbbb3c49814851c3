import Foundation

/// The text a command works on: its one positional argument, or standard input
/// when that argument is `-`, or absent while standard input is not a terminal.
///
/// Standard input must be UTF-8; invalid UTF-8 is an input error (exit 1), never
/// silently replaced.
enum TextInput {
    static func read(_ positionals: [String]) throws(CLIError) -> String {
        guard positionals.count <= 1 else { throw .usage("expected one TEXT argument (or - for stdin), got \(positionals.count)") }
        if let text = positionals.first, text != "-" { return text }
        if positionals.isEmpty, isatty(STDIN_FILENO) != 0 {
            throw .usage("no TEXT given: pass it as an argument, or - to read standard input")
        }
        return try StandardInput.read()
    }

    static func decode(_ data: some Collection<UInt8>, source: String) throws(CLIError) -> String {
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .input("\(source) is not valid UTF-8")
        }
        return text
    }
}
