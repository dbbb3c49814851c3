extension AttributedText {
    /// Replaces the characters in `utf16Range` (`NSRange`'s offsets) with `replacement`,
    /// as `NSMutableAttributedString.replaceCharacters(in:with:)` does: runs after the
    /// range move, a run the range lies in grows or shrinks, a run the range covers
    /// whole goes (a deleted U+FFFC takes its placeholder with it), and the new
    /// characters take the attributes of the first character replaced or, when
    /// nothing is replaced, of the character before (at offset 0, after): the run
    /// being typed into. A placeholder's attributes are not typed on: text typed next
    /// to one takes the base style.
    ///
    /// ```swift
    /// var message = AttributedText("Hi @ana")
    /// try message.setAttributes(TextAttributes(fontSize: 20), utf16Range: 3..<7)
    /// try message.replaceCharacters(inUTF16: 7..<7, with: "lia")   // "@analia", all 20 px
    /// ```
    ///
    /// - Throws: `TextMeasureError.invalidEditRange` for a range outside the text or
    ///   splitting a surrogate pair; the text is then unchanged.
    public mutating func replaceCharacters(inUTF16 utf16Range: Range<Int>, with replacement: String) throws(TextMeasureError) {
        let range = try stringRange(utf16Range)
        let inserted = replacement.utf16.count
        runs = editedRuns(replacing: utf16Range, insertedCount: inserted, inserted: nil).runs
        text.replaceSubrange(range, with: replacement)
    }

    /// Replaces the characters in `range` with `replacement`: see `replaceCharacters(inUTF16:with:)`.
    public mutating func replaceCharacters(in range: Range<String.Index>, with replacement: String) throws(TextMeasureError) {
        try replaceCharacters(inUTF16: text.utf16Offsets(of: range), with: replacement)
    }

    /// Replaces the characters in `utf16Range` with `replacement`'s text and runs
    /// (`NSMutableAttributedString.replaceCharacters(in:with:)` given an attributed
    /// string): its text outside its runs takes this text's base style, and a run the
    /// range lies inside is cut in two around it.
    ///
    /// ```swift
    /// var draft = AttributedText("Hi , see you")
    /// var mention = AttributedText("@ana")
    /// try mention.setAttributes(TextAttributes(fontSize: 20), utf16Range: 0..<4)
    /// try draft.replaceCharacters(inUTF16: 3..<3, with: mention)   // "Hi @ana, see you"
    /// ```
    ///
    /// - Throws: `TextMeasureError.invalidEditRange` as the plain edit does.
    public mutating func replaceCharacters(inUTF16 utf16Range: Range<Int>, with replacement: AttributedText) throws(TextMeasureError) {
        let range = try stringRange(utf16Range)
        runs = editedRuns(replacing: utf16Range, insertedCount: replacement.text.utf16.count,
                          inserted: replacement.runs).runs
        text.replaceSubrange(range, with: replacement.text)
    }

    /// Replaces the characters in `range` with `replacement`: see `replaceCharacters(inUTF16:with:)`.
    public mutating func replaceCharacters(in range: Range<String.Index>, with replacement: AttributedText) throws(TextMeasureError) {
        try replaceCharacters(inUTF16: text.utf16Offsets(of: range), with: replacement)
    }

    /// This text's style and fonts with `text` and `runs`, which an edit made (they are valid).
    package init(edited text: String, style: TextStyle, fonts: FontSet, runs: [Run]) {
        self.init(text, style: style, fonts: fonts)
        self.runs = runs
    }

    /// The runs after replacing `range` with `insertedCount` code units (with the runs
    /// `inserted`, relative to the inserted text, or typed: `nil`), and for each run
    /// before, the index of its run after (nil: removed). `isSplit`: a run was cut in
    /// two around inserted text.
    package func editedRuns(replacing range: Range<Int>, insertedCount: Int,
                            inserted: [Run]?) -> (runs: [Run], newIndices: [Int?], isSplit: Bool) {
        let shift = insertedCount - range.count
        let typing = inserted == nil ? typingRun(for: range) : nil
        var before: [Run] = [], after: [Run] = []
        var beforeIndex: [Int?] = [], afterIndex: [Int?] = []
        var isSplit = false
        for (index, run) in runs.enumerated() {
            let old = run.utf16Range
            var kept = run
            if index == typing {
                // Grows over the inserted text; what it had after the range moves.
                let upper = old.upperBound > range.upperBound ? old.upperBound + shift : range.lowerBound + insertedCount
                kept.utf16Range = min(old.lowerBound, range.lowerBound)..<upper
                beforeIndex.append(kept.utf16Range.isEmpty ? nil : before.count)
                if !kept.utf16Range.isEmpty { before.append(kept) }
                afterIndex.append(nil)
                continue
            }
            if old.lowerBound < range.lowerBound {
                kept.utf16Range = old.lowerBound..<min(old.upperBound, range.lowerBound)
                beforeIndex.append(before.count)
                before.append(kept)
            } else {
                beforeIndex.append(nil)
            }
            if old.upperBound > range.upperBound {
                if old.lowerBound < range.lowerBound { isSplit = true }
                kept.utf16Range = (max(old.lowerBound, range.upperBound) + shift)..<(old.upperBound + shift)
                afterIndex.append(after.count)
                after.append(kept)
            } else {
                afterIndex.append(nil)
            }
        }
        let middle = (inserted ?? []).map { run in
            Run(utf16Range: (run.utf16Range.lowerBound + range.lowerBound)..<(run.utf16Range.upperBound + range.lowerBound),
                attributes: run.attributes)
        }
        let afterStart = before.count + middle.count
        let newIndices = zip(beforeIndex, afterIndex).map { left, right in left ?? right.map { $0 + afterStart } }
        return (before + middle + after, newIndices, isSplit)
    }

    /// The run whose attributes text typed over `range` takes (NSAttributedString's
    /// rule), or nil for the base style.
    private func typingRun(for range: Range<Int>) -> Int? {
        let offset = range.isEmpty && range.lowerBound > 0 ? range.lowerBound - 1 : range.lowerBound
        let index = runs.partitioningIndex { $0.utf16Range.upperBound > offset }
        guard index < runs.count, runs[index].utf16Range.contains(offset),
              runs[index].attributes.placeholder == nil else { return nil }
        return index
    }

    /// `range` as string indices, checked to lie in the text on scalar boundaries.
    private func stringRange(_ range: Range<Int>) throws(TextMeasureError) -> Range<String.Index> {
        let units = text.utf16
        guard range.lowerBound >= 0, range.upperBound <= units.count else { throw .invalidEditRange(utf16Offsets: range) }
        let lower = units.index(units.startIndex, offsetBy: range.lowerBound)
        let upper = units.index(lower, offsetBy: range.count)
        guard lower.samePosition(in: text.unicodeScalars) != nil, upper.samePosition(in: text.unicodeScalars) != nil else {
            throw .invalidEditRange(utf16Offsets: range)
        }
        return lower..<upper
    }
}
