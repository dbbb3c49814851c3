/// Greedy first-fit line breaking over a prepared text's segments: each line takes
/// as many segments as fit, in 1/64 px integer arithmetic.
///
/// Trailing spaces hang: they never make a line wrap and never count toward its
/// width. A segment wider than an empty line is broken between grapheme clusters;
/// with `.characters` wrapping any segment that does not fit is. This is pure
/// arithmetic over `PreparedText`'s cached widths: fitting at a new width
/// measures nothing. Fitting stops at `lineLimit` lines.
struct GreedyLineFitter {
    /// Where a line may end besides mandatory breaks.
    enum Wrapping {
        /// At the text's line-break opportunities (between words), or between
        /// grapheme clusters inside a word too long for an empty line.
        case words
        /// Between any two grapheme clusters, before the first that does not fit.
        case characters
    }

    /// A width no line reaches: fitting at it wraps only at mandatory breaks.
    static let unbounded = Int.max / 4

    let prepared: PreparedText
    /// The width available to the text, in 1/64 px.
    let width: Int
    let wrapping: Wrapping
    /// Text-view convention: empty text, and text ending in a newline, get an empty last line.
    let addsEmptyLastLine: Bool
    /// The most lines to fit; the text after the last of them is left out.
    let lineLimit: Int

    func fit() -> [LineFragment] {
        var lines: [LineFragment] = []
        guard lineLimit > 0 else { return lines }
        lines.reserveCapacity(min(lineLimit, 4))   // one allocation for most texts, not one per doubling
        var lineStart = 0
        var committed = 0      // width of the line so far, trailing whitespace included
        var visible = 0        // width of the line so far, trailing whitespace hanging
        var fonts: UInt64 = 0

        /// Ends the line; false once the line limit is reached.
        func endLine(at end: Int, _ reason: LineEnd) -> Bool {
            lines.append(LineFragment(start: lineStart, end: end, width: visible, fonts: fonts, lineEnd: reason))
            lineStart = end
            committed = 0; visible = 0; fonts = 0
            return lines.count < lineLimit
        }

        var segmentStart = 0
        var firstGrapheme = 0
        for segment in prepared.segments {
            var pieceStart = segmentStart      // what is left of the segment: its UTF-16 start,
            var grapheme = firstGrapheme       // its first grapheme,
            var remaining = segment.width      // and its width
            let contentEnd = Int(segment.contentGraphemeEnd)
            while true {
                // Whitespace alone adds nothing visible: it stays on the line and hangs.
                if committed + remaining <= width || contentEnd == grapheme {
                    visible = committed + remaining
                    committed = visible + segment.trailingWidth
                    fonts |= grapheme == firstGrapheme ? segment.fonts : prepared.fontMask(graphemes: grapheme..<contentEnd)
                    break
                }
                let lineIsEmpty = pieceStart == lineStart
                if !lineIsEmpty, wrapping == .words {
                    // Break before this segment, and try it again on an empty line.
                    guard endLine(at: pieceStart, .softBreak) else { return lines }
                    continue
                }
                // Break inside the segment: the clusters that fit in the room left,
                // at least one on an empty line.
                let piece = clusters(from: grapheme, to: contentEnd, room: width - committed, atLeastOne: lineIsEmpty)
                if piece.end == contentEnd {
                    // All of it fits after all: one cluster wider than the line alone, or rounding.
                    visible = committed + piece.visible
                    committed = visible + segment.trailingWidth
                    fonts |= piece.fonts
                    break
                }
                if piece.end > grapheme {
                    visible = committed + piece.visible
                    fonts |= piece.fonts
                    pieceStart = Int(prepared.graphemeEnds[piece.end - 1])
                    grapheme = piece.end
                    remaining = max(0, remaining - piece.width)
                }
                let reason: LineEnd = wrapping == .words ? .emergencyBreak : .softBreak
                guard endLine(at: pieceStart, reason) else { return lines }
            }
            segmentStart = Int(segment.end)
            firstGrapheme = Int(segment.graphemeEnd)
            if segment.isMandatoryBreak {
                guard endLine(at: segmentStart, .mandatoryBreak) else { return lines }
            }
        }
        if lineStart < prepared.utf16Count {
            _ = endLine(at: prepared.utf16Count, .endOfText)
        } else if addsEmptyLastLine, lines.isEmpty || lines[lines.count - 1].lineEnd == .mandatoryBreak {
            _ = endLine(at: prepared.utf16Count, .endOfText)
        }
        return lines
    }

    /// Grapheme clusters taken onto a line from inside a segment.
    struct Piece {
        /// One past the last cluster taken.
        var end: Int
        /// Width of the clusters taken.
        var width = 0
        /// Their width without hanging whitespace at the end.
        var visible = 0
        var fonts: UInt64 = 0
    }

    /// The clusters from `first` (up to `end`) that fit in `room`, at least one that
    /// is not whitespace when `atLeastOne`. Spaces and tabs are taken even past the
    /// room: they hang, so a piece never starts with one.
    private func clusters(from first: Int, to end: Int, room: Int, atLeastOne: Bool) -> Piece {
        var piece = Piece(end: first)
        var mustTake = atLeastOne
        while piece.end < end {
            let g = piece.end
            let w = Int(prepared.graphemeWidths[g])
            if prepared.graphemeHangs[g] {
                piece.width += w
            } else {
                if piece.width + w > room, !mustTake { break }
                mustTake = false
                piece.width += w
                piece.visible = piece.width
                if w > 0 { piece.fonts |= 1 << UInt64(prepared.graphemeFonts[g]) }
            }
            piece.end += 1
        }
        return piece
    }
}
