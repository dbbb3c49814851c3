import Foundation
import TextMeasure

/// All of standard input as text, read with checked read(2) calls.
///
/// A read that fails (a closed descriptor, a directory given as input) is an input
/// error, and so is input longer than the library takes (`PreparedText.maximumUTF16Count`
/// UTF-16 code units) or larger than memory allows: an endless input such as /dev/zero
/// stops at the limit instead of growing until the process is killed. The buffer is
/// malloc'd so that memory running out while reading is an error too, not a trap in
/// Array's growth.
enum StandardInput {
    /// At most this many bytes per read(2). The UTF-16 count of each read's bytes is
    /// taken through a temporary string this large: small enough for malloc to reuse
    /// its memory (not to map fresh pages for each, as it does at 128 KiB and more).
    private static let readSize = 1 << 16

    static func read() throws(CLIError) -> String {
        let descriptor = STDIN_FILENO, limit = PreparedText.maximumUTF16Count
        var capacity = 4 * readSize, count = 0
        var start = try grow(nil, to: capacity, holding: 0)
        defer { free(start) }
        // UTF-16 code units of the first `counted` bytes; a sequence cut off by the
        // end of a read is counted with the next.
        var units = 0, counted = 0
        while true {
            if capacity - count < readSize {
                start = try grow(start, to: 2 * capacity, holding: count)
                capacity *= 2
            }
            let received = Foundation.read(descriptor, start + count, readSize)
            if received < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN: StandardDescriptors.wait(for: POLLIN, on: descriptor)   // a non-blocking pipe
                case let failure:
                    throw .input("cannot read standard input: \(StandardDescriptors.failure(failure, on: descriptor))")
                }
                continue
            }
            count += received
            let uncounted = UnsafeBufferPointer(start: start + counted, count: count - counted)
            let complete = received == 0 ? uncounted : UnsafeBufferPointer(rebasing: uncounted.dropLast(incompleteTail(uncounted)))
            units += String(decoding: complete, as: UTF8.self).utf16.count
            counted += complete.count
            guard units <= limit else {
                throw .input("standard input is longer than \(limit) UTF-16 code units, the most a text can have")
            }
            if received == 0 { break }
        }
        return try TextInput.decode(UnsafeBufferPointer(start: start, count: count), source: "standard input")
    }

    /// `buffer` (nil for none) reallocated to `size` bytes.
    private static func grow(_ buffer: UnsafeMutablePointer<UInt8>?, to size: Int,
                             holding count: Int) throws(CLIError) -> UnsafeMutablePointer<UInt8> {
        guard let larger = realloc(buffer, size) else {
            throw .input("standard input does not fit in memory: \(count) bytes read, no room for \(size)")
        }
        return larger.bindMemory(to: UInt8.self, capacity: size)
    }

    /// How many bytes at the end of `bytes` begin a UTF-8 sequence not complete yet.
    private static func incompleteTail(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        for back in stride(from: 1, through: min(3, bytes.count), by: 1) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 == 0x80 else {   // the sequence's first byte
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? back : 0
            }
        }
        return 0
    }
}
