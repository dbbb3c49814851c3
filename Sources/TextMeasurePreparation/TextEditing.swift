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
    /// next paragraph is prepared again too.) Soft hyphens and every line-breaking
    /// option splice so; text with a right-to-left bidi level before or after the edit
    /// (or `baseWritingDirection` `.rightToLeft`) and `whiteSpace` `.normal` are
    /// prepared whole, with the same result: bidi levels are not spliced yet.
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
    ///   the text or splits a surrogate pair; `.textTooLong` for a result too long;
    ///   `.styledTextEditing` for styled text, whose runs an edit does not shift yet.
    public func replacingCharacters(in range: Range<String.Index>, with replacement: String,
                                    cache: ShapeCache? = .shared) throws(TextMeasureError) -> PreparedText {
        let utf8 = text.utf8
        guard range.lowerBound >= utf8.startIndex, range.upperBound <= utf8.endIndex,
              range.lowerBound.samePosition(in: text.unicodeScalars) != nil,
              range.upperBound.samePosition(in: text.unicodeScalars) != nil else {
            throw .invalidEditRange(utf16Offsets: -1 ..< -1)
        }
        let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
        let upper = lower + utf8.distance(from: range.lowerBound, to: range.upperBound)
        let offsets = Self.utf16Offsets(ofUTF8: [lower, upper], in: text)
        return try replacingCharacters(inUTF16: offsets[0]..<offsets[1], with: replacement, cache: cache)
    }

    /// This text with the UTF-16 code units `range` (`NSRange`'s offsets) replaced by
    /// `replacement`, prepared: see `replacingCharacters(in:with:cache:)`.
    public func replacingCharacters(inUTF16 range: Range<Int>, with replacement: String,
                                    cache: ShapeCache? = .shared) throws(TextMeasureError) -> PreparedText {
        guard range.lowerBound >= 0, range.upperBound <= utf16Count else { throw .invalidEditRange(utf16Offsets: range) }
        // Runs are not shifted by an edit yet: an error, rather than the text without its styles.
        guard attributed == nil else { throw .styledTextEditing }
        let shift = replacement.utf16.count - range.count
        guard utf16Count + shift <= Self.maximumUTF16Count else { throw .textTooLong(utf16Count: utf16Count + shift) }
        // Bidi levels and white-space collapsing are not spliced: text with a
        // right-to-left level (before the edit or, below, after it) and collapsed white
        // space are prepared whole.
        guard isSpliceable else { return try preparedWhole(replacing: range, with: replacement, cache: cache) }

        // The paragraphs to prepare again: from the one holding the code unit before
        // the edit (so that a CR before it and an LF after it meet) to the one holding
        // the code unit after it. Segments `first..<past` are replaced.
        var first = segments.partitioningIndex { Int($0.end) >= range.lowerBound }
        while first > 0, !segments[first - 1].isMandatoryBreak { first -= 1 }
        var past = paragraphEnd(from: segments.partitioningIndex { Int($0.end) > range.upperBound })
        let start = first == 0 ? 0 : Int(segments[first - 1].end)
        let firstGrapheme = first == 0 ? 0 : segments[first - 1].graphemeEnd

        // String indices from UTF-8 offsets, found in one pass over the bytes: the
        // UTF-16 view would index a new string each keystroke (its breadcrumbs cost
        // more than the paragraph's preparation).
        guard let utf8 = Self.utf8Offsets(ofUTF16: [start, range.lowerBound, range.upperBound], in: text) else {
            throw .invalidEditRange(utf16Offsets: range)
        }
        let lowerIndex = text.utf8.index(text.utf8.startIndex, offsetBy: utf8[1])
        var edited = text
        edited.replaceSubrange(lowerIndex..<text.utf8.index(lowerIndex, offsetBy: utf8[2] - utf8[1]), with: replacement)
        let utf8Shift = replacement.utf8.count - (utf8[2] - utf8[1])
        let inherited = script(before: start, at: text.utf8.index(text.utf8.startIndex, offsetBy: utf8[0]),
                               graphemes: firstGrapheme, in: text)

        while true {
            let end = past == 0 ? 0 : Int(segments[past - 1].end)
            let lastGrapheme = past == 0 ? 0 : segments[past - 1].graphemeEnd
            // The text after the edit is unchanged: its offsets moved by the shifts.
            let endUTF8 = Self.utf8Offsets(ofUTF16: [end], in: text, from: (range.upperBound, utf8[2]))![0]
            let editedStart = edited.utf8.index(edited.utf8.startIndex, offsetBy: utf8[0])
            let editedEnd = edited.utf8.index(edited.utf8.startIndex, offsetBy: endUTF8 + utf8Shift)
            var builder = SegmentBuilder(fonts: fonts, style: style, cache: cache)
            let count = end + shift - start
            try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { utf16 throws(TextMeasureError) in
                UTF16Transcoding.copy(edited[editedStart..<editedEnd], into: utf16)
                try builder.build(UnsafeBufferPointer(utf16), inheriting: inherited)
            }
            guard builder.built.bidi.isLeftToRight, builder.built.ligatures.spans.isEmpty else {
                return try PreparedText(edited, fonts: fonts, style: style, cache: cache)
            }
            // A paragraph after the edited ones that starts with neutral characters takes
            // the script they end with: prepare it again too if that changed.
            if past < segments.count {
                let before = script(before: end, at: text.utf8.index(text.utf8.startIndex, offsetBy: endUTF8),
                                    graphemes: lastGrapheme, in: text)
                let after = Self.script(before: end + shift, at: editedEnd, graphemeEnds: builder.built.graphemeEnds,
                                        offset: start, graphemes: Int32(builder.built.graphemeEnds.count), in: edited)
                    ?? inherited
                if before != after {
                    past = paragraphEnd(from: past)
                    continue
                }
            }
            return splice(segments: first..<past, graphemes: firstGrapheme..<lastGrapheme, with: builder,
                          at: start, shift: shift, text: edited)
        }
    }

    /// Whether an edit of this text can be spliced: no bidi level but 0 (which
    /// `BidiLevels` keeps as none), so no right-to-left ligature; left-to-right or
    /// auto direction; white space kept (collapsing reaches across paragraphs).
    private var isSpliceable: Bool {
        bidi.isLeftToRight && ligatures.spans.isEmpty && style.baseWritingDirection != .rightToLeft
            && style.whiteSpace != .normal
    }

    /// The edit's text prepared whole, for what `isSpliceable` rules out.
    private func preparedWhole(replacing range: Range<Int>, with replacement: String,
                               cache: ShapeCache?) throws(TextMeasureError) -> PreparedText {
        guard let utf8 = Self.utf8Offsets(ofUTF16: [range.lowerBound, range.upperBound], in: text) else {
            throw .invalidEditRange(utf16Offsets: range)
        }
        var edited = text
        let lower = text.utf8.index(text.utf8.startIndex, offsetBy: utf8[0])
        edited.replaceSubrange(lower..<text.utf8.index(lower, offsetBy: utf8[1] - utf8[0]), with: replacement)
        return try PreparedText(edited, fonts: fonts, style: style, cache: cache)
    }

    /// The UTF-8 offsets of the ascending UTF-16 `offsets` of `text`, counting from
    /// `from` (a UTF-16 offset and its UTF-8 one), or nil when one falls inside a
    /// surrogate pair.
    private static func utf8Offsets(ofUTF16 offsets: [Int], in text: String,
                                    from: (utf16: Int, utf8: Int) = (0, 0)) -> [Int]? {
        withUTF8(text) { bytes in
            var result: [Int] = []
            var utf16 = from.utf16
            for position in from.utf8..<bytes.count where bytes[position] & 0xC0 != 0x80 {   // a scalar starts
                while result.count < offsets.count, offsets[result.count] <= utf16 {
                    if offsets[result.count] < utf16 { return nil }   // passed: inside a surrogate pair
                    result.append(position)
                }
                if result.count == offsets.count { return result }
                utf16 += bytes[position] >= 0xF0 ? 2 : 1
            }
            while result.count < offsets.count, offsets[result.count] == utf16 { result.append(bytes.count) }
            return result.count == offsets.count ? result : nil
        }
    }

    /// The UTF-16 offsets of the ascending UTF-8 `offsets` of `text`, which are on scalar boundaries.
    private static func utf16Offsets(ofUTF8 offsets: [Int], in text: String) -> [Int] {
        withUTF8(text) { bytes in
            var result: [Int] = []
            var utf16 = 0
            for position in 0..<bytes.count {
                while result.count < offsets.count, offsets[result.count] == position { result.append(utf16) }
                if result.count == offsets.count { return result }
                if bytes[position] & 0xC0 != 0x80 { utf16 += bytes[position] >= 0xF0 ? 2 : 1 }
            }
            while result.count < offsets.count { result.append(utf16) }
            return result
        }
    }

    /// Calls `body` with the text's UTF-8: in place, as native strings keep it (the
    /// string's own views walk it several times slower).
    private static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(body)!
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
    /// for none). `graphemes` is the number of clusters before `offset`; `index` is
    /// `offset` in `text`.
    private func script(before offset: Int, at index: String.Index, graphemes: Int32, in text: String) -> hb_script_t {
        Self.script(before: offset, at: index, graphemeEnds: graphemeEnds, offset: 0, graphemes: graphemes, in: text)
            ?? HB_SCRIPT_INVALID
    }

    /// The script of the last of the first `graphemes` clusters (ending at
    /// `graphemeEnds` plus `offset`, the last at `end`, which is `index` in `text`)
    /// that has one, or nil.
    private static func script(before end: Int, at index: String.Index, graphemeEnds: [Int32], offset: Int,
                               graphemes: Int32, in text: String) -> hb_script_t? {
        let scalars = text.unicodeScalars
        var index = index
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
        let inserted = Int32(builder.built.graphemeEnds.count)
        let graphemeShift = base + inserted - graphemes.upperBound
        let unitShift = Int32(shift)
        let lower = Int(graphemes.lowerBound), upper = Int(graphemes.upperBound)

        var newSegments = Array(segments[..<replaced.lowerBound])
        newSegments.reserveCapacity(replaced.lowerBound + builder.built.segments.count + segments.count - replaced.upperBound)
        for var segment in builder.built.segments {
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
        ends += builder.built.graphemeEnds.lazy.map { $0 + Int32(start) }
        ends += graphemeEnds[upper...].lazy.map { $0 + unitShift }

        var tabs = tabStops
        let builderTabs = builder.built.tabStops
        if tabs.graphemes.isEmpty { tabs = builderTabs }   // the interval is the style's: either gives it
        let tabsBefore = tabStops.graphemes.partitioningIndex { $0 >= graphemes.lowerBound }
        let tabsAfter = tabStops.graphemes.partitioningIndex { $0 >= graphemes.upperBound }
        tabs.graphemes = Array(tabStops.graphemes[..<tabsBefore]) + builderTabs.graphemes.map { $0 + base }
            + tabStops.graphemes[tabsAfter...].map { $0 + graphemeShift }
        if tabs.graphemes.isEmpty { tabs = .none }

        let widths = Self.splice(graphemeWidths, lower..<upper, builder.built.graphemeWidths)
        let adjustments = edgeAdjustments.replacing(graphemes: graphemes, with: builder.built.edgeAdjustments,
                                                    insertedCount: inserted)
        if builder.built.hasSoftHyphens {
            // Folded in the whole text's clusters, as preparing it whole does (a hyphen's
            // width may look back past the paragraph's start).
            Hyphen.fold(into: &newSegments, replaced.lowerBound..<(replaced.lowerBound + builder.built.segments.count),
                        hyphen: hyphen, graphemeWidths: widths, edgeAdjustments: adjustments)
        }
        // Left-to-right text (`isSpliceable`) has no bidi levels and no ligatures: the
        // edited text, whose new paragraphs have none either, neither.
        return PreparedText(text: edited, fonts: fonts, style: style, utf16Count: utf16Count + shift,
                            segments: newSegments, graphemeEnds: ends, graphemeWidths: widths,
                            edgeAdjustments: adjustments, tabStops: tabs,
                            graphemeFonts: Self.splice(graphemeFonts, lower..<upper, builder.built.graphemeFonts),
                            graphemeHangs: Self.splice(graphemeHangs, lower..<upper, builder.built.graphemeHangs),
                            bidi: BidiLevels(), ligatures: LigatureSpans(),
                            measures: StyleMeasures(ellipsis: ellipsis, hyphen: hyphen, spaceWidth: spaceWidth,
                                                    lineBoxes: lineBoxes))
    }

    private static func splice<T>(_ array: [T], _ range: Range<Int>, _ inserted: [T]) -> [T] {
        var result = array
        result.replaceSubrange(range, with: inserted)
        return result
    }
}
