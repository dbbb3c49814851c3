/// Why a measurement could not be made. Fonts have their own `FontError`.
public enum TextMeasureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The font size is not a finite number in `TextStyle.fontSizeRange`.
    case invalidFontSize(Double)
    /// A fixed or multiplied line height that is not finite, positive and at most `TextStyle.maximumLineHeight`.
    case invalidLineHeight(Double)
    /// A tab size outside `TextStyle.tabSizeRange`.
    case invalidTabSize(Int)
    /// A width that cannot be laid out at: NaN, infinite or negative.
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
    /// A language tag that is not BCP 47 (`TextStyle.language`).
    case invalidLanguage(String)

    public var description: String {
        switch self {
        case .invalidFontSize(let size): "invalid font size \(size): must be finite and within \(TextStyle.fontSizeRange)"
        case .invalidLineHeight(let value): "invalid line height \(value): must be finite, positive and at most \(TextStyle.maximumLineHeight)"
        case .invalidTabSize(let size): "invalid tab size \(size): must be within \(TextStyle.tabSizeRange)"
        case .invalidWidth(let width): "invalid width \(width): must be finite and not negative"
        case .invalidInset(let name, let value): "invalid \(name) \(value): must be finite and within \(TextContainer.insetRange)"
        case .invalidOption(let name, let value): "invalid \(name) \(value): must be finite and not negative"
        case .invalidUTF8(let offset): "text is not valid UTF-8: invalid byte sequence at byte \(offset)"
        case .textTooLong(let count): "text too long: \(count) UTF-16 code units, at most \(PreparedText.maximumUTF16Count)"
        case .segmentationFailed(let code): "ICU segmentation failed with error \(code)"
        case .invalidLanguage(let tag): "invalid language tag \"\(tag)\": must be BCP 47, such as \"en-US\" or \"de\""
        }
    }
}
