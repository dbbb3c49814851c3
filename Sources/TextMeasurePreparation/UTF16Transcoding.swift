import CTextICU

/// Copies a string's UTF-16 code units into a buffer, fast for native strings.
package enum UTF16Transcoding {
    /// Fills `buffer` (exactly `text.utf16.count` units) with the text's UTF-16 (a
    /// whole string, or the part of one an edit prepares again), and returns whether
    /// some code point of it lies outside `ctx_bidi_passes`'s ranges. When none does, no
    /// code point is right to left or an explicit control, and text whose paragraphs
    /// are not right to left needs no bidi levels: the walk that decodes the text
    /// answers that too, rather than a second pass over it (`BidiLevels.isNeeded`).
    ///
    /// Native Swift strings hold valid UTF-8 in contiguous memory, which is decoded
    /// here directly: several times faster than iterating `String.UTF16View`.
    @discardableResult
    static func copy(_ text: Substring, into buffer: UnsafeMutableBufferPointer<UInt16>) -> Bool {
        let decoded: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var out = 0, i = 0
            var outsideRanges = false
            while i < bytes.count {
                let lead = UInt32(bytes[i])
                if lead < 0x80 {
                    buffer[out] = UInt16(lead)
                    out += 1; i += 1
                    continue
                }
                let scalar: UInt32
                if lead < 0xE0 {
                    scalar = (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                    buffer[out] = UInt16(scalar)
                    out += 1; i += 2
                } else if lead < 0xF0 {
                    scalar = (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                    buffer[out] = UInt16(truncatingIfNeeded: scalar)
                    out += 1; i += 3
                } else {
                    scalar = (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
                        | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
                    buffer[out] = UInt16(truncatingIfNeeded: 0xD7C0 + (scalar >> 10))
                    buffer[out + 1] = UInt16(truncatingIfNeeded: 0xDC00 | (scalar & 0x3FF))
                    out += 2; i += 4
                }
                if !outsideRanges, ctx_bidi_passes(scalar) == 0 { outsideRanges = true }
            }
            return outsideRanges
        }
        if let decoded { return decoded }
        _ = buffer.initialize(from: text.utf16)
        return true
    }
}
