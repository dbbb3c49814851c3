import Foundation

/// The CLI's one way to standard output: unbuffered, every write checked.
///
/// Nothing is buffered, so there is nothing to flush at exit and a reader sees each
/// result as soon as it is written. A non-blocking descriptor (shared with a parent
/// that set O_NONBLOCK) is waited on, not given up on; any other failure is an error,
/// so that output that did not arrive never ends in exit status 0.
enum StandardOutput {
    /// Writes `text`.
    ///
    /// - Throws: `CLIError.output` naming the reason, or `.readerGone` when the reader
    ///   closed its end of the pipe (EPIPE, with SIGPIPE ignored).
    static func write(_ text: String) throws(CLIError) {
        var text = text
        try check(text.withUTF8 { write($0, to: STDOUT_FILENO) })
    }

    /// Writes `bytes`, failing as `write(_:)` does.
    static func write(_ bytes: [UInt8]) throws(CLIError) {
        try check(bytes.withUnsafeBufferPointer { write($0, to: STDOUT_FILENO) })
    }

    private static func check(_ failure: Int32?) throws(CLIError) {
        guard let failure else { return }
        throw failure == EPIPE ? .readerGone
            : .output("cannot write standard output: \(StandardDescriptors.failure(failure, on: STDOUT_FILENO))")
    }

    /// Writes `line` and a newline.
    static func writeLine(_ line: String) throws(CLIError) {
        try write(line + "\n")
    }

    /// Writes all of `bytes` to `descriptor`; returns the errno that stopped it, or nil.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        guard let start = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let count = Foundation.write(descriptor, start + offset, bytes.count - offset)
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: StandardDescriptors.wait(for: POLLOUT, on: descriptor)
            case let failure: return failure
            }
        }
        return nil
    }
}

/// Writes `message` and a newline to standard error. A failure is ignored: there is
/// nowhere left to report it.
func printError(_ message: String) {
    var message = message + "\n"
    _ = message.withUTF8 { StandardOutput.write($0, to: STDERR_FILENO) }
}
