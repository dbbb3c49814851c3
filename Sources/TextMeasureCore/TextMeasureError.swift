/// Why a measurement could not be made. Fonts have their own `FontError`.
public enum TextMeasureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The font size is not a finite number in `TextStyle.fontSizeRange`.
    case invalidFontSize(Double)
    /// A fixed or multiplied line height that is not finite, positive and at most `TextStyle.maximumLineHeight`.
    case invalidLineHeight(Double)
    /// A font feature setting HarfBuzz cannot parse (`hb_feature_from_string`), such as `"nonsense!!"`.
    case invalidFontFeature(String)
    /// A tab size outside `TextStyle.tabSizeRange`.
    case invalidTabSize(Int)
    /// A width that cannot be laid out at: NaN, infinite or negative; or, for a size, 0.
    case invalidWidth(Double)
    /// An inset or line fragment padding outside `TextContainer.insetRange`.
    case invalidInset(name: String, value: Double)
    /// An option with a value it cannot take (a negative line limit, a wrong count).
    case invalidOption(name: String, value: Double)
    /// Text given as bytes is not valid UTF-8; `byteOffset` is where the first invalid sequence starts.
    case invalidUTF8(byteOffset: Int)
    /// The text is longer than `PreparedText.maximumUTF16Count` UTF-16 code units.
    case textTooLong(utf16Count: Int)
    /// ICU failed to segment the text; `code` is ICU's `UErrorCode`.
    case segmentationFailed(code: Int32)
    /// An edit's range (`PreparedText.replacingCharacters`), in UTF-16 offsets, is not
    /// within the text or splits a surrogate pair; -1..<-1 for string indices outside the
    /// text or inside a scalar.
    case invalidEditRange(utf16Offsets: Range<Int>)
    /// A language tag that is not BCP 47 (`TextStyle.language`).
    case invalidLanguage(String)
    /// The font set holds no fonts: `FontSet.default` of a build without the `EmbeddedFonts` trait.
    case noFonts
    /// Letter or word spacing (`name`) that is not finite or outside `Limits.spacing`.
    case invalidSpacing(name: String, value: Double)
    /// A styled run of an `AttributedText` that cannot be applied: `index` is its place
    /// among the runs, `reason` says what is wrong (out of range, overlapping, …).
    case invalidRun(index: Int, reason: String)
    /// More distinct fonts and sizes in one styled text than a line's 64-bit font mask holds.
    case tooManyRunFonts(count: Int)
    /// ICU failed to resolve the text's bidi levels; `code` is ICU's `UErrorCode`.
    case bidiFailed(code: Int32)

    public var description: String {
        switch self {
        case .invalidFontSize(let size): "invalid font size \(size): must be finite and within \(Limits.fontSize)"
        case .invalidLineHeight(let value): "invalid line height \(value): must be finite, positive and at most \(Limits.maximumLineHeight)"
        case .invalidFontFeature(let feature): "invalid font feature \"\(feature)\": not a HarfBuzz feature setting such as \"-liga\", \"+tnum\" or \"ss01=1\""
        case .invalidTabSize(let size): "invalid tab size \(size): must be within \(Limits.tabSize)"
        // Layout takes a width of 0; only a size (sizeThatFits, a case) refuses it.
        case .invalidWidth(let width) where width == 0: "invalid width 0: must be greater than 0 (there is nothing to wrap against)"
        case .invalidWidth(let width): "invalid width \(width): must be finite and not negative"
        case .invalidInset(let name, let value): "invalid \(name) \(value): must be finite and within \(Limits.inset)"
        case .invalidOption(let name, let value): "invalid \(name) \(value): must be finite and not negative"
        case .invalidUTF8(let offset): "text is not valid UTF-8: invalid byte sequence at byte \(offset)"
        case .textTooLong(let count): "text too long: \(count) UTF-16 code units, at most \(Limits.maximumUTF16Count)"
        case .segmentationFailed(let code): "ICU segmentation failed with error \(code)"
        case .invalidSpacing(let name, let value): "invalid \(name) \(value): must be finite and within \(Limits.spacing)"
        case .invalidRun(let index, let reason): "invalid run \(index): \(reason)"
        case .tooManyRunFonts(let count): "too many fonts in one styled text: \(count) distinct fonts and sizes, at most 64"
        case .invalidEditRange(let range): "invalid edit range \(range): must lie within the text, on Unicode scalar boundaries"
        case .invalidLanguage(let tag): "invalid language tag \"\(tag)\": must be BCP 47, such as \"en-US\" or \"de\""
        case .noFonts: "no fonts: TextMeasure was built without its embedded fonts (the EmbeddedFonts trait is off), so the default font set is empty; give a font set of your own (the CLI: --font FILE)"
        case .bidiFailed(let code): "ICU bidi resolution failed with error \(code)"
        }
    }
}
