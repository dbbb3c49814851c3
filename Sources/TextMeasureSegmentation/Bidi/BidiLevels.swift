import CTextICU

/// The embedding levels of a text (UAX #9, through ICU's ubidi): what preparation
/// splits shaping runs at and what placement reorders lines by.
///
/// Text that needs no reordering (every level 0: no right-to-left characters or
/// explicit controls in left-to-right paragraphs) is the common case and is kept
/// as empty arrays, so plain text pays one scan and no ICU call.
@usableFromInline   // read through PreparedText's inlined accessors
package struct BidiLevels: Sendable, Equatable {
    /// Every code unit's level, unless they are all one (`uniform`): most right-to-left
    /// text is one level throughout, and an array per text was an allocation per text.
    /// Empty for left-to-right text too.
    @usableFromInline var stored: [UInt8] = []
    /// With `stored` empty: how many code units have the level `uniformValue` (0 for
    /// left-to-right text, which keeps no levels).
    @usableFromInline var uniformCount = 0
    @usableFromInline var uniformValue: UInt8 = 0
    /// Each paragraph's end offset, unless there is one (it ends at the text's end):
    /// not an allocation for most text either.
    private var storedEnds: [Int32] = []
    /// Each paragraph's base level (0 left to right, 1 right to left); empty when every
    /// paragraph is left to right.
    package private(set) var paragraphLevels: [UInt8] = []

    /// The level of every UTF-16 code unit, rule L1 applied at paragraph ends and
    /// before tabs; empty when every level is 0. Made for the asking when the levels
    /// are all one: hot paths take `withLevels` or `uniformLevel`.
    @inlinable package var levels: [UInt8] {
        uniformCount > 0 ? Array(repeating: uniformValue, count: uniformCount) : stored
    }

    /// The levels kept, borrowed in place: empty for left-to-right text and for levels
    /// kept as one (`uniformLevel`).
    @inlinable package var keptLevels: [UInt8] { _read { yield stored } }

    /// Each paragraph's end offset (UTF-16); empty when every paragraph is left to right.
    package var paragraphEnds: [Int32] {
        storedEnds.isEmpty && !paragraphLevels.isEmpty ? [Int32(count)] : storedEnds
    }

    /// The number of code units with a level: the text's length, or 0 for left-to-right text.
    @inlinable package var count: Int { uniformCount > 0 ? uniformCount : stored.count }

    /// True when nothing is reordered: one left-to-right level throughout.
    @inlinable package var isLeftToRight: Bool { stored.isEmpty && uniformCount == 0 }

    /// The level of every code unit when they all have the same (a right-to-left text
    /// of one paragraph, most of all), else nil: preparation then gives each shaping run
    /// that level, with no look at its clusters' (`SegmentBuilder`). Nil for left-to-right
    /// text, which keeps no levels.
    @inlinable package var uniformLevel: UInt8? { uniformCount > 0 ? uniformValue : nil }

    /// No levels: left-to-right text that needed no resolution.
    package init() {}

    /// The levels `levels` (one per code unit; empty for left-to-right text) of
    /// paragraphs ending at `paragraphEnds` with base levels `paragraphLevels`.
    package init(levels: [UInt8], paragraphEnds: [Int32], paragraphLevels: [UInt8]) {
        let uniform = levels.withUnsafeBufferPointer { Self.uniformLevel(of: $0) }
        if let uniform {
            (uniformCount, uniformValue) = (levels.count, uniform)
        } else {
            stored = levels
        }
        storedEnds = paragraphEnds.count == 1 && Int(paragraphEnds[0]) == levels.count ? [] : paragraphEnds
        self.paragraphLevels = paragraphLevels
    }

    /// Lends `body` the level of every code unit (empty for left-to-right text): the
    /// kept array, or the one level written into temporary memory (on the stack when
    /// the text is short). Inlined, so that it is specialized where it is called.
    @inlinable @inline(__always) package func withLevels<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Locals, so that the closures capture no copy of `self` (a retain of each array).
        let count = uniformCount, level = uniformValue
        guard count > 0 else { return try stored.withUnsafeBufferPointer { levels throws(Failure) in try body(levels) } }
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { levels throws(Failure) in
            levels.initialize(repeating: level)
            return try body(UnsafeBufferPointer(levels))
        }
    }

    /// Compared as what they say, whichever way they are kept.
    @usableFromInline package static func == (left: BidiLevels, right: BidiLevels) -> Bool {
        left.levels == right.levels && left.paragraphEnds == right.paragraphEnds
            && left.paragraphLevels == right.paragraphLevels
    }

    /// The one level of all of `levels`, or nil when they differ or there are none.
    private static func uniformLevel(of levels: UnsafeBufferPointer<UInt8>) -> UInt8? {
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
        // Levels and paragraphs are written to scratch (on the stack when the text is
        // short) and kept only when they say more than one level and one paragraph.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { unitLevels throws(TextMeasureError) in
          try withUnsafeTemporaryAllocation(of: Int32.self, capacity: text.count) { ends throws(TextMeasureError) in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { levels throws(TextMeasureError) in
                guard let unitBase = unitLevels.baseAddress, let endsBase = ends.baseAddress,
                      let levelsBase = levels.baseAddress else { return }
                var error: Int32 = 0
                let count = Int(ctx_bidi_resolve(base, Int32(text.count), Int32(mode), unitBase, endsBase,
                                                 levelsBase, Int32(text.count), &error))
                guard count >= 0 else { throw .bidiFailed(code: error) }
                let resolved = UnsafeBufferPointer(start: unitBase, count: text.count)
                if let uniform = uniformLevel(of: resolved) {
                    (result.uniformCount, result.uniformValue) = (text.count, uniform)
                } else {
                    result.stored = Array(resolved)
                }
                // One paragraph (most text) ends at the text's end and shares a constant level array.
                if count == 1, levelsBase[0] <= 1 {
                    result.paragraphLevels = levelsBase[0] == 0 ? Self.leftToRightParagraph : Self.rightToLeftParagraph
                } else {
                    result.storedEnds = Array(UnsafeBufferPointer(start: endsBase, count: count))
                    result.paragraphLevels = Array(UnsafeBufferPointer(start: levelsBase, count: count))
                }
            }
          }
        }
        return result
    }

    private static let leftToRightParagraph: [UInt8] = [0]
    private static let rightToLeftParagraph: [UInt8] = [1]

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
        var low = 0, high = storedEnds.count
        while low < high {
            let mid = (low + high) / 2
            if Int(storedEnds[mid]) <= offset { low = mid + 1 } else { high = mid }
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
