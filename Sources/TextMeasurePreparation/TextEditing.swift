import CHarfBuzz

extension PreparedText {
    /// This text with the characters in `range` replaced by `replacement`, prepared:
    /// what a composer does on every keystroke.
    ///
    /// Only the paragraphs the edit touches are prepared again; the others' segments
    /// and clusters are reused, moved. Paragraphs end at mandatory breaks that also end
    /// a bidi paragraph (a newline, a paragraph separator: a line separator does not),
    /// after which line breaking, clusters, shaping and bidi levels start afresh, so
    /// the result is the one `PreparedText(_:)` gives for the new text, field for field,
    /// in every direction. (What carries across a paragraph end is the script that
    /// neutral characters at a paragraph's start take; when the edit changes it, the
    /// next paragraph is prepared again too.) `whiteSpace` `.normal`, whose collapsing
    /// reaches across paragraphs, is prepared whole, with the same result.
    ///
    /// Styled text (`PreparedText(_: AttributedText)`) is edited as
    /// `AttributedText.replaceCharacters(inUTF16:with:)` edits it: runs after the edit
    /// move, the run typed into grows, runs and placeholders deleted go, and
    /// `attributed` is the edited text.
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
        try replacingCharacters(inUTF16: text.utf16Offsets(of: range), with: replacement, cache: cache)
    }

    /// This text with the UTF-16 code units `range` (`NSRange`'s offsets) replaced by
    /// `replacement`, prepared: see `replacingCharacters(in:with:cache:)`.
    public func replacingCharacters(inUTF16 range: Range<Int>, with replacement: String,
                                    cache: ShapeCache? = .shared) throws(TextMeasureError) -> PreparedText {
        try replacing(range, with: replacement, runs: nil, cache: cache)
    }

    /// This text with the characters in `range` replaced by `replacement`'s text and
    /// runs, prepared (a mention chip or a pasted styled string): see
    /// `AttributedText.replaceCharacters(inUTF16:with:)` for what happens to the runs.
    /// Plain text becomes styled text when `replacement` has runs.
    ///
    /// ```swift
    /// var mention = AttributedText("@ana")
    /// try mention.setAttributes(TextAttributes(fontSize: 20), utf16Range: 0..<4)
    /// let draft = try PreparedText(AttributedText("Hi , see you"))
    /// let edited = try draft.replacingCharacters(inUTF16: 3..<3, with: mention)
    /// let runs = edited.attributed?.runs.count   // 1: "@ana"
    /// ```
    ///
    /// - Throws: as `replacingCharacters(in:with:cache:)`.
    public func replacingCharacters(in range: Range<String.Index>,
                                    with replacement: AttributedText) throws(TextMeasureError) -> PreparedText {
        try replacingCharacters(inUTF16: text.utf16Offsets(of: range), with: replacement)
    }

    /// This text with the UTF-16 code units `range` replaced by `replacement`'s text
    /// and runs, prepared: see `replacingCharacters(in:with:)`.
    public func replacingCharacters(inUTF16 range: Range<Int>,
                                    with replacement: AttributedText) throws(TextMeasureError) -> PreparedText {
        if attributed == nil {
            guard !replacement.runs.isEmpty else { return try replacing(range, with: replacement.text, runs: nil, cache: .shared) }
            // Plain text becoming styled is prepared whole once, by the styled path.
            var styled = AttributedText(text, style: style, fonts: fonts)
            try styled.replaceCharacters(inUTF16: range, with: replacement)
            return try PreparedText(styled)
        }
        return try replacing(range, with: replacement.text, runs: replacement.runs, cache: .shared)
    }

    /// The edit: `inserted` the runs of the replacement (styled text only), nil for typed text.
    private func replacing(_ range: Range<Int>, with replacement: String, runs inserted: [AttributedText.Run]?,
                           cache: ShapeCache?) throws(TextMeasureError) -> PreparedText {
        guard range.lowerBound >= 0, range.upperBound <= utf16Count else { throw .invalidEditRange(utf16Offsets: range) }
        let shift = replacement.utf16.count - range.count
        guard utf16Count + shift <= Self.maximumUTF16Count else { throw .textTooLong(utf16Count: utf16Count + shift) }
        // String indices from UTF-8 offsets, found in one pass over the bytes: the
        // UTF-16 view would index a new string each keystroke (its breadcrumbs cost
        // more than the paragraph's preparation).
        let utf8 = Self.withUTF8(text) { bytes -> [Int]? in
            var cursor = UTF16Cursor(bytes)
            var offsets: [Int] = []
            for bound in [range.lowerBound, range.upperBound] {
                offsets.append(cursor.utf8Offset(reaching: bound))
                // Past the offset asked for: it fell inside a surrogate pair.
                guard cursor.utf16Offset == bound else { return nil }
            }
            return offsets
        }
        guard let utf8 else { throw .invalidEditRange(utf16Offsets: range) }
        let lowerIndex = text.utf8.index(text.utf8.startIndex, offsetBy: utf8[0])
        var edited = text
        edited.replaceSubrange(lowerIndex..<text.utf8.index(lowerIndex, offsetBy: utf8[1] - utf8[0]), with: replacement)
        let utf8Shift = replacement.utf8.count - (utf8[1] - utf8[0])

        var styledEdit: StyledEdit?
        if let styled {
            let runs = styled.attributed.editedRuns(replacing: range, insertedCount: range.count + shift, inserted: inserted)
            let attributed = AttributedText(edited: edited, style: style, fonts: fonts, runs: runs.runs)
            // A run cut in two around inserted text is two inline boxes, whose second
            // the clusters kept after the edit do not name yet: prepared whole.
            guard !runs.isSplit else { return try PreparedText(attributed, cache: cache) }
            styledEdit = StyledEdit(attributed: attributed, source: styled, newRunIndices: runs.newIndices)
        }
        // White-space collapsing reaches across paragraphs, and punctuation trimming is
        // applied to a whole preparation (`PunctuationTrim`): prepared whole.
        guard style.whiteSpace != .normal,
              !(styledEdit?.attributed.trimsPunctuation ?? (style.textSpacingTrim != .spaceAll && fonts.trimsPunctuation))
        else {
            if let styledEdit { return try PreparedText(styledEdit.attributed, cache: cache) }
            return try PreparedText(edited, fonts: fonts, style: style, cache: cache)
        }

        // The paragraphs to prepare again: from the one holding the code unit before
        // the edit (so that a CR before it and an LF after it meet) to the one holding
        // the code unit after it. Segments `first..<past` are replaced.
        let paragraphs = ParagraphEnds(text)
        // ICU resolves a text with explicit embeddings or isolates paragraph by
        // paragraph, and one without them with some state carried across paragraph
        // ends (`levels(of:after:explicit:)`): an edit that adds the first or removes
        // the last changes every paragraph's levels.
        let removedControls = Self.withUTF8(text) { ParagraphEnds.scan($0, utf8[0]..<utf8[1], utf16: 0).controls }
        let addedControls = Self.withUTF8(replacement) { ParagraphEnds.scan($0, 0..<$0.count, utf16: 0).controls }
        let hasControls = paragraphs.controls - removedControls + addedControls > 0
        guard hasControls == (paragraphs.controls > 0) else {
            if let styledEdit { return try PreparedText(styledEdit.attributed, cache: cache) }
            return try PreparedText(edited, fonts: fonts, style: style, cache: cache)
        }
        var first = segments.partitioningIndex { Int($0.end) >= range.lowerBound }
        while first > 0, !endsParagraph(first - 1, paragraphs) { first -= 1 }
        var past = paragraphEnd(from: segments.partitioningIndex { Int($0.end) > range.upperBound }, paragraphs)
        let start = first == 0 ? 0 : Int(segments[first - 1].end)
        let startUTF8 = paragraphs.utf8Offset(of: start)
        let firstGrapheme = first == 0 ? 0 : segments[first - 1].graphemeEnd
        let inherited = script(before: start, at: text.utf8.index(text.utf8.startIndex, offsetBy: startUTF8),
                               graphemes: firstGrapheme, in: text)

        while true {
            let end = past == 0 ? 0 : Int(segments[past - 1].end)
            let lastGrapheme = past == 0 ? 0 : segments[past - 1].graphemeEnd
            // The text after the edit is unchanged: its offsets moved by the shifts.
            let endUTF8 = paragraphs.utf8Offset(of: end)
            let editedStart = edited.utf8.index(edited.utf8.startIndex, offsetBy: startUTF8)
            let editedEnd = edited.utf8.index(edited.utf8.startIndex, offsetBy: endUTF8 + utf8Shift)
            let rebuilt: Rebuilt
            do {
                rebuilt = try rebuild(edited[editedStart..<editedEnd], count: end + shift - start, at: start,
                                      inheriting: inherited, after: start == 0 ? nil : bidi.paragraphLevel(at: start - 1),
                                      explicit: hasControls, styled: styledEdit, cache: cache)
            } catch {
                // Slots the edit removed still count here: preparing whole drops them.
                guard case .tooManyRunFonts = error, let styledEdit else { throw error }
                return try PreparedText(styledEdit.attributed, cache: cache)
            }
            // A paragraph after the edited ones that starts with neutral characters takes
            // the script they end with: prepare it again too if that changed.
            if past < segments.count {
                let before = script(before: end, at: text.utf8.index(text.utf8.startIndex, offsetBy: endUTF8),
                                    graphemes: lastGrapheme, in: text)
                let after = Self.script(before: end + shift, at: editedEnd, graphemeEnds: rebuilt.built.graphemeEnds,
                                        offset: start, graphemes: Int32(rebuilt.built.graphemeEnds.count), in: edited)
                    ?? inherited
                // Without explicit controls, the next paragraph's brackets take the
                // direction of the last one prepared again for context: again too if it changed.
                let levelAfter = rebuilt.built.bidi.paragraphLevels.last ?? 0
                if before != after || !hasControls && levelAfter != bidi.paragraphLevel(at: end - 1) {
                    past = paragraphEnd(from: past, paragraphs)
                    continue
                }
            }
            let bidi = splicedBidi(rebuilt.built.bidi, replacing: start..<end, shift: shift, paragraphs: paragraphs,
                                       edited: edited, editedRange: editedStart..<editedEnd)
            return splice(segments: first..<past, graphemes: firstGrapheme..<lastGrapheme, with: rebuilt,
                          bidi: bidi, at: start, shift: shift, text: edited, styled: styledEdit)
        }
    }

    /// Calls `body` with the text's UTF-8: in place, as native strings keep it (the
    /// string's own views walk it several times slower). Inlinable so that a caller in
    /// another module gets it specialized: generic, it cost layout ~500 instructions a call.
    @inlinable
    package static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(body)!
    }

    /// One past the segment that ends the paragraph holding segment `index`.
    private func paragraphEnd(from index: Int, _ paragraphs: ParagraphEnds) -> Int {
        var past = index
        while past < segments.count {
            past += 1
            if endsParagraph(past - 1, paragraphs) { break }
        }
        return past
    }

    /// Whether segment `index` ends a paragraph an edit may start or end at: a
    /// mandatory break (line breaking and shaping start afresh after it) that ends a
    /// bidi paragraph (so do levels, and embeddings still open end there).
    private func endsParagraph(_ index: Int, _ paragraphs: ParagraphEnds) -> Bool {
        segments[index].isMandatoryBreak && paragraphs.contains(Int(segments[index].end))
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

    /// The ends of a text's bidi paragraphs: the offsets after each paragraph
    /// separator (bidi class B: LF, CR, CR LF as one, U+001C–U+001E, U+0085, U+2029),
    /// in UTF-16 and UTF-8 code units.
    private struct ParagraphEnds {
        private(set) var utf16: [Int] = []
        private(set) var utf8: [Int] = []
        /// How many explicit embeddings, overrides, isolates and their ends the text holds.
        private(set) var controls = 0
        let utf16Count: Int, utf8Count: Int

        /// The ends in `text`.
        init(_ text: String) {
            utf16Count = text.utf16.count
            utf8Count = text.utf8.count
            (utf16, utf8, controls) = PreparedText.withUTF8(text) { Self.scan($0, 0..<$0.count, utf16: 0) }
        }

        /// The ends in `bytes[range]`, whose first byte is UTF-16 offset `utf16`, and
        /// the number of explicit controls (U+202A–U+202E, U+2066–U+2069).
        static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                         utf16 start: Int) -> (ends16: [Int], ends8: [Int], controls: Int) {
            var ends16: [Int] = [], ends8: [Int] = []
            var controls = 0
            var position = range.lowerBound, utf16 = start
            while position < range.upperBound {
                let byte = bytes[position]
                let isSeparator = switch byte {
                case 0x0A, 0x1C...0x1E: true
                case 0x0D: position + 1 == bytes.count || bytes[position + 1] != 0x0A   // CR LF ends after the LF
                case 0xC2: bytes[position + 1] == 0x85
                case 0xE2: bytes[position + 1] == 0x80 && bytes[position + 2] == 0xA9
                default: false
                }
                if byte == 0xE2, bytes[position + 1] == 0x80 && (0xAA...0xAE).contains(bytes[position + 2])
                    || bytes[position + 1] == 0x81 && (0xA6...0xA9).contains(bytes[position + 2]) {
                    controls += 1
                }
                position += byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                utf16 += byte >= 0xF0 ? 2 : 1
                if isSeparator {
                    ends16.append(utf16)
                    ends8.append(position)
                }
            }
            return (ends16, ends8, controls)
        }

        func contains(_ offset: Int) -> Bool {
            let index = utf16.partitioningIndex { $0 >= offset }
            return index < utf16.count && utf16[index] == offset
        }

        /// The UTF-8 offset of UTF-16 offset `offset`: the text's start, a paragraph end or the text's end.
        func utf8Offset(of offset: Int) -> Int {
            if offset == 0 { return 0 }
            if offset == utf16Count { return utf8Count }
            return utf8[utf16.partitioningIndex { $0 >= offset }]
        }

        /// The ends after `offset` up to `limit`, or from `offset` on.
        func ends(after offset: Int, through limit: Int = .max) -> ArraySlice<Int> {
            utf16[utf16.partitioningIndex { $0 > offset }..<utf16.partitioningIndex { $0 > limit }]
        }
    }

    /// The styled text after an edit and what it was prepared from.
    private struct StyledEdit {
        let attributed: AttributedText
        let source: StyledSource
        /// For each run before the edit, its index after (nil: removed).
        let newRunIndices: [Int?]

        /// The source's slot keys with the runs they name renumbered as the edit
        /// renumbered the runs; a removed run's slots lose their keys (no cluster kept
        /// names them: its text was deleted, and is prepared again).
        var seededKeys: [StyledSegmentBuilder.SlotKey] {
            source.slotKeys.map { key in
                var moved = key
                if key.run >= 0 { moved.run = newRunIndices[key.run] ?? StyledSegmentBuilder.SlotKey.removedRun }
                return moved
            }
        }
    }

    /// What preparing the paragraphs an edit touched gave: either builder's output.
    private struct Rebuilt {
        var built: BuiltSegments
        /// Styled text's slots (those before the edit first, then new ones) and their keys.
        var slots: [StyledSegmentBuilder.Slot] = []
        var slotKeys: [StyledSegmentBuilder.SlotKey] = []
        /// Whether the part prepared again has a code point no font draws (`PreparedText.mayMissGlyphs`).
        var mayMissGlyphs: Bool
    }

    /// Prepares `part` (`count` UTF-16 code units from offset `start` of the edited
    /// text, after clusters whose last script is `script`).
    private func rebuild(_ part: Substring, count: Int, at start: Int, inheriting script: hb_script_t,
                         after previousLevel: UInt8?, explicit: Bool,
                         styled: StyledEdit?, cache: ShapeCache?) throws(TextMeasureError) -> Rebuilt {
        try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { utf16 throws(TextMeasureError) in
            let mayMissGlyphs = UTF16Transcoding.copy(part, into: utf16, drawnBy: fonts).mayMissGlyphs
            let units = UnsafeBufferPointer(utf16)
            let levels = try levels(of: units, after: previousLevel, explicit: explicit)
            guard let styled else {
                var builder = SegmentBuilder(fonts: fonts, style: style, cache: cache)
                try builder.build(units, inheriting: script, levels: levels)
                return Rebuilt(built: builder.built, mayMissGlyphs: mayMissGlyphs)
            }
            var builder = StyledSegmentBuilder(styled.attributed, ellipsis: ellipsis,
                                               normalBoxes: Self.measures(fonts: fonts, style: style).lineBoxes,
                                               cache: cache)
            builder.seed(slots: styled.source.slots, keys: styled.seededKeys)
            try builder.build(units, origin: start, inheriting: script, levels: levels)
            return Rebuilt(built: builder.built, slots: builder.slots, slotKeys: builder.slotKeys,
                           mayMissGlyphs: mayMissGlyphs)
        }
    }

    /// The levels of `text`, whole paragraphs of the edited text after a paragraph of
    /// `previousLevel` (nil: at its start), as resolving the whole edited text gives
    /// them. ICU carries state across a paragraph end when the text has no explicit
    /// embedding or isolate (`explicit`): a paragraph's brackets take the direction
    /// of the paragraph before it, not its own, for context. So `text` is resolved
    /// after a stand-in for that paragraph: one of its level, holding both directions
    /// (so that ICU does not take the shortcut for text of one direction, which the
    /// whole text does not either) and an isolate when the whole text has one.
    private func levels(of text: UnsafeBufferPointer<UInt16>, after previousLevel: UInt8?,
                        explicit: Bool) throws(TextMeasureError) -> BidiLevels {
        let direction = style.baseWritingDirection
        guard previousLevel != nil || explicit else { return try BidiLevels.resolve(text, direction: direction) }
        // Text with nothing right to left has no levels, unless it follows a right-to-left
        // paragraph without explicit codes: its brackets may then resolve right to left.
        let afterRightToLeft = !explicit && (previousLevel ?? 0) & 1 == 1
        guard direction == .rightToLeft || afterRightToLeft || BidiLevels.isNeeded(text) else { return BidiLevels() }
        var prefix: [UInt16] = (previousLevel ?? 0) & 1 == 1 ? [0x05D0, 0x61] : [0x61, 0x05D0]
        if explicit { prefix += [0x2066, 0x2069] }
        prefix.append(0x0A)
        let resolved = try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: prefix.count + text.count) {
            buffer throws(TextMeasureError) in
            _ = buffer.initialize(fromContentsOf: prefix)
            _ = buffer[prefix.count...].initialize(fromContentsOf: text)
            return try BidiLevels.resolve(UnsafeBufferPointer(buffer), direction: direction)
        }
        return BidiLevels(levels: Array(resolved.levels[prefix.count...]),
                          paragraphEnds: resolved.paragraphEnds.dropFirst().map { $0 - Int32(prefix.count) },
                          paragraphLevels: Array(resolved.paragraphLevels.dropFirst()))
    }

    /// The edited text's bidi levels: this text's outside `old` (whole bidi paragraphs,
    /// which resolve alone as in the whole text), moved by `shift`, around `local`, the
    /// levels of the paragraphs prepared again (`editedRange` of `edited`). Text kept
    /// as left to right (no levels) counts as level 0 throughout, in paragraphs of level 0.
    private func splicedBidi(_ local: BidiLevels, replacing old: Range<Int>, shift: Int, paragraphs: ParagraphEnds,
                             edited: String, editedRange: Range<String.Index>) -> BidiLevels {
        let count = utf16Count + shift, localCount = old.count + shift
        if bidi.isLeftToRight && local.isLeftToRight { return BidiLevels() }
        if local.isLeftToRight, style.baseWritingDirection != .rightToLeft {
            // Levels are kept only while some code unit needs them: the edit may have removed the last.
            let isNeeded = withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { utf16 in
                UTF16Transcoding.copy(edited[...], into: utf16)
                return BidiLevels.isNeeded(UnsafeBufferPointer(utf16))
            }
            if !isNeeded { return BidiLevels() }
        }
        // Read once: levels kept as one are made for the asking.
        let oldLevels = bidi.levels, oldEnds = bidi.paragraphEnds
        var levels: [UInt8] = [], ends: [Int32] = [], paragraphLevels: [UInt8] = []
        levels.reserveCapacity(count)
        if bidi.isLeftToRight {
            levels += repeatElement(0, count: old.lowerBound)
            ends += paragraphs.ends(after: 0, through: old.lowerBound).lazy.map { Int32($0) }
        } else {
            levels += oldLevels[..<old.lowerBound]
            let kept = oldEnds.partitioningIndex { Int($0) > old.lowerBound }
            ends += oldEnds[..<kept]
            paragraphLevels += bidi.paragraphLevels[..<kept]
        }
        paragraphLevels += repeatElement(0, count: ends.count - paragraphLevels.count)
        if local.isLeftToRight {
            levels += repeatElement(0, count: localCount)
            let lower = edited.utf8.distance(from: edited.utf8.startIndex, to: editedRange.lowerBound)
            let upper = lower + edited.utf8.distance(from: editedRange.lowerBound, to: editedRange.upperBound)
            let localEnds = Self.withUTF8(edited) { ParagraphEnds.scan($0, lower..<upper, utf16: old.lowerBound).ends16 }
            ends += localEnds.lazy.map { Int32($0) }
            paragraphLevels += repeatElement(0, count: localEnds.count)
        } else {
            levels += local.levels
            ends += local.paragraphEnds.lazy.map { $0 + Int32(old.lowerBound) }
            paragraphLevels += local.paragraphLevels
        }
        if bidi.isLeftToRight {
            levels += repeatElement(0, count: utf16Count - old.upperBound)
            let after = paragraphs.ends(after: old.upperBound)
            ends += after.lazy.map { Int32($0 + shift) }
            paragraphLevels += repeatElement(0, count: after.count)
        } else {
            levels += oldLevels[old.upperBound...]
            let kept = oldEnds.partitioningIndex { Int($0) > old.upperBound }
            ends += oldEnds[kept...].lazy.map { $0 + Int32(shift) }
            paragraphLevels += bidi.paragraphLevels[kept...]
        }
        // The last paragraph ends at the text's end, with a separator or without.
        if count > 0, ends.last != Int32(count) {
            ends.append(Int32(count))
            paragraphLevels.append(0)
        }
        return BidiLevels(levels: levels, paragraphEnds: ends, paragraphLevels: paragraphLevels)
    }

    /// This text's preparation with `segments` and the clusters `graphemes` replaced
    /// by `builder`'s, which prepared the edited text from UTF-16 offset `start`; what
    /// follows moves by `shift` code units.
    private func splice(segments replaced: Range<Int>, graphemes: Range<Int32>, with builder: Rebuilt,
                        bidi: BidiLevels, at start: Int, shift: Int, text edited: String,
                        styled: StyledEdit?) -> PreparedText {
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
        var fontIndices = Self.splice(graphemeFonts, lower..<upper, builder.built.graphemeFonts)
        var boxes: [LineBox]?
        var source: StyledSource?
        if let styled {
            var slots = builder.slots, keys = builder.slotKeys
            Self.renumber(&slots, keys: &keys, graphemeFonts: &fontIndices, segments: &newSegments,
                          baseCount: fonts.fonts.count)
            boxes = slots.map(\.box)
            source = StyledSource(styled.attributed, slots: slots, slotKeys: keys)
        }
        return PreparedText(text: edited, fonts: fonts, style: style, utf16Count: utf16Count + shift,
                            segments: newSegments, graphemeEnds: ends, graphemeWidths: widths,
                            edgeAdjustments: adjustments, tabStops: tabs, graphemeFonts: fontIndices,
                            graphemeHangs: Self.splice(graphemeHangs, lower..<upper, builder.built.graphemeHangs),
                            bidi: bidi,
                            ligatures: ligatures.replacing(graphemes: graphemes, with: builder.built.ligatures,
                                                           insertedCount: inserted),
                            measures: StyleMeasures(ellipsis: ellipsis, hyphen: hyphen, spaceWidth: spaceWidth,
                                                    lineBoxes: lineBoxes),
                            lineBoxes: boxes, styledSource: source,
                            mayMissGlyphs: mayMissGlyphs || builder.mayMissGlyphs)
    }

    /// Numbers styled text's slots as preparing it afresh does: the base fonts first,
    /// then in the order clusters first use them. Slots no cluster uses any more (the
    /// edit deleted their text) go.
    private static func renumber(_ slots: inout [StyledSegmentBuilder.Slot],
                                 keys: inout [StyledSegmentBuilder.SlotKey], graphemeFonts: inout [UInt8],
                                 segments: inout [Segment], baseCount: Int) {
        var number = [Int](repeating: -1, count: slots.count)
        for slot in 0..<baseCount { number[slot] = slot }
        var next = baseCount
        for font in graphemeFonts where next < slots.count && number[Int(font)] < 0 {
            number[Int(font)] = next
            next += 1
        }
        guard number.indices.contains(where: { number[$0] != $0 }) else { return }
        var renumbered = slots, renumberedKeys = keys
        renumbered.removeSubrange(next...)
        renumberedKeys.removeSubrange(next...)
        for (old, new) in number.enumerated() where new >= 0 {
            renumbered[new] = slots[old]
            renumberedKeys[new] = keys[old]
        }
        slots = renumbered
        keys = renumberedKeys
        for index in graphemeFonts.indices { graphemeFonts[index] = UInt8(number[Int(graphemeFonts[index])]) }
        for index in segments.indices {
            var mask = segments[index].fonts, renumberedMask: UInt64 = 0
            while mask != 0 {
                renumberedMask |= 1 << UInt64(number[mask.trailingZeroBitCount])
                mask &= mask - 1
            }
            segments[index].fonts = renumberedMask
        }
    }

    private static func splice<T>(_ array: [T], _ range: Range<Int>, _ inserted: [T]) -> [T] {
        var result = array
        result.replaceSubrange(range, with: inserted)
        return result
    }
}
