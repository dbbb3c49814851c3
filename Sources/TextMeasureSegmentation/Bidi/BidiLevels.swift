import CTextICU

/// The embedding levels of a text (UAX #9, through ICU's ubidi): what preparation
/// splits shaping runs at and what placement reorders lines by.
///
/// Text that needs no reordering (every level 0: no right-to-left characters or
/// explicit controls in left-to-right paragraphs) is the common case and is kept
/// as empty arrays, so plain text pays one scan and no ICU call.
@usableFromInline   // read through PreparedText's inlined accessors
package struct BidiLevels: Sendable, Equatable {
    /// The level of every UTF-16 code unit, rule L1 applied at paragraph ends and
    /// before tabs; empty when every level is 0.
    package var levels: [UInt8] = []
    /// Each paragraph's end offset (UTF-16) and base level (0 left to right, 1 right
    /// to left); empty when every paragraph is left to right.
    package var paragraphEnds: [Int32] = []
    package var paragraphLevels: [UInt8] = []

    /// True when nothing is reordered: one left-to-right level throughout.
    package var isLeftToRight: Bool { levels.isEmpty }

    /// The level of every code unit when they all have the same (a right-to-left text
    /// of one paragraph, most of all), else nil: preparation then gives each shaping run
    /// that level, with no look at its clusters' (`BidiRuns.split`). Nil for left-to-right
    /// text, which keeps no levels.
    package var uniformLevel: UInt8? {
        levels.withUnsafeBufferPointer { levels in
            guard let base = levels.baseAddress else { return nil }
            let level = base[0], word = UInt64(level) &* 0x0101_0101_0101_0101
            var offset = 0
            // Eight levels a comparison.
            while offset + 8 <= levels.count {
                if UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) != word { return nil }
                offset += 8
            }
            while offset < levels.count {
                if levels[offset] != level { return nil }
                offset += 1
            }
            return level
        }
    }

    /// No levels: left-to-right text that needed no resolution.
    package init() {}

    /// Resolves `text`'s levels with `direction` for its paragraphs.
    package static func resolve(_ text: UnsafeBufferPointer<UInt16>,
                        direction: WritingDirection) throws(TextMeasureError) -> BidiLevels {
        guard let base = text.baseAddress, !text.isEmpty else { return BidiLevels() }
        if direction != .rightToLeft, !isNeeded(text) { return BidiLevels() }
        let mode = switch direction {
        case .natural: CTX_BIDI_AUTO
        case .leftToRight: CTX_BIDI_LTR
        case .rightToLeft: CTX_BIDI_RTL
        }
        var result = BidiLevels()
        result.levels = zeros(text.count)
        // The paragraphs are written to scratch (on the stack when the text is short)
        // and kept at their count, most often one: not two arrays of the text's length.
        try withUnsafeTemporaryAllocation(of: Int32.self, capacity: text.count) { ends throws(TextMeasureError) in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { levels throws(TextMeasureError) in
                guard let endsBase = ends.baseAddress, let levelsBase = levels.baseAddress else { return }
                var error: Int32 = 0
                let count = Int(ctx_bidi_resolve(base, Int32(text.count), Int32(mode), &result.levels, endsBase,
                                                 levelsBase, Int32(text.count), &error))
                guard count >= 0 else { throw .bidiFailed(code: error) }
                result.paragraphEnds.reserveCapacity(count)
                result.paragraphEnds.append(contentsOf: UnsafeBufferPointer(start: endsBase, count: count))
                // One paragraph (most text) shares a constant: not an allocation per text.
                if count == 1, levelsBase[0] <= 1 {
                    result.paragraphLevels = levelsBase[0] == 0 ? Self.leftToRightParagraph : Self.rightToLeftParagraph
                } else {
                    result.paragraphLevels.reserveCapacity(count)
                    result.paragraphLevels.append(contentsOf: UnsafeBufferPointer(start: levelsBase, count: count))
                }
            }
        }
        return result
    }

    private static let leftToRightParagraph: [UInt8] = [0]
    private static let rightToLeftParagraph: [UInt8] = [1]

    /// `count` zeros. Not `Array(repeating:count:)`: that allocates through a generic
    /// entry point of the standard library, which looks the array's type up at run time.
    private static func zeros<T: FixedWidthInteger>(_ count: Int) -> [T] {
        var zeros: [T] = []
        zeros.reserveCapacity(count)
        zeros.append(contentsOf: repeatElement(0, count: count))
        return zeros
    }

    /// Whether some code unit of `text` is right to left (R, AL, AN) or an explicit
    /// control: without one, text in a paragraph that is not right to left keeps no levels.
    package static func isNeeded(_ text: UnsafeBufferPointer<UInt16>) -> Bool {
        guard let base = text.baseAddress else { return false }
        return ctx_bidi_needed(base, Int32(text.count)) != 0
    }

    /// The base level of the paragraph holding UTF-16 offset `offset`.
    package func paragraphLevel(at offset: Int) -> UInt8 {
        // Most text is one paragraph, or left to right throughout: no search.
        if paragraphLevels.count <= 1 { return paragraphLevels.first ?? 0 }
        var low = 0, high = paragraphEnds.count
        while low < high {
            let mid = (low + high) / 2
            if Int(paragraphEnds[mid]) <= offset { low = mid + 1 } else { high = mid }
        }
        return paragraphLevels.isEmpty ? 0 : paragraphLevels[min(low, paragraphLevels.count - 1)]
    }

    /// Rule L2: the visual order of items with `levels` (logical order in, indices
    /// into it out, left to right): see `reorder`.
    package static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = levels.indices.map { Int32($0) }
        levels.withUnsafeBufferPointer { levels in order.withUnsafeMutableBufferPointer { reorder($0, levels: levels) } }
        return order.map(Int.init)
    }

    /// Rule L2 in place: `order` holds indices into `levels` and becomes their visual
    /// order: from the highest level down to the lowest odd one, every maximal run of
    /// items at that level or above is reversed. Placement calls it per line with
    /// scratch it keeps, so it allocates nothing.
    package static func reorder(_ order: UnsafeMutableBufferPointer<Int32>, levels: UnsafeBufferPointer<UInt8>) {
        guard let highest = levels.max(), highest > 0 else { return }
        let lowestOdd = (levels.min() ?? 0) | 1
        var level = highest
        while level >= lowestOdd {
            var start = 0
            while start < order.count {
                guard levels[Int(order[start])] >= level else { start += 1; continue }
                var end = start
                while end < order.count, levels[Int(order[end])] >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
            level -= 1
        }
    }
}
