enum WhiteSpaceCollapsing {
    /// `text` (UTF-16) as `white-space: normal` reads it: newlines (LF, CR) and tabs
    /// become spaces, in place, so that offsets do not move.
    static func spaceNewlinesAndTabs(_ text: UnsafeMutableBufferPointer<UInt16>) {
        for i in text.indices where text[i] == 0x0A || text[i] == 0x0D || text[i] == 0x09 { text[i] = 0x20 }
    }

    /// Takes the width out of every space that follows a space (or starts the text),
    /// from its cluster and from its segment, as a browser collapses them.
    static func collapse(_ text: String, graphemeEnds: [Int32], widths: inout [Int32], segments: inout [Segment]) {
        var previousIsSpace = true   // spaces at the start of the text collapse away
        var segment = 0
        var start = 0
        let utf16 = Array(text.utf16)
        for (g, end) in graphemeEnds.enumerated() {
            while segment < segments.count, Int(segments[segment].graphemeEnd) <= g { segment += 1 }
            let unit = utf16[start]
            let isSpace = end - Int32(start) == 1 && (unit == 0x20 || unit == 0x0A || unit == 0x0D || unit == 0x09)
            if isSpace, previousIsSpace, widths[g] != 0 {
                let width = Int(widths[g])
                if g >= Int(segments[segment].contentGraphemeEnd) {
                    segments[segment].trailingWidth -= width
                } else {
                    segments[segment].width -= width
                }
                widths[g] = 0
            }
            previousIsSpace = isSpace
            start = Int(end)
        }
    }
}
