/// Greedy first-fit line breaking over a prepared text's segments: each line takes
/// as many segments as fit, in integer arithmetic (`Segment.unitsPerPixel`).
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
    /// The width available to the text, in width units.
    let width: Int
    let wrapping: Wrapping
    /// Text-view convention: empty text, and text ending in a newline, get an empty last line.
    let addsEmptyLastLine: Bool
    /// The most lines to fit; the text after the last of them is left out.
    let lineLimit: Int

    /// Where `segment`'s trailing whitespace ends when its content ends at `x`:
    /// tabs advance to the next tab stop from the line's start.
    private func trailingEnd(of segment: Segment, from x: Int) -> Int {
        guard !prepared.tabStops.graphemes.isEmpty else { return x + segment.trailingWidth }
        let whitespace = Int(segment.contentGraphemeEnd)..<Int(segment.graphemeEnd)
        return prepared.tabStops.end(of: whitespace, from: x, widths: prepared.graphemeWidths) ?? x + segment.trailingWidth
    }

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
        var glued = false   // the line so far is a hyphen that holds on to this segment
        for segment in prepared.segments {
            var pieceStart = segmentStart      // what is left of the segment: its UTF-16 start,
            var grapheme = firstGrapheme       // its first grapheme,
            var remaining = segment.width      // and its width
            let contentEnd = Int(segment.contentGraphemeEnd)
            while true {
                // Whitespace alone adds nothing visible: it stays on the line and hangs,
                // with any whitespace before it ("a \t " is two segments, "a " and "\t ").
                if contentEnd == grapheme {
                    committed += segment.trailingWidth
                    break
                }
                if committed + remaining <= width {
                    visible = committed + remaining
                    committed = trailingEnd(of: segment, from: visible)
                    fonts |= grapheme == firstGrapheme ? segment.fonts : prepared.fontMask(graphemes: grapheme..<contentEnd)
                    break
                }
                let lineIsEmpty = pieceStart == lineStart
                if !lineIsEmpty, !glued, wrapping == .words {
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
                    committed = trailingEnd(of: segment, from: visible)
                    fonts |= piece.fonts
                    break
                }
                if piece.end > grapheme {
                    visible = committed + piece.visible + piece.endAdjustment
                    fonts |= piece.fonts
                    pieceStart = Int(prepared.graphemeEnds[piece.end - 1])
                    grapheme = piece.end
                    remaining = max(0, remaining - piece.width + piece.startAdjustment)
                }
                let reason: LineEnd = wrapping == .words ? .emergencyBreak : .softBreak
                guard endLine(at: pieceStart, reason) else { return lines }
            }
            glued = segment.endsWithHeldHyphen && lineStart == Int(segment.end) - 1
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
        /// What the line gains or loses at its end, and the next line at its start,
        /// where the piece breaks a word (see `LineEdgeWidths`).
        var endAdjustment = 0
        var startAdjustment = 0
    }

    /// The clusters from `first` (up to `end`) that fit in `room`, at least one that
    /// has a width and is not whitespace when `atLeastOne`. Spaces and tabs are taken
    /// even past the room: they hang, so a piece never starts with one.
    private func clusters(from first: Int, to end: Int, room: Int, atLeastOne: Bool) -> Piece {
        var piece = Piece(end: first)
        var mustTake = atLeastOne
        while piece.end < end {
            let g = piece.end
            let w = Int(prepared.graphemeWidths[g])
            if prepared.graphemeHangs[g] {
                piece.width += w
            } else {
                // A zero-width cluster (a control, a joiner) goes along with the one before
                // it rather than start a line alone, and is not the one an empty line must
                // take; but not past the room after hanging whitespace, which it would make
                // visible.
                let hangingBefore = piece.width > piece.visible
                if piece.width + w > room, !mustTake, w > 0 || hangingBefore { break }
                if w > 0 { mustTake = false }
                piece.width += w
                piece.visible = piece.width
                if w > 0 { piece.fonts |= 1 << UInt64(prepared.graphemeFonts[g]) }
            }
            piece.end += 1
        }
        // Where the word is broken, each side is shaped on its own (kerning and
        // ligatures across the break are gone): step back while that overflows.
        while piece.end > first, piece.end < end, let edge = prepared.edgeAdjustments[Int32(piece.end - 1)] {
            if piece.visible + Int(edge.end) <= room || (piece.end - 1 == first && atLeastOne) {
                piece.endAdjustment = Int(edge.end)
                piece.startAdjustment = Int(edge.start)
                break
            }
            piece.end -= 1
            piece = Self.retake(piece, from: first, prepared: prepared)
        }
        return piece
    }

    /// `piece` measured again from `first` to its (shortened) end.
    private static func retake(_ piece: Piece, from first: Int, prepared: PreparedText) -> Piece {
        var shorter = Piece(end: piece.end)
        for g in first..<piece.end {
            let w = Int(prepared.graphemeWidths[g])
            shorter.width += w
            if !prepared.graphemeHangs[g] {
                shorter.visible = shorter.width
                if w > 0 { shorter.fonts |= 1 << UInt64(prepared.graphemeFonts[g]) }
            }
        }
        return shorter
    }
}
