import Synchronization

/// One style of an `AttributedText` (a run's, or the base style), with what preparing
/// and drawing text in it needs that does not depend on the text: the style and fonts,
/// the features it is shaped with and their shaper, and its shape cache key.
///
/// Made once for each base style, base font set and run attributes, and kept
/// (`styles(of:normalBoxes:)`): the texts of a chat repeat a few styles (a mention, a code span),
/// and making these for every text (the style copied, the features parsed, the key
/// written and hashed) cost about a tenth of preparing a short styled text.
final class StyledRunStyle: Sendable {
    let style: TextStyle
    let fonts: FontSet
    /// The features shaped with (`StyledSegmentBuilder.features(of:)`) and their shaper.
    let features: [String]
    let shaper: Shaper
    let placeholder: InlinePlaceholder?
    /// The box each of its fonts gives a line (`StyledSegmentBuilder.box(of:style:fonts:)`).
    let boxes: [LineBox]
    /// The base style's: the slots every text of it starts with (`StyledSegmentBuilder.baseSlots`).
    let slots: [StyledSegmentBuilder.Slot]
    let slotKeys: [StyledSegmentBuilder.SlotKey]
    /// The key the style's segments have in the shape cache (`StyledSegmentCache`) and its hash.
    let cacheKey: [UInt16]
    let cacheKeyHash: UInt64

    /// What it was made from, compared when it is looked for: a run's attributes
    /// (fonts by identity; all nil for the base style), the base style and fonts.
    private let runFonts: UInt64?
    private let fontSize, letterSpacing, wordSpacing: Double?
    private let fontFeatures: [String]?
    private let language: String?
    private let isRun: Bool
    private let base: TextStyle
    private let baseFonts: UInt64

    private init(_ attributed: AttributedText, run index: Int?, normalBoxes: [LineBox]) {
        let run = index.map { attributed.runs[$0] }
        let (style, fonts) = attributed.style(of: run)
        self.style = style
        self.fonts = fonts
        features = StyledSegmentBuilder.features(of: style)
        shaper = Shaper(features: features)
        placeholder = run?.attributes.placeholder
        boxes = fonts.fonts.map { StyledSegmentBuilder.box(of: $0, style: style, fonts: fonts) }
        (slots, slotKeys) = index == nil
            ? StyledSegmentBuilder.baseSlots(style: style, fonts: fonts, normalBoxes: normalBoxes) : ([], [])
        cacheKey = StyledSegmentCache.key(style: style, fonts: fonts, base: (attributed.style, attributed.fonts))
        cacheKeyHash = cacheKey.withUnsafeBufferPointer { ShapedSegmentKey.hash($0) }
        runFonts = run?.attributes.fonts?.identity
        fontSize = run?.attributes.fontSize
        letterSpacing = run?.attributes.letterSpacing
        wordSpacing = run?.attributes.wordSpacing
        fontFeatures = run?.attributes.fontFeatures
        language = run?.attributes.language
        isRun = run != nil
        base = attributed.style
        baseFonts = attributed.fonts.identity
    }

    /// Whether this is the style of run `index` of `attributed` (nil: its base style).
    /// Each attribute is read in place: a run or style copied retains each of its arrays and strings.
    private func matches(_ attributed: AttributedText, run index: Int?) -> Bool {
        guard baseFonts == attributed.fonts.identity, isRun == (index != nil) else { return false }
        if let index {
            guard fontSize == attributed.runs[index].attributes.fontSize,
                  letterSpacing == attributed.runs[index].attributes.letterSpacing,
                  wordSpacing == attributed.runs[index].attributes.wordSpacing,
                  placeholder == attributed.runs[index].attributes.placeholder,
                  runFonts == attributed.runs[index].attributes.fonts?.identity,
                  fontFeatures == attributed.runs[index].attributes.fontFeatures,
                  language == attributed.runs[index].attributes.language else { return false }
        }
        return base == attributed.style
    }

    /// The styles kept, the last used last.
    private static let kept = Mutex<[StyledRunStyle]>([])
    static let capacity = 64

    /// The style of each run of `attributed`, then the base style's, kept or made
    /// (`normalBoxes`: the base fonts' boxes as plain text has them).
    static func styles(of attributed: AttributedText, normalBoxes: [LineBox]) -> [StyledRunStyle] {
        kept.withLock { kept in
            func style(_ run: Int?) -> StyledRunStyle {
                var index = kept.count - 1
                while index >= 0, !kept[index].matches(attributed, run: run) { index -= 1 }
                if index >= 0 { return kept[index] }
                let made = StyledRunStyle(attributed, run: run, normalBoxes: normalBoxes)
                if kept.count >= capacity { kept.removeFirst() }
                kept.append(made)
                return made
            }
            var styles: [StyledRunStyle] = []
            styles.reserveCapacity(attributed.runs.count + 1)
            for run in attributed.runs.indices { styles.append(style(run)) }
            styles.append(style(nil))
            return styles
        }
    }
}
