/// `text-wrap: balance` and `pretty` as Chromium 156 does them: the greedy lines
/// first, then, where Blink's rules apply, the same number of lines chosen again by
/// score (Blink's `ScoreLineBreaker`, after Minikin's optimal breaker), or for
/// `balance` the narrowest width that keeps greedy's line count (Blink's bisection,
/// `ParagraphLineBreaker`). Arithmetic over the prepared widths, like greedy.
///
/// Blink's limits, kept here:
/// - `balance` takes only the first paragraph (up to the first newline), scored when
///   greedy gives it at most 6 lines; where scoring fails, for a text without newlines of
///   at most 6 greedy lines (and no more than 12 estimated from its length in spaces),
///   bisection.
/// - `pretty` takes the last up to 4 lines of each paragraph, and only when the last
///   line is one word shorter than a third of the width, or the two lines before it
///   both end at a hyphen.
/// - Either falls back to greedy when scoring gives another number of lines, when
///   there are fewer than 3 breaks to choose from, or when a line is a word broken
///   for overflow. Tabs keep greedy too.
struct ScoreLineFitter: LineFitter {
    let greedy: GreedyLineFitter
    /// `.balance` or `.pretty`.
    let textWrap: TextWrap
    /// The box's width in width units, without Blink's tolerance: its penalties scale with it.
    let boxWidth: Int
    let fontSize: Double

    static let maxLinesForBalance = 6
    static let maxLinesForPretty = 4

    func fit(_ prepared: PreparedText) -> [LineFragment] {
        var lines = greedy.fit(prepared)
        guard lines.count > 1, prepared.tabStops.graphemes.isEmpty else { return lines }
        switch textWrap {
        case .wrap:
            return lines
        case .balance:
            let paragraphEnd = (lines.firstIndex { $0.lineEnd == .mandatoryBreak } ?? lines.count - 1) + 1
            if paragraphEnd <= Self.maxLinesForBalance,
               let balanced = rechoose(lines[0..<paragraphEnd], of: prepared, balancing: true) {
                lines.replaceSubrange(0..<paragraphEnd, with: balanced)
                return lines
            }
            guard let width = bisectedWidth(lines, of: prepared) else { return lines }
            let tolerance = greedy.width - boxWidth
            return GreedyLineFitter(width: width + tolerance, wrapping: greedy.wrapping,
                                    addsEmptyLastLine: greedy.addsEmptyLastLine, lineLimit: greedy.lineLimit,
                                    breaksLongWords: greedy.breaksLongWords)
                .fit(prepared).map { line in
                    var line = line
                    line.rewrapped = true
                    return line
                }
        case .pretty:
            var start = 0
            while start < lines.count {
                let end = (lines[start...].firstIndex { $0.lineEnd == .mandatoryBreak } ?? lines.count - 1) + 1
                let window = max(start, end - Self.maxLinesForPretty)..<end
                if window.count > 1, isWorthRechoosing(lines[window], of: prepared),
                   let pretty = rechoose(lines[window], of: prepared, balancing: false) {
                    lines.replaceSubrange(window, with: pretty)
                }
                start = end
            }
            return lines
        }
    }

    // MARK: pretty's trigger

    /// Blink's `ShouldOptimize`: the last line is one word narrower than a third of the
    /// box, or the two lines before it both end at a hyphen.
    private func isWorthRechoosing(_ lines: ArraySlice<LineFragment>, of prepared: PreparedText) -> Bool {
        guard let last = lines.last else { return false }
        let unitsPerLayoutUnit = Units.widthPerLayoutUnit
        let third = boxWidth / unitsPerLayoutUnit / 3 * unitsPerLayoutUnit
        if last.width < third, !canBreakInside(last, of: prepared) { return true }
        let n = lines.endIndex
        return lines.count >= 3 && lines[n - 2].hyphenated && lines[n - 3].hyphenated
    }

    /// Whether a break opportunity falls inside `line`, before its last word.
    private func canBreakInside(_ line: LineFragment, of prepared: PreparedText) -> Bool {
        var index = segmentIndex(endingAfter: line.start, in: prepared)
        while index < prepared.segments.count, Int(prepared.segments[index].end) < line.end {
            let next = prepared.segments[index + 1]
            if next.contentGraphemeEnd != prepared.segments[index].graphemeEnd { return true }   // a word follows
            index += 1
        }
        return false
    }

    // MARK: Scoring

    /// A place a line may end: Blink's `LineBreakCandidate`.
    private struct Candidate {
        /// UTF-16 offset of the break, and the segment it ends.
        var offset: Int
        var segment: Int
        /// Width from the window's start to the next line's start (trailing whitespace included).
        var noBreak: Int
        /// Width from the window's start to this line's end if it ends here (hyphen included).
        var ifBreak: Int
        var penalty: Float
        var hyphenated: Bool
    }

    /// `lines` (greedy's, one paragraph or its end) chosen again by score: as many lines,
    /// or nil where Blink keeps greedy's.
    private func rechoose(_ lines: ArraySlice<LineFragment>, of prepared: PreparedText,
                          balancing: Bool) -> [LineFragment]? {
        guard let first = lines.first, let last = lines.last, !lines.contains(where: { $0.lineEnd == .emergencyBreak }),
              let candidates = candidates(from: first.start, to: last.end, of: prepared) else { return nil }
        // Blink: sentinels at both ends, and at least 3 breaks between them.
        guard candidates.count >= 5 else { return nil }
        guard let breaks = bestBreaks(candidates, balancing: balancing), breaks.count == lines.count else { return nil }

        var chosen: [LineFragment] = []
        var previous = candidates[0]
        for (number, index) in breaks.enumerated() {
            let candidate = candidates[index]
            var fonts: UInt64 = 0
            for segment in previous.segment + 1...candidate.segment { fonts |= prepared.segments[segment].fonts }
            let isLast = number == breaks.count - 1
            var line = LineFragment(start: previous.offset, end: candidate.offset,
                                    width: candidate.ifBreak - previous.noBreak,
                                    fonts: fonts,
                                    lineEnd: isLast ? last.lineEnd : .softBreak, hyphenated: candidate.hyphenated)
            line.rewrapped = true
            chosen.append(line)
            previous = candidate
        }
        return chosen
    }

    /// The break candidates from `start` to `end` (both segment ends; the first a
    /// sentinel), or nil when a line would have to break inside a word.
    private func candidates(from start: Int, to end: Int, of prepared: PreparedText) -> [Candidate]? {
        let segments = prepared.segments
        let firstSegment = segmentIndex(endingAfter: start, in: prepared)
        guard firstSegment == 0 || Int(segments[firstSegment - 1].end) == start else { return nil }
        let hyphenPenalty = Float(Double(boxWidth) / Double(Units.widthPerPixel) * fontSize * 2)
        var candidates = [Candidate(offset: start, segment: firstSegment - 1, noBreak: 0, ifBreak: 0, penalty: 0,
                                    hyphenated: false)]
        var position = 0
        var index = firstSegment
        while index < segments.count, Int(segments[index].end) <= end {
            let segment = segments[index]
            let firstGrapheme = index == 0 ? 0 : segments[index - 1].graphemeEnd
            if segment.contentGraphemeEnd == firstGrapheme, candidates.count > 1 {
                // Whitespace alone moves the previous break past it (Blink's trailing spaces).
                position += segment.trailingWidth
                candidates[candidates.count - 1].offset = Int(segment.end)
                candidates[candidates.count - 1].segment = index
                candidates[candidates.count - 1].noBreak = position
            } else {
                let hyphenated = segment.endsWithSoftHyphen && !segment.isMandatoryBreak
                candidates.append(Candidate(offset: Int(segment.end), segment: index, noBreak: position + segment.width
                                                + segment.trailingWidth,
                                            // A soft hyphen's segment is measured with its hyphen.
                                            ifBreak: position + segment.width
                                                - (segment.endsWithSoftHyphen && !hyphenated
                                                    ? prepared.hyphenWidth(after: segment) : 0),
                                            penalty: hyphenated ? hyphenPenalty : 0, hyphenated: hyphenated))
                position += segment.width + segment.trailingWidth
            }
            index += 1
        }
        guard candidates.last?.offset == end else { return nil }   // greedy broke inside a word
        return candidates
    }

    /// Blink's `ComputeScores` and `ComputeBreakPoints`: the candidate indexes the
    /// best-scoring lines end at, in order. Scores in `Float`, as Blink keeps them.
    private func bestBreaks(_ candidates: [Candidate], balancing: Bool) -> [Int]? {
        var candidates = candidates
        // Blink raises the last break's penalty (and the hyphenated ones before it)
        // to avoid a typographic orphan.
        for index in stride(from: candidates.count - 2, through: 0, by: -1) {
            candidates[index].penalty += 10_000
            if !candidates[index].hyphenated { break }
        }
        let pixels = Float(Units.widthPerPixel)
        let hyphenPenalty = Float(Double(boxWidth) / Double(Units.widthPerPixel) * fontSize * 2)
        let linePenalty = hyphenPenalty * 2
        let available = Float(greedy.width) / pixels   // with Blink's tolerance, as its AvailableWidthToFit
        let overfull: Float = 1e12

        var scores: [(score: Float, previous: Int)] = [(0, 0)]
        scores.reserveCapacity(candidates.count)
        var active = 0
        for end in 1..<candidates.count {
            let endCandidate = candidates[end]
            let isLast = end == candidates.count - 1
            var best = Float.greatestFiniteMagnitude, bestPrevious = 0
            let startEdge = Float(endCandidate.ifBreak) / pixels - available
            var bestHope: Float = 0
            for start in active..<end {
                let startScore = scores[start].score
                if startScore + bestHope >= best { continue }
                let delta = Float(candidates[start].noBreak) / pixels - startEdge
                var widthScore: Float = 0, additional: Float = 0
                if delta < 0 {
                    widthScore = overfull
                } else if isLast && !balancing {
                    additional = 4 * candidates[start].penalty   // a short last line costs nothing but its hyphen
                } else {
                    widthScore = delta * delta
                }
                if delta < 0 { active = start + 1 } else { bestHope = widthScore }
                let score = startScore + widthScore + additional
                if score <= best {
                    best = score
                    bestPrevious = start
                }
            }
            scores.append((best + endCandidate.penalty + linePenalty, bestPrevious))
        }
        var breaks: [Int] = []
        var index = candidates.count - 1
        while index > 0 {
            breaks.append(index)
            index = scores[index].previous
        }
        return breaks.reversed()
    }

    // MARK: balance by bisection

    /// Blink's `AttemptParagraphBalancing`: the narrowest width, to a pixel, at which
    /// greedy still gives its line count; nil where Blink does not balance this way.
    private func bisectedWidth(_ lines: [LineFragment], of prepared: PreparedText) -> Int? {
        guard !lines.contains(where: { $0.lineEnd == .mandatoryBreak || $0.lineEnd == .emergencyBreak }),
              lines.count <= Self.maxLinesForBalance else { return nil }
        let unitsPerLayoutUnit = Units.widthPerLayoutUnit
        let available = boxWidth / unitsPerLayoutUnit   // layout units
        if prepared.spaceWidth > 0 {
            // Blink estimates the line count from the text's length in spaces first.
            let perLine = Int(Float(available) / Float(Units.layoutPerPixel) / (Float(prepared.spaceWidth) / Float(Units.widthPerPixel)))
            guard perLine > 0, (prepared.utf16Count + perLine - 1) / perLine <= 2 * Self.maxLinesForBalance else {
                return nil
            }
        }
        let widths = lines.reduce(0) { $0 + ($1.width + unitsPerLayoutUnit - 1) / unitsPerLayoutUnit }
        let average = widths / lines.count
        var lower = Int((Float(average) / Float(Units.layoutPerPixel) * 0.8 * Float(Units.layoutPerPixel)).rounded())
        var upper = available
        let tolerance = greedy.width - boxWidth
        while lower + Units.layoutPerPixel < upper {
            let middle = (upper + lower) / 2
            var counter = LineCounter()
            GreedyLineFitter(width: middle * unitsPerLayoutUnit + tolerance, wrapping: greedy.wrapping,
                             addsEmptyLastLine: false, lineLimit: lines.count + 1,
                             breaksLongWords: greedy.breaksLongWords).fit(prepared, into: &counter)
            if counter.count > lines.count { lower = middle } else { upper = middle }
        }
        return upper * unitsPerLayoutUnit
    }

    /// Counts the lines bisection tries.
    private struct LineCounter: LineSink {
        var count = 0
        mutating func add(_ line: LineFragment, of prepared: PreparedText) { count += 1 }
    }

    /// The first segment that ends after UTF-16 `offset`.
    private func segmentIndex(endingAfter offset: Int, in prepared: PreparedText) -> Int {
        prepared.segments.partitioningIndex { Int($0.end) > offset }
    }
}
