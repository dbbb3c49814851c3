/// Greedy first-fit line breaking over a prepared text's segments: each line takes
/// as many segments as fit, in integer arithmetic (`Units.widthPerPixel`).
///
/// Trailing spaces hang: they never make a line wrap and never count toward its
/// width. A segment wider than an empty line is broken between grapheme clusters;
/// with `.characters` wrapping any segment that does not fit is. This is pure
/// arithmetic over `PreparedText`'s cached widths: fitting at a new width
/// measures nothing. Fitting stops at `lineLimit` lines.
package struct GreedyLineFitter {
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

    /// The width available to the text, in width units.
    let width: Int
    let wrapping: Wrapping
    /// Text-view convention: empty text, and text ending in a newline, get an empty last line.
    let addsEmptyLastLine: Bool
    /// The most lines to fit; the text after the last of them is left out.
    let lineLimit: Int
    /// Whether a word too long for an empty line breaks between grapheme clusters (CSS
    /// `overflow-wrap: break-word`) rather than overflow the line (`normal`).
    var breaksLongWords = true

    /// Where `segment`'s trailing whitespace ends when its content ends at `x`:
    /// tabs advance to the next tab stop from the line's start.
    @inline(__always)   // out of line, the segment passed to it was copied through the stack
    private func trailingEnd(of segment: Segment, from x: Int, in prepared: PreparedText) -> Int {
        guard !prepared.tabStops.graphemes.isEmpty else { return x + segment.trailingWidth }
        let whitespace = Int(segment.contentGraphemeEnd)..<Int(segment.graphemeEnd)
        return prepared.tabStops.end(of: whitespace, from: x, widths: prepared.graphemeWidths) ?? x + segment.trailingWidth
    }

    /// The lines of `prepared`, in order.
    ///
    /// The prepared text is a parameter rather than a property so that a fitter never
    /// holds a copy of it: a copy retains it.
    func fit(_ prepared: PreparedText) -> [LineFragment] {
        var lines: [LineFragment] = []
        guard lineLimit > 0 else { return lines }
        lines.reserveCapacity(min(lineLimit, 4))   // one allocation for most texts, not one per doubling
        fit(prepared, into: &lines)
        return lines
    }

    /// The line being filled, and what fitting has ended so far. A plain value kept in
    /// the loop's locals (a nested function capturing them would keep them in a box).
    private struct OpenLine {
        var start = 0
        /// Width of the line so far, trailing whitespace included.
        var committed = 0
        /// Width of the line so far, trailing whitespace hanging.
        var visible = 0
        var fonts: UInt64 = 0
        /// Lines ended before this one, and why the last of them ended.
        var count = 0
        var previousEnd: LineEnd?
    }

    /// Hands the lines of `prepared` to `sink` in order, each as soon as it ends.
    func fit<Sink: LineSink>(_ prepared: PreparedText, into sink: inout Sink) {
        guard lineLimit > 0 else { return }
        let hasTabs = !prepared.tabStops.graphemes.isEmpty
        prepared.segments.withUnsafeBufferPointer { segments in
            var line = OpenLine()   // a local of the loop, not captured: it stays in registers
            var segmentStart = 0
            var firstGrapheme = 0
            var glued = false   // the line so far is a hyphen that holds on to this segment
            var index = 0
            while index < segments.count {
                if !hasTabs {
                    // Most segments fit whole after what the line holds, and most lines end
                    // before one that fits the next: those are taken in a tight loop of its own
                    // (Chinese and Japanese have a segment per letter).
                    let start = Position(index: index, segmentStart: segmentStart, grapheme: firstGrapheme, glued: glued)
                    guard let stop = takeWhole(segments, from: start, on: &line, of: prepared, into: &sink) else { return }
                    index = stop.index
                    segmentStart = stop.segmentStart
                    firstGrapheme = stop.grapheme
                    glued = stop.glued
                    guard index < segments.count else { break }
                }
                // The fields are read where they lie: a segment taken whole (`for segment
                // in segments`) was copied through the stack on every pass since calls
                // out of this module (`hyphenWidth(after:)`) take it.
                if Int(segments[index].contentGraphemeEnd) != firstGrapheme,
                   line.committed + segments[index].width <= width {
                    line.visible = line.committed + segments[index].width
                    line.committed = hasTabs ? trailingEnd(of: segments[index], from: line.visible, in: prepared)
                                             : line.visible + segments[index].trailingWidth
                    line.fonts |= segments[index].fonts
                } else if let placed = place(segments[index], of: segments, from: segmentStart, grapheme: firstGrapheme,
                                             glued: glued, on: line, of: prepared, into: &sink) {
                    line = placed
                } else {
                    return
                }
                glued = segments[index].endsWithHeldHyphen && line.start == Int(segments[index].end) - 1
                segmentStart = Int(segments[index].end)
                firstGrapheme = Int(segments[index].graphemeEnd)
                if segments[index].isMandatoryBreak {
                    guard end(&line, at: segmentStart, .mandatoryBreak,
                              hyphenated: Sink.keepsLineDetails && segments[index].endsWithSoftHyphen,
                              of: prepared, into: &sink) else { return }
                }
                index += 1
            }
            if line.start < prepared.utf16Count {
                // Chromium draws the hyphen of a soft hyphen that ends the text (measured with it).
                let hyphenated = Sink.keepsLineDetails && segments.last?.endsWithSoftHyphen == true
                _ = end(&line, at: prepared.utf16Count, .endOfText, hyphenated: hyphenated, of: prepared, into: &sink)
            } else if addsEmptyLastLine, line.count == 0 || line.previousEnd == .mandatoryBreak {
                _ = end(&line, at: prepared.utf16Count, .endOfText, of: prepared, into: &sink)
            }
        }
    }

    /// Where `fit` is in the segments: the next one, where it starts (UTF-16 offset and
    /// grapheme), and whether the line so far is a hyphen that holds on to it.
    private struct Position {
        var index: Int
        var segmentStart: Int
        var grapheme: Int
        var glued: Bool
    }

    /// `fit`'s common case, from `start`: segments that fit whole after what the line
    /// holds, and line ends before a segment that fits an empty line, as `place` would
    /// end them, on a line that holds something and that no hyphen holds on to or
    /// stretches (see `breaksInsideNext` there). Stops before what else `place` decides
    /// (soft hyphens that do not fit, breaking inside a segment), whitespace alone and
    /// mandatory breaks; nil once the line limit is reached. No tabs: the trailing
    /// width is the segment's own. A soft hyphen's segment is measured with its hyphen
    /// (`PreparedText`), so that the test asks for room for it with no extra work.
    /// Out of line, so that the loop keeps what it changes in registers: inside `fit`'s
    /// loop it spilled them: 24 to 26 instructions a segment rather than 19.
    @inline(never)
    private func takeWhole<Sink: LineSink>(_ segments: UnsafeBufferPointer<Segment>, from start: Position,
                                           on line: inout OpenLine, of prepared: PreparedText,
                                           into sink: inout Sink) -> Position? {
        var index = start.index
        var grapheme = start.grapheme
        var committed = line.committed, visible = line.visible, fonts = line.fonts
        while index < segments.count, Int(segments[index].contentGraphemeEnd) != grapheme,
              !segments[index].isMandatoryBreak {
            var right = committed + segments[index].width
            if right > width {
                line.committed = committed
                line.visible = visible
                line.fonts = fonts
                switch endLine(before: index, of: segments, from: start, on: &line, of: prepared, into: &sink) {
                case .ended: break
                case .notHere: return stop(at: index, of: segments, from: start, grapheme: grapheme, line: line)
                case .lineLimit: return nil
                }
                right = segments[index].width
                fonts = 0
            }
            visible = right
            committed = right + segments[index].trailingWidth
            fonts |= segments[index].fonts
            grapheme = Int(segments[index].graphemeEnd)
            index += 1
        }
        line.committed = committed
        line.visible = visible
        line.fonts = fonts
        return stop(at: index, of: segments, from: start, grapheme: grapheme, line: line)
    }

    /// Where `takeWhole` stopped: before segment `index`, after the one before it.
    @inline(__always)
    private func stop(at index: Int, of segments: UnsafeBufferPointer<Segment>, from start: Position, grapheme: Int,
                      line: OpenLine) -> Position {
        guard index > start.index else { return start }
        let segmentStart = Int(segments[index - 1].end)
        return Position(index: index, segmentStart: segmentStart, grapheme: grapheme,
                        glued: segments[index - 1].endsWithHeldHyphen && line.start == segmentStart - 1)
    }

    /// What `endLine(before:...)` did.
    private enum LineEndOutcome {
        /// Ended the line: the segment goes on the next.
        case ended
        /// Left the line open: `place` decides.
        case notHere
        /// Ended the line, the last the line limit allows.
        case lineLimit
    }

    /// Ends `line` before segment `index`, which does not fit after it, as `place` would:
    /// where the segment fits an empty line, and the line holds something that no hyphen
    /// holds on to or stretches (see `breaksInsideNext` there). Out of line: it would
    /// cost `takeWhole`'s loop registers (a line end every 10 to 20 segments).
    @inline(never)
    private func endLine<Sink: LineSink>(before index: Int, of segments: UnsafeBufferPointer<Segment>,
                                         from start: Position, on line: inout OpenLine, of prepared: PreparedText,
                                         into sink: inout Sink) -> LineEndOutcome {
        let segmentStart = index == start.index ? start.segmentStart : Int(segments[index - 1].end)
        let glued = index == start.index ? start.glued
                                         : segments[index - 1].endsWithHeldHyphen && line.start == segmentStart - 1
        guard wrapping == .words, segmentStart != line.start, !glued, !segments[index].endsWithSoftHyphen,
              segments[index].width <= width, line.committed >= line.visible || line.visible <= width else {
            return .notHere
        }
        let hyphenated = Sink.keepsLineDetails && index > 0 && segments[index - 1].endsWithSoftHyphen
        return end(&line, at: segmentStart, .softBreak, hyphenated: hyphenated, of: prepared, into: &sink) ? .ended : .lineLimit
    }

    /// Ends `line` at `end` and opens the next; false once the line limit is reached.
    @inline(__always)
    private func end<Sink: LineSink>(_ line: inout OpenLine, at end: Int, _ reason: LineEnd,
                                     hyphenated: Bool = false, of prepared: PreparedText, into sink: inout Sink) -> Bool {
        sink.add(LineFragment(start: line.start, end: end, width: line.visible, fonts: line.fonts, lineEnd: reason,
                              hyphenated: hyphenated), of: prepared)
        line = OpenLine(start: end, count: line.count + 1, previousEnd: reason)
        return line.count < lineLimit
    }

    /// Places `segment` (starting at UTF-16 `segmentStart` and grapheme `firstGrapheme`)
    /// on `line`, ending lines before it or inside it where it does not fit: the line
    /// open after it, or nil once the line limit is reached. (`line` is passed by value
    /// so that the common case, which does not come here, keeps it in registers.)
    /// Inlined into `fit`: `takeWhole` ends most lines, but out of line the call (a dozen
    /// arguments) cost texts that come here often (soft hyphens, words broken) about 4%.
    @inline(__always)
    private func place<Sink: LineSink>(_ segment: Segment, of segments: UnsafeBufferPointer<Segment>,
                                       from segmentStart: Int, grapheme firstGrapheme: Int, glued: Bool,
                                       on line: OpenLine, of prepared: PreparedText,
                                       into sink: inout Sink) -> OpenLine? {
        var line = line
        // Only soft hyphens need to look at the segments around this one (rare): found then.
        var index: Int { segments.partitioningIndex { Int($0.end) > segmentStart } }
        var pieceStart = segmentStart      // what is left of the segment: its UTF-16 start,
        var grapheme = firstGrapheme       // its first grapheme,
        var remaining = segment.width      // and its width (a soft hyphen's with the hyphen)
        let hyphen = segment.endsWithSoftHyphen ? prepared.hyphenWidth(after: segment) : 0
        let contentEnd = Int(segment.contentGraphemeEnd)
        while true {
            // Whitespace alone adds nothing visible: it stays on the line and hangs,
            // with any whitespace before it ("a \t " is two segments, "a " and "\t ").
            if contentEnd == grapheme {
                line.committed += segment.trailingWidth
                return line
            }
            // It fits with its hyphen, or without it where the line goes on past it.
            if line.committed + remaining <= width
                || hyphen > 0 && line.committed + remaining - hyphen <= width
                    && (wrapping == .characters
                        || !segment.isMandatoryBreak && continues(after: index, from: line.committed + remaining - hyphen,
                                                                  of: segments, prepared)) {
                line.visible = line.committed + remaining
                line.committed = hyphen > 0 ? line.visible + segment.trailingWidth   // takes the hyphen off again
                                            : trailingEnd(of: segment, from: line.visible, in: prepared)
                line.fonts |= grapheme == firstGrapheme ? segment.fonts : prepared.fontMask(graphemes: grapheme..<contentEnd)
                return line
            }
            let lineIsEmpty = pieceStart == line.start
            if lineIsEmpty, hyphen > 0, wrapping == .words, line.committed + remaining - hyphen <= width,
               index + 1 < segments.count,
               line.committed + remaining - hyphen + firstBreakWidth(of: index + 1, prepared) <= width {
                // Too wide with its hyphen, but the next word's first letter fits after it:
                // the line breaks inside that word instead.
                line.visible = line.committed + remaining
                line.committed = line.visible + segment.trailingWidth
                line.fonts |= grapheme == firstGrapheme ? segment.fonts : prepared.fontMask(graphemes: grapheme..<contentEnd)
                return line   // `breaksInsideNext` below tells this state apart
            }
            // The line holds a soft hyphen's segment that did not fit with its hyphen, taken
            // whole so that the word breaks later, where it overflows (Blink breaks such a
            // line anywhere, and the soft hyphen is one more break opportunity). Only then is
            // the line wider than the box with less committed than shown (the hyphen
            // counted in `visible` only): no field of the line, which stays in registers.
            let breaksInsideNext = line.committed < line.visible && line.visible > width
            if !lineIsEmpty, !glued, wrapping == .words, !breaksInsideNext {
                // Break before this segment, and try it again on an empty line. A line
                // that ends at a soft hyphen shows a hyphen (counted already: see above).
                let hyphenated = Sink.keepsLineDetails && index > 0 && segments[index - 1].endsWithSoftHyphen
                guard end(&line, at: pieceStart, .softBreak, hyphenated: hyphenated, of: prepared, into: &sink) else { return nil }
                continue
            }
            if lineIsEmpty, !breaksLongWords, wrapping == .words {
                // overflow-wrap: normal: the word overflows the line whole.
                line.visible = line.committed + remaining
                line.committed = trailingEnd(of: segment, from: line.visible, in: prepared)
                line.fonts |= grapheme == firstGrapheme ? segment.fonts : prepared.fontMask(graphemes: grapheme..<contentEnd)
                return line
            }
            // Break inside the segment: the clusters that fit in the room left,
            // at least one on an empty line. A soft hyphen's segment that does not fit
            // with its hyphen breaks before its last letter, as Chromium does (the soft
            // hyphen holds on to that letter).
            var pieceEnd = contentEnd
            if segment.endsWithSoftHyphen, wrapping == .words {
                var last = contentEnd - 1
                while last > grapheme, prepared.graphemeWidths[last] == 0 { last -= 1 }
                if last > grapheme { pieceEnd = last }
            }
            var piece = clusters(from: grapheme, to: pieceEnd, room: width - line.committed,
                                 atLeastOne: lineIsEmpty || breaksInsideNext,
                                 afterHangingWhitespace: line.committed > line.visible, of: prepared)
            // Inside a word with soft hyphens, a break right after one shows its hyphen;
            // where that does not fit, back to before the letter the soft hyphen holds on to.
            var pieceHyphen = 0
            if pieceEnd != contentEnd, piece.end > grapheme + 1, prepared.graphemeWidths[piece.end - 1] == 0 {
                if piece.visible + prepared.hyphen.width <= width - line.committed {
                    pieceHyphen = prepared.hyphen.width
                } else {
                    var last = piece.end - 1
                    while last > grapheme, prepared.graphemeWidths[last] == 0 { last -= 1 }
                    if last > grapheme { piece = Self.retake(Piece(end: last), from: grapheme, prepared: prepared) }
                }
            }
            if piece.end == contentEnd {
                // All of it fits after all: one cluster wider than the line alone, or rounding.
                line.visible = line.committed + piece.visible
                line.committed = trailingEnd(of: segment, from: line.visible, in: prepared)
                line.fonts |= piece.fonts
                return line
            }
            if piece.end > grapheme {
                line.visible = line.committed + piece.visible + piece.endAdjustment + pieceHyphen
                line.fonts |= piece.fonts | (pieceHyphen > 0 ? prepared.hyphen.fontMask : 0)
                pieceStart = Int(prepared.graphemeEnds[piece.end - 1])
                grapheme = piece.end
                remaining = max(0, remaining - piece.width + piece.startAdjustment)
            }
            let reason: LineEnd = pieceHyphen > 0 ? .softBreak : wrapping == .words ? .emergencyBreak : .softBreak
            guard end(&line, at: pieceStart, reason, hyphenated: pieceHyphen > 0, of: prepared, into: &sink) else { return nil }
        }
    }

    /// Whether a line that holds segment `index`, a soft hyphen's, ending at `x`, goes on
    /// past it (so shows no hyphen there): the segments after it fit up to one that
    /// could end the line, with its hyphen if it ends at a soft hyphen too, or the text
    /// ends. Blink gets the same answer by backing up from the overflow to the last
    /// break whose line, hyphen included, fits.
    private func continues(after index: Int, from x: Int, of segments: UnsafeBufferPointer<Segment>,
                           _ prepared: PreparedText) -> Bool {
        var x = x
        for next in segments[(index + 1)...] {
            // A soft hyphen's segment is measured with its hyphen.
            let bare = next.endsWithSoftHyphen ? next.width - prepared.hyphenWidth(after: next) : next.width
            guard x + bare <= width else { return false }
            if !next.endsWithSoftHyphen || x + next.width <= width { return true }
            x += next.width + next.trailingWidth
        }
        return false   // the text ends after the soft hyphen: Chromium draws the hyphen there too
    }

    /// The width up to the first place segment `index` can break: after its first cluster
    /// and the zero-width ones that hold on to it, with the hyphen if that is its end and
    /// it ends at a soft hyphen.
    private func firstBreakWidth(of index: Int, _ prepared: PreparedText) -> Int {
        let segment = prepared.segments[index]
        var g = Int(prepared.segments[index - 1].graphemeEnd)
        let end = Int(segment.contentGraphemeEnd)
        guard g < end else { return 0 }
        var width = Int(prepared.graphemeWidths[g])
        g += 1
        while g < end, prepared.graphemeWidths[g] == 0 { g += 1 }
        if g == end, segment.endsWithSoftHyphen { width += prepared.hyphenWidth(after: segment) }
        return width
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
    /// `afterHangingWhitespace`: the line before the piece ends in whitespace that
    /// hangs, which a cluster taken after it makes visible.
    private func clusters(from first: Int, to end: Int, room: Int, atLeastOne: Bool, afterHangingWhitespace: Bool,
                          of prepared: PreparedText) -> Piece {
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
                let hangingBefore = piece.width > piece.visible || piece.width == 0 && afterHangingWhitespace
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
