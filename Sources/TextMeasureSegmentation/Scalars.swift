import CTextICU

/// Small Unicode facts the pipeline needs per code point, on UTF-16 code units.
@usableFromInline   // its tests are inlined into the stages that run them per code unit
package enum Scalars {
    /// Decodes the scalar starting at `index`; returns it and its length in code units.
    /// A lone surrogate decodes as U+FFFD, as everywhere else in the pipeline.
    @inlinable @inline(__always)
    package static func decode(_ text: UnsafeBufferPointer<UInt16>, at index: Int) -> (scalar: UInt32, length: Int) {
        let unit = text[index]
        if unit & 0xFC00 == 0xD800, index + 1 < text.count, text[index + 1] & 0xFC00 == 0xDC00 {
            let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(text[index + 1]) - 0xDC00)
            return (scalar, 2)
        }
        if unit & 0xF800 == 0xD800 { return (0xFFFD, 1) }
        return (UInt32(unit), 1)
    }

    /// Characters that end a line by themselves (UAX #14 classes BK, CR, LF, NL).
    @inlinable @inline(__always)
    package static func isMandatoryBreak(_ unit: UInt16) -> Bool { ctx_ends_hard_line(unit) != 0 }

    /// Whitespace that hangs past the line's edge at a soft break (CSS `pre-wrap`):
    /// spaces and tabs. Other space separators (U+3000, no-break spaces) do not hang.
    @inlinable @inline(__always)
    package static func isHangingSpace(_ unit: UInt16) -> Bool { unit == 0x20 || unit == 0x09 }

    /// Control characters drawn with no width, as browsers treat them (C0 and C1
    /// controls other than tab; line separators are also zero width).
    @inlinable @inline(__always)
    package static func isZeroWidthControl(_ scalar: UInt32) -> Bool {
        (scalar < 0x20 && scalar != 0x09) || (scalar >= 0x7F && scalar < 0xA0) || scalar == 0x2028 || scalar == 0x2029
    }

    /// Variation selectors: VS1–VS16 and the supplementary VS17–VS256.
    @inlinable @inline(__always)
    package static func isVariationSelector(_ scalar: UInt32) -> Bool {
        (0xFE00...0xFE0F).contains(scalar) || (0xE0100...0xE01EF).contains(scalar)
    }

    /// Code points a font need not cover for a cluster to count as covered:
    /// joiners, variation selectors and other default-ignorables.
    @inlinable @inline(__always)
    package static func isCoverageIgnorable(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00AD, 0x034F, 0x061C, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E,
             0x2060...0x206F, 0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF: true
        default: isZeroWidthControl(scalar)
        }
    }

    /// Whether the scalar is shaped as part of the cluster before it (a mark, a
    /// joiner, an emoji modifier...): text cut just before it shapes differently.
    @inlinable @inline(__always)
    package static func joinsPrevious(_ scalar: UInt32) -> Bool { ctx_joins_previous(scalar) != 0 }

    /// For a paired bracket (UAX #9 Bidi_Paired_Bracket_Type Open or Close), the
    /// bracket it pairs with and whether it opens; nil for every other code point.
    /// ASCII and everything below U+0F3A but ( ) [ ] { } answer without ICU.
    @inlinable
    package static func pairedBracket(_ scalar: UInt32) -> (pair: UInt32, opens: Bool)? {
        if scalar < 0x0F3A {
            switch scalar {
            case 0x28: return (0x29, true)
            case 0x29: return (0x28, false)
            case 0x5B: return (0x5D, true)
            case 0x5D: return (0x5B, false)
            case 0x7B: return (0x7D, true)
            case 0x7D: return (0x7B, false)
            default: return nil
            }
        }
        var pair: UInt32 = 0
        switch ctx_paired_bracket(scalar, &pair) {
        case 1: return (pair, true)
        case -1: return (pair, false)
        default: return nil
        }
    }
}
