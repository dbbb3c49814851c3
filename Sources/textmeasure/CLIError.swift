import Foundation

/// A failure the CLI reports on stderr, with the exit code it maps to.
enum CLIError: Error, CustomStringConvertible {
    /// The command line itself is wrong: exit 2.
    case usage(String)
    /// The input or data is wrong (text, font, width): exit 1.
    case input(String)
    /// Standard output cannot be written (a full disk, a closed descriptor): exit 1.
    case output(String)
    /// The reader of standard output went away (EPIPE): exit 141, as a filter killed by
    /// SIGPIPE (the shell's 128 + 13), and no message, as `cat` under `head` leaves none.
    case readerGone

    var exitCode: Int32 {
        switch self {
        case .usage: 2
        case .input, .output: 1
        case .readerGone: 128 + SIGPIPE
        }
    }

    var description: String {
        switch self {
        case .usage(let message), .input(let message), .output(let message): message
        case .readerGone: "standard output was closed by its reader"
        }
    }
}
