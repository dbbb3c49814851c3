import CHarfBuzz
import Testing
import TextMeasure
@testable import TextMeasureShaping
@testable import TextMeasurePreparation

/// A long text is prepared window by window (`PreparationBuffers`): each window ends
/// before the first safe break whose stretch would not fit. Whatever the window size,
/// the segments, clusters, widths, fonts, edge adjustments, ligatures and tab stops
/// are those of preparing the text whole, with the shape cache off or on.
@Suite struct WindowedPreparationTests {
    /// Words with ligatures and kerning, right-to-left runs (an Arabic lam-alef
    /// ligature, Hebrew), clusters of marks, Chinese, a tab, soft hyphens, Hangul of two
    /// fonts (safe breaks where they meet) and a newline.
    static let text = String(repeating: "The office affirmed its difficult AVATAR To\u{AD}day, لا سلام عليكم "
        + "שָׁלוֹם עולם e\u{301}\u{302}\u{303} a\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307} "
        + "你好，世界。\tfin\u{AD}ished «quoted». 소녀가 갈꽃을\n", count: 4)

    /// What preparing `utf16` gives, in windows of `unwindowed` code units (whole when nil).
    static func built(_ utf16: [UInt16], fonts: FontSet, style: TextStyle, cache: ShapeCache?,
                      unwindowed: Int?) throws -> BuiltSegments {
        var builder = SegmentBuilder(fonts: fonts, style: style, cache: cache)
        if let unwindowed { builder.longestUnwindowedText = unwindowed }
        try utf16.withUnsafeBufferPointer { buffer in try builder.build(buffer) }
        return builder.takeBuilt()
    }

    /// The most code units between two consecutive safe breaks of `utf16`.
    static func longestUnsafeStretch(_ utf16: [UInt16], fonts: FontSet, style: TextStyle) throws -> Int {
        try utf16.withUnsafeBufferPointer { buffer in
            let breaks = try Boundaries.lineBreaks(in: buffer, rules: style.lineBreakRules, options: style.lineBreakOptions)
            var safe = [Bool](repeating: false, count: breaks.count)
            breaks.withUnsafeBufferPointer { breaks in
                safe.withUnsafeMutableBufferPointer { Stretch.markSafeBreaks(breaks, in: buffer, fonts: fonts, into: $0.baseAddress!) }
            }
            var longest = 0, last = 0
            for (index, opportunity) in breaks.enumerated() where safe[index] {
                longest = max(longest, opportunity.utf16Offset - last)
                last = opportunity.utf16Offset
            }
            return longest
        }
    }

    @Test(arguments: [false, true])
    func windowsGiveWhatTheWholeTextGives(cached: Bool) throws {
        let style = TextStyle(fontSize: 17)
        let fonts = FontSet.default.instances(for: style)
        let utf16 = Array(Self.text.utf16)
        // Windows are cut at safe breaks: the text must have many, or it would be one window.
        #expect(try Self.longestUnsafeStretch(utf16, fonts: fonts, style: style) < 80)
        let whole = try Self.built(utf16, fonts: fonts, style: style, cache: cached ? ShapeCache(capacity: 1024) : nil,
                                   unwindowed: nil)
        #expect(!whole.ligatures.spans.isEmpty)   // the lam-alef, right to left
        #expect(!whole.bidi.isLeftToRight)
        // Every window size up to the text's length: a window's end falls inside every
        // word, ligature, right-to-left run and cluster of marks of the text in turn.
        for unwindowed in stride(from: 1, through: utf16.count, by: 1) {
            let windowed = try Self.built(utf16, fonts: fonts, style: style,
                                          cache: cached ? ShapeCache(capacity: 1024) : nil, unwindowed: unwindowed)
            #expect(windowed.segments == whole.segments, "window \(unwindowed)")
            #expect(windowed.graphemeEnds == whole.graphemeEnds, "window \(unwindowed)")
            #expect(windowed.graphemeWidths == whole.graphemeWidths, "window \(unwindowed)")
            #expect(windowed.graphemeFonts == whole.graphemeFonts, "window \(unwindowed)")
            #expect(windowed.graphemeHangs == whole.graphemeHangs, "window \(unwindowed)")
            #expect(windowed.edgeAdjustments == whole.edgeAdjustments, "window \(unwindowed)")
            #expect(windowed.ligatures == whole.ligatures, "window \(unwindowed)")
            #expect(windowed.tabStops == whole.tabStops, "window \(unwindowed)")
            #expect(windowed.hasSoftHyphens == whole.hasSoftHyphens, "window \(unwindowed)")
        }
    }

    /// The same through `PreparedText`, for text longer than a window at the default size.
    @Test func aTextLongerThanAWindowLaysOutAsItsPieces() throws {
        let paragraph = String(repeating: "The office affirmed its difficult AVATAR. ", count: 1 + PreparationBuffers.longestUnwindowedText / 40)
        let style = TextStyle(fontSize: 17)
        let fonts = FontSet.default.instances(for: style)
        let utf16 = Array(paragraph.utf16)
        #expect(utf16.count > PreparationBuffers.longestUnwindowedText)
        let windowed = try Self.built(utf16, fonts: fonts, style: style, cache: nil, unwindowed: nil)
        let whole = try Self.built(utf16, fonts: fonts, style: style, cache: nil, unwindowed: utf16.count)
        #expect(windowed.segments == whole.segments)
        #expect(windowed.graphemeWidths == whole.graphemeWidths)
        #expect(windowed.edgeAdjustments == whole.edgeAdjustments)
    }
}
