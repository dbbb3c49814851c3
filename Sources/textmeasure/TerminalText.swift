/// Text as a terminal shows it: control characters made visible, and widths in
/// terminal columns, so that boxes and columns line up around any script.
enum TerminalText {
    /// `text` with every control character replaced by a visible picture, so a
    /// line's newline, tab or carriage return shows where it is instead of moving
    /// the cursor: LF `␊`, CR `␍`, tab `␉`, NEL and U+2028 `␤`, U+2029 `¶`, other
    /// C0 controls their Control Pictures (U+2400...), DEL `␡`, C1 controls `�`.
    static func visible(_ text: some StringProtocol) -> String {
        // Most text has no control character: it is taken whole, not rebuilt a scalar at a time.
        guard text.unicodeScalars.contains(where: { picture(of: $0) != nil }) else { return String(text) }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(picture(of: scalar) ?? scalar)
        }
        return String(result)
    }

    private static func picture(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value)   // ␀ ... ␟, including ␉ ␊ ␋ ␌ ␍
        case 0x7F: "\u{2421}"                                     // ␡
        case 0x85, 0x2028: "\u{2424}"                             // ␤ (no picture of their own)
        case 0x2029: "¶"
        case 0x80..<0xA0: "\u{FFFD}"                              // C1 controls have no pictures
        default: nil
        }
    }

    /// The number of terminal columns `text` takes: 2 for each East Asian Wide or
    /// Fullwidth character and each emoji, 0 for combining marks and invisible
    /// format characters, 1 for the rest. Counted per grapheme cluster, so a base
    /// with its marks, a Hangul syllable of jamo, a flag or a ZWJ sequence is one
    /// glyph, as terminals that handle them draw it.
    ///
    /// Call it on `visible(_:)`'s result: controls have no width of their own.
    static func columns(_ text: some StringProtocol) -> Int {
        let utf8 = text.utf8
        var count = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            // Printable ASCII followed by ASCII (or nothing) is a cluster of its own, one
            // column wide, as columns(of:) finds: only what follows a character joins it to
            // a cluster, and no ASCII character joins one but LF after CR. Most of most text
            // is taken here, without a Character's making and its property lookups
            // (searches of the standard library's tables), ten times the cost.
            let next = utf8.index(after: index)
            if (0x20..<0x7F).contains(utf8[index]), next == utf8.endIndex || utf8[next] < 0x80 {
                count += 1
                index = next
            } else {
                count += columns(of: text[index])
                index = text.index(after: index)
            }
        }
        return count
    }

    /// The columns one grapheme cluster takes, as `columns(_:)` counts them.
    static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first else { return 0 }
        if isEastAsianWide(base) || base.properties.isEmojiPresentation { return 2 }
        // A text-style emoji made emoji-style by VARIATION SELECTOR-16 (☺️, 1️⃣).
        if base.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: true
        default: scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// `text` followed by spaces up to `width` columns.
    static func padded(_ text: String, toColumns width: Int) -> String {
        text + spaces(width - columns(text))
    }

    /// `count` spaces (none for a count below 1), written at once: `String(repeating:count:)`
    /// appends a string per space, thousands of instructions for a row's padding.
    private static func spaces(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { bytes in
            bytes.initialize(repeating: UInt8(ascii: " "))
            return count
        }
    }

    /// A frame around rows of text, as wide as the widest row, each row followed by its
    /// note outside the frame:
    ///
    ///     ┌──────────────┐
    ///     │Hello, world. │ 94.5
    ///     └──────────────┘
    ///
    /// It is drawn a row at a time, so that a long text's rows need not be held at once;
    /// only the widest row's width (`columns(_:)`) must be known before the first.
    struct Box {
        /// Columns inside the frame.
        let inner: Int

        init(widestRow columns: Int) { inner = max(1, columns) }

        var top: String { "┌" + String(repeating: "─", count: inner) + "┐" }

        var bottom: String { "└" + String(repeating: "─", count: inner) + "┘" }

        /// `text`, `columns` wide, padded to the frame's width and framed, then its note.
        func row(_ text: String, columns: Int, note: String) -> String {
            var row = "│"
            row.reserveCapacity(text.utf8.count + max(0, inner - columns) + note.utf8.count + 8)
            row += text
            row += spaces(inner - columns)
            row += note.isEmpty ? "│" : "│ "
            row += note
            return row
        }
    }

    /// East Asian Width W or F (UAX #11), from Unicode 15.0's EastAsianWidth.txt,
    /// unassigned code points of the CJK blocks included (they default to W).
    /// Characters with Emoji_Presentation, most of the other W characters, are
    /// left to `Unicode.Scalar.Properties.isEmojiPresentation`.
    private static func isEastAsianWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        let low = wideRanges.partitioningIndex { $0.upperBound >= value }   // the first range not ending below it
        return low < wideRanges.count && wideRanges[low].contains(value)
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFB,
        0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF, 0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3,
        0x31F0...0x321E, 0x3220...0x3247, 0x3250...0x4DBF, 0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B,
        0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7,
        0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE,
        0x1B000...0x1B122, 0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167,
        0x1B170...0x1B2FB, 0x1F200...0x1F200, 0x1F202...0x1F202, 0x1F210...0x1F219, 0x1F21B...0x1F22E,
        0x1F230...0x1F231, 0x1F237...0x1F237, 0x1F23B...0x1F23B, 0x1F240...0x1F248, 0x1F260...0x1F265,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
