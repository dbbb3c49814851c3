import Foundation

/// Reads a file descriptor line by line, as bytes, holding no more than one read
/// chunk and the current line: input of any length streams through, and a line
/// is handed over as soon as its newline arrives (a co-process gets its answer
/// without closing its end of the pipe).
///
/// Lines are bytes, not strings, so that each can be checked for valid UTF-8 on
/// its own and a bad line fails alone. A line longer than `maximumLineLength` fails
/// alone too: it is counted, not kept, so memory stays bounded however long it is.
struct LineReader {
    /// The longest line handed over: 8 MiB. Measuring takes about 60 bytes of memory
    /// per byte of a line (a 50 MB line took 3.1 GB), so this bounds one line's
    /// share of memory at about half a gigabyte.
    static let maximumLineLength = 8 << 20

    /// A line longer than `maximumLineLength`, in place of its bytes.
    struct LineTooLong: Error, CustomStringConvertible {
        var byteCount: Int
        var description: String {
            "line of \(byteCount) bytes is longer than the \(LineReader.maximumLineLength >> 20) MiB a line may have"
        }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Start of the current line in `buffer`.
    private var lineStart = 0
    /// Where to resume looking for a newline (everything before has none).
    private var scanned = 0
    private var reachedEnd = false
    /// Bytes of the current line dropped already because it is too long.
    private var dropped = 0
    private static let chunkSize = 1 << 16

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line without its "\n" (the last line need not have one), or nil
    /// at the end of the input.
    mutating func next() throws(CLIError) -> Result<[UInt8], LineTooLong>? {
        while true {
            if let line = bufferedLine() { return line }
            if reachedEnd { return nil }
            try fill()
        }
    }

    /// The next line if it has been read in full already: no waiting for input.
    mutating func bufferedLine() -> Result<[UInt8], LineTooLong>? {
        if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            defer { lineStart = newline + 1; scanned = lineStart; dropped = 0 }
            return line(buffer[lineStart..<newline])
        }
        scanned = buffer.count
        if dropped > 0 || buffer.count - lineStart > Self.maximumLineLength {
            // Too long already: count what is read of it and let it go.
            dropped += buffer.count - lineStart
            buffer.removeSubrange(lineStart...)
            scanned = lineStart
        }
        guard reachedEnd, lineStart < buffer.count || dropped > 0 else { return nil }
        defer { lineStart = buffer.count; scanned = lineStart; dropped = 0 }
        return line(buffer[lineStart...])
    }

    private func line(_ bytes: ArraySlice<UInt8>) -> Result<[UInt8], LineTooLong> {
        let length = dropped + bytes.count
        return length > Self.maximumLineLength ? .failure(LineTooLong(byteCount: length)) : .success(Array(bytes))
    }

    /// Drops the lines already returned and appends one read's worth of input.
    private mutating func fill() throws(CLIError) {
        buffer.removeSubrange(..<lineStart)
        scanned -= lineStart
        lineStart = 0
        let kept = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        var count: Int
        var failure: Int32
        repeat {
            count = buffer.withUnsafeMutableBytes { bytes in
                Foundation.read(descriptor, bytes.baseAddress.map { $0 + kept }, Self.chunkSize)
            }
            failure = count < 0 ? errno : 0
            if failure == EAGAIN { StandardDescriptors.wait(for: POLLIN, on: descriptor) }   // a non-blocking pipe
        } while failure == EINTR || failure == EAGAIN
        buffer.removeSubrange((kept + max(count, 0))...)
        if failure != 0 {
            throw .input("cannot read standard input: \(StandardDescriptors.failure(failure, on: descriptor))")
        }
        reachedEnd = count == 0
    }
}
