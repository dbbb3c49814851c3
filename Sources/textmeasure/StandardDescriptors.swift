import Foundation

/// Standard input, output and error as the process found them.
///
/// A descriptor the caller closed (`<&-`, `>&-`) is taken at startup by /dev/null,
/// opened in the direction that fails: otherwise the first file the CLI opens (a
/// font, a golden file's temporary) would get its number, and results meant for
/// standard output would be written into that file. Reading a closed standard input
/// or writing a closed standard output then fails with EBADF, which `failure` names.
enum StandardDescriptors {
    /// The standard descriptors that were closed when the process started.
    static let closed: Set<Int32> = reserveClosed()

    private static func reserveClosed() -> Set<Int32> {
        var closed: Set<Int32> = []
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closed.insert(descriptor)
            // Write-only for input and read-only for output, so that every use fails.
            let placeholder = open("/dev/null", (descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY))
            if placeholder >= 0, placeholder != descriptor {   // lower descriptors are open, so only if /dev/null is odd
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
        return closed
    }

    /// Why an operation on the standard `descriptor` failed with `error` (an errno).
    static func failure(_ error: Int32, on descriptor: Int32) -> String {
        error == EBADF && closed.contains(descriptor) ? "it is closed" : String(cString: strerror(error))
    }

    /// Blocks until `descriptor` (set non-blocking by whoever shares it) is ready for
    /// `events`; a hang-up or error is left for the next read or write to report.
    static func wait(for events: Int32, on descriptor: Int32) {
        var request = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        _ = poll(&request, 1, -1)
    }
}
