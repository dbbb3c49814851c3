/// Standard output made a piece at a time and too long to hold whole (`measure` of an
/// 8 MB text prints 14–17 MB): the pieces are gathered and written a chunk at a time, so
/// that at most about a chunk is held, and a write is made per chunk, not per piece.
struct ChunkedOutput {
    /// The size of a pipe's buffer on Linux.
    private static let chunkSize = 1 << 16
    private var pending: [UInt8] = []

    init() { pending.reserveCapacity(Self.chunkSize) }

    mutating func write(_ text: String) throws(CLIError) {
        pending.append(contentsOf: text.utf8)
        try writeIfFull()
    }

    /// What `json` holds, which it then forgets.
    mutating func write(_ json: inout JSONWriter) throws(CLIError) {
        pending.append(contentsOf: json.bytes)
        json.removeAll()
        try writeIfFull()
    }

    /// Writes what is left.
    mutating func finish() throws(CLIError) {
        try StandardOutput.write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func writeIfFull() throws(CLIError) {
        if pending.count >= Self.chunkSize { try finish() }
    }
}
