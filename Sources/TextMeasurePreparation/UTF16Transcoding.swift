import CTextICU

/// Copies a string's UTF-16 code units into a buffer, fast for native strings.
package enum UTF16Transcoding {
    /// What the walk that copies a text found out about it on the way.
    struct Findings {
        /// Some code point lies outside `ctx_bidi_passes`'s ranges. When none does, no
        /// code point is right to left or an explicit control, and text whose paragraphs
        /// are not right to left needs no bidi levels (`BidiLevels.isNeeded`).
        var mayNeedLevels: Bool
        /// Some code point is drawn by no font of the set and draws something
        /// (`FontSet.isDrawnOrIgnorable`): only then can a cluster need .notdef
        /// (`PreparedText.missingGlyphClusterCount`).
        var mayMissGlyphs: Bool
    }

    /// Fills `buffer` (exactly `text.utf16.count` units) with the text's UTF-16 (a
    /// whole string, or the part of one an edit prepares again), and returns whether
    /// it may need bidi levels (`Findings.mayNeedLevels`): the walk that decodes the
    /// text answers that too, rather than a second pass over it.
    @discardableResult
    static func copy(_ text: Substring, into buffer: UnsafeMutableBufferPointer<UInt16>) -> Bool {
        walk(text, into: buffer, drawnBy: nil).mayNeedLevels
    }

    /// The same, also settling whether some code point of the text is drawn by no
    /// font of `fonts`: preparation answers the missing-glyph question from this walk.
    static func copy(_ text: Substring, into buffer: UnsafeMutableBufferPointer<UInt16>,
                     drawnBy fonts: FontSet) -> Findings {
        walk(text, into: buffer, drawnBy: fonts)
    }

    /// Native Swift strings hold valid UTF-8 in contiguous memory, which is decoded
    /// here directly: several times faster than iterating `String.UTF16View`. Inlined
    /// into both entry points, so that the one without fonts makes no glyph checks.
    @inline(__always)
    private static func walk(_ text: Substring, into buffer: UnsafeMutableBufferPointer<UInt16>,
                             drawnBy fonts: FontSet?) -> Findings {
        // Usually every ASCII code point is drawn or draws nothing: ASCII then needs no look.
        let ascii = fonts?.drawnASCII ?? (.max, .max)
        let checksASCII = ascii.low != .max || ascii.high != .max
        let decoded: Findings? = text.utf8.withContiguousStorageIfAvailable { bytes in
            (fonts?.bmpFonts ?? []).withUnsafeBufferPointer { bmpFonts in
                var out = 0, i = 0
                var outsideRanges = false, undrawn = false
                while i < bytes.count {
                    let lead = UInt32(bytes[i])
                    if lead < 0x80 {
                        // Eight ASCII bytes at once when ASCII needs no look (most Latin text);
                        // a lone space between words of other scripts fails at the next byte.
                        if !checksASCII, i + 8 <= bytes.count, bytes[i + 1] < 0x80, let base = bytes.baseAddress,
                           UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                            for k in 0..<8 { buffer[out + k] = UInt16(base[i + k]) }
                            out += 8; i += 8
                            continue
                        }
                        buffer[out] = UInt16(lead)
                        if checksASCII, (lead < 64 ? ascii.low >> UInt64(lead) : ascii.high >> UInt64(lead - 64)) & 1 == 0 {
                            undrawn = true
                        }
                        out += 1; i += 1
                        continue
                    }
                    if lead < 0xE0 {
                        let scalar = (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                        buffer[out] = UInt16(scalar)
                        out += 1; i += 2
                        // Below U+0800, `ctx_bidi_passes` passes exactly what lies below U+0590.
                        outsideRanges = outsideRanges || scalar >= 0x0590
                        // A fallback font draws it (most text past ASCII): one load.
                        if let fonts, bmpFonts[Int(scalar)] == 0, !fonts.isDrawnOrIgnorable(scalar) { undrawn = true }
                        continue
                    }
                    let scalar: UInt32
                    if lead < 0xF0 {
                        scalar = (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                        buffer[out] = UInt16(truncatingIfNeeded: scalar)
                        out += 1; i += 3
                        if let fonts, bmpFonts[Int(scalar)] == 0, !fonts.isDrawnOrIgnorable(scalar) { undrawn = true }
                    } else {
                        scalar = (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
                            | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
                        buffer[out] = UInt16(truncatingIfNeeded: 0xD7C0 + (scalar >> 10))
                        buffer[out + 1] = UInt16(truncatingIfNeeded: 0xDC00 | (scalar & 0x3FF))
                        out += 2; i += 4
                        if let fonts, !undrawn, !fonts.isDrawnOrIgnorable(scalar) { undrawn = true }
                    }
                    if !outsideRanges, ctx_bidi_passes(scalar) == 0 { outsideRanges = true }
                }
                return Findings(mayNeedLevels: outsideRanges, mayMissGlyphs: undrawn)
            }
        }
        if let decoded { return decoded }
        _ = buffer.initialize(from: text.utf16)
        return Findings(mayNeedLevels: true, mayMissGlyphs: true)
    }
}
