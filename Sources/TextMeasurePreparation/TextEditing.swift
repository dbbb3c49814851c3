import CHarfBuzz

extension PreparedText {
    /// This text with the characters in `range` replaced by `replacement`, prepared:
    /// what a composer does on every keystroke.
    ///
    /// Only the paragraphs the edit touches are prepared again; the others' segments
    /// and clusters are reused, moved. Paragraphs end at mandatory breaks (a newline,
    /// a paragraph separator), after which line breaking, clusters and shaping start
    /// afresh, so the result is the one `PreparedText(_:)` gives for the new text,
    /// field for field. (What carries across a paragraph end is the script that
    /// neutral characters at a paragraph's start take; when the edit changes it, the
    /// next paragraph is prepared again too.)
    ///
    /// ```swift
    /// var draft = try PreparedText("Dear Ann,\nThe meeting is at noon.\nBest, Bo", style: TextStyle(fontSize: 17))
    /// if let noon = draft.text.firstRange(of: "noon") {
    ///     draft = try draft.replacingCharacters(in: noon, with: "one")   // prepares one paragraph
    /// }
    /// let layout = try draft.layout(width: 120)
    /// ```
    ///
    /// - Parameters:
    ///   - range: characters of `text`, on Unicode scalar boundaries.
    ///   - cache: as for `init`; the result is the same with any cache or none.
    /// - Throws: `TextMeasureError.invalidEditRange` for a range that is not within
    ///   the text or splits a surrogate pair; `.textTooLong` for a result too long.
    public func replacingCharacters(in range: Range<String.Index>, with replacement: String,
                                    cache: ShapeCache? = .shared) throws(TextMeasureError) -> PreparedText {
        let utf16 = text.utf16
        guard range.lowerBound >= utf16.startIndex, range.upperBound <= utf16.endIndex else {
            throw .invalidEditRange(utf16Offsets: -1 ..< -1)
        }
        let lower = utf16.distance(from: utf16.startIndex, to: range.lowerBound)
        return try replacingCharacters(inUTF16: lower..<lower + utf16.distance(from: range.lowerBound,
                                                                                 to: range.upperBound),
                                       with: replacement, cache: cache)
    }

    /// This text with the UTF-16 code units `range` (`NSRange`'s offsets) replaced by
    /// `replacement`, prepared: see `replacingCharacters(in:with:cache:)`.
    public func replacingCharacters(inUTF16 range: Range<Int>, with replacement: String,
                                    cache: ShapeCache? = .shared) throws(TextMeasureError) -> PreparedText {
        let utf16 = text.utf16
        guard range.lowerBound >= 0, range.upperBound <= utf16Count else { throw .invalidEditRange(utf16Offsets: range) }
        let lowerIndex = utf16.index(utf16.startIndex, offsetBy: range.lowerBound)
        let upperIndex = utf16.index(lowerIndex, offsetBy: range.count)
        guard lowerIndex.samePosition(in: text.unicodeScalars) != nil,
              upperIndex.samePosition(in: text.unicodeScalars) != nil else {
            throw .invalidEditRange(utf16Offsets: range)
        }
        var edited = text
        edited.replaceSubrange(lowerIndex..<upperIndex, with: replacement)
        let shift = replacement.utf16.count - range.count
        guard utf16Count + shift <= Self.maximumUTF16Count else { throw .textTooLong(utf16Count: utf16Count + shift) }

        // The paragraphs to prepare again: from the one holding the code unit before
        // the edit (so that a CR before it and an LF after it meet) to the one holding
        // the code unit after it. Segments `first..<past` are replaced.
        var first = segments.partitioningIndex { Int($0.end) >= range.lowerBound }
        while first > 0, !segments[first - 1].isMandatoryBreak { first -= 1 }
        var past = segments.partitioningIndex { Int($0.end) > range.upperBound }
        past = paragraphEnd(from: past)
        let start = first == 0 ? 0 : Int(segments[first - 1].end)
        let firstGrapheme = first == 0 ? 0 : segments[first - 1].graphemeEnd
        let inherited = script(before: start, graphemes: firstGrapheme, in: text)

        while true {
            let end = past == 0 ? 0 : Int(segments[past - 1].end)
            let lastGrapheme = past == 0 ? 0 : segments[past - 1].graphemeEnd
            let editedStart = String.Index(utf16Offset: start, in: edited)
            let editedEnd = String.Index(utf16Offset: end + shift, in: edited)
            var builder = SegmentBuilder(fonts: fonts, style: style, cache: cache)
            let count = end + shift - start
            try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { utf16 throws(TextMeasureError) in
                UTF16Transcoding.copy(edited[editedStart..<editedEnd], into: utf16)
                try builder.build(UnsafeBufferPointer(utf16), inheriting: inherited)
            }
            // A paragraph after the edited ones that starts with neutral characters takes
            // the script they end with: prepare it again too if that changed.
            if past < segments.count {
                let before = script(before: end, graphemes: lastGrapheme, in: text)
                let after = Self.script(before: end + shift, graphemeEnds: builder.graphemeEnds, offset: start,
                                        graphemes: Int32(builder.graphemeEnds.count), in: edited) ?? inherited
                if before != after {
                    past = paragraphEnd(from: past)
                    continue
                }
            }
            return splice(segments: first..<past, graphemes: firstGrapheme..<lastGrapheme, with: builder,
                          at: start, shift: shift, text: edited)
        }
    }

    /// One past the segment that ends the paragraph holding segment `index`.
    private func paragraphEnd(from index: Int) -> Int {
        var past = index
        while past < segments.count {
            past += 1
            if segments[past - 1].isMandatoryBreak { break }
        }
        return past
    }

    /// The script the text from `offset` on inherits: that of the last cluster before
    /// it with a script of its own, as `FontItemizer` assigns them (`HB_SCRIPT_INVALID`
    /// for none). `graphemes` is the number of clusters before `offset`.
    private func script(before offset: Int, graphemes: Int32, in text: String) -> hb_script_t {
        Self.script(before: offset, graphemeEnds: graphemeEnds, offset: 0, graphemes: graphemes, in: text)
            ?? HB_SCRIPT_INVALID
    }

    /// The script of the last of the first `graphemes` clusters (ending at
    /// `graphemeEnds` plus `offset`, the last at `end`) that has one, or nil.
    private static func script(before end: Int, graphemeEnds: [Int32], offset: Int, graphemes: Int32,
                               in text: String) -> hb_script_t? {
        let scalars = text.unicodeScalars
        var index = String.Index(utf16Offset: end, in: text)
        var position = end
        var cluster = Int(graphemes) - 1
        while cluster >= 0 {
            // A cluster's script is its first code point's.
            let clusterStart = cluster == 0 ? offset : offset + Int(graphemeEnds[cluster - 1])
            while position > clusterStart {
                index = scalars.index(before: index)
                position -= scalars[index].utf16.count
            }
            let script = ScriptTable.bmp.script(of: scalars[index].value)
            if !script.isNeutral { return script }
            cluster -= 1
        }
        return nil
    }

    /// This text's preparation with `segments` and the clusters `graphemes` replaced
    /// by `builder`'s, which prepared the edited text from UTF-16 offset `start`; what
    /// follows moves by `shift` code units.
    private func splice(segments replaced: Range<Int>, graphemes: Range<Int32>, with builder: SegmentBuilder,
                        at start: Int, shift: Int, text edited: String) -> PreparedText {
        let base = graphemes.lowerBound
        let inserted = Int32(builder.graphemeEnds.count)
        let graphemeShift = base + inserted - graphemes.upperBound
        let unitShift = Int32(shift)
        let lower = Int(graphemes.lowerBound), upper = Int(graphemes.upperBound)

        var newSegments = Array(segments[..<replaced.lowerBound])
        newSegments.reserveCapacity(replaced.lowerBound + builder.segments.count + segments.count - replaced.upperBound)
        for var segment in builder.segments {
            segment.end += Int32(start)
            segment.graphemeEnd += base
            segment.contentGraphemeEnd += base
            newSegments.append(segment)
        }
        for var segment in segments[replaced.upperBound...] {
            segment.end += unitShift
            segment.graphemeEnd += graphemeShift
            segment.contentGraphemeEnd += graphemeShift
            newSegments.append(segment)
        }

        var ends = Array(graphemeEnds[..<lower])
        ends.reserveCapacity(lower + Int(inserted) + graphemeEnds.count - upper)
        ends += builder.graphemeEnds.lazy.map { $0 + Int32(start) }
        ends += graphemeEnds[upper...].lazy.map { $0 + unitShift }

        var tabs = tabStops
        let builderTabs = builder.tabStops
        if tabs.graphemes.isEmpty { tabs = builderTabs }   // the interval is the style's: either gives it
        let tabsBefore = tabStops.graphemes.partitioningIndex { $0 >= graphemes.lowerBound }
        let tabsAfter = tabStops.graphemes.partitioningIndex { $0 >= graphemes.upperBound }
        tabs.graphemes = Array(tabStops.graphemes[..<tabsBefore]) + builderTabs.graphemes.map { $0 + base }
            + tabStops.graphemes[tabsAfter...].map { $0 + graphemeShift }
        if tabs.graphemes.isEmpty { tabs = .none }

        return PreparedText(text: edited, fonts: fonts, style: style, utf16Count: utf16Count + shift,
                            segments: newSegments, graphemeEnds: ends,
                            graphemeWidths: Self.splice(graphemeWidths, lower..<upper, builder.graphemeWidths),
                            edgeAdjustments: edgeAdjustments.replacing(graphemes: graphemes,
                                                                       with: builder.edgeAdjustments,
                                                                       insertedCount: inserted),
                            tabStops: tabs,
                            graphemeFonts: Self.splice(graphemeFonts, lower..<upper, builder.graphemeFonts),
                            graphemeHangs: Self.splice(graphemeHangs, lower..<upper, builder.graphemeHangs))
    }

    private static func splice<T>(_ array: [T], _ range: Range<Int>, _ inserted: [T]) -> [T] {
        var result = array
        result.replaceSubrange(range, with: inserted)
        return result
    }
}
