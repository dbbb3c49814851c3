/// A failure the CLI reports on stderr, with the exit code it maps to.
enum CLIError: Error, CustomStringConvertible {
    /// The command line itself is wrong: exit 2.
    case usage(String)
    /// The input or data is wrong (text, font, width): exit 1.
    case input(String)

    var exitCode: Int32 {
        switch self {
        case .usage: 2
        case .input: 1
        }
    }

    var description: String {
        switch self {
        case .usage(let message), .input(let message): message
        }
    }
}
