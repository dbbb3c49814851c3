/// What happens to a line too long for its container: TextKit's `NSLineBreakMode`.
///
/// With `TextContainer.maximumNumberOfLines` (0 = no limit) the modes combine as
/// `NSTextContainer` combines them:
///
/// | Mode | No line limit | A limit of N lines, text left over |
/// |---|---|---|
/// | `byWordWrapping` | wraps between words | N lines, the rest dropped |
/// | `byCharWrapping` | wraps between any grapheme clusters | N lines, the rest dropped |
/// | `byClipping` | one line per paragraph, however wide | the first N paragraphs |
/// | `byTruncating…` | one line per paragraph, each shortened with "…" to fit | N − 1 lines wrapped between words, then the rest of that paragraph on one line, shortened with "…" |
///
/// Truncation cuts between grapheme clusters, never inside one, and drops the
/// spaces next to the ellipsis. The ellipsis (U+2026) is measured on its own, in
/// the first font of the set that covers it, as TextKit measures its truncation
/// token. Every truncated line fits the width, ellipsis included, unless the
/// width is narrower than the ellipsis itself, which is then shown alone.
///
/// With a line limit, `byTruncatingTail` ends the last line with "…" whenever
/// text after it is hidden, even when its own paragraph fits (so that a preview
/// always says it continues). `byTruncatingHead` and `byTruncatingMiddle` shorten
/// the last line only when its paragraph does not fit; text hidden after it shows
/// only in `TextLayout.isTruncated`.
///
/// ```swift
/// let container = TextContainer(lineBreakMode: .byTruncatingTail, maximumNumberOfLines: 2)
/// let preview = try TextMeasurer(text: message, container: container).layout(width: 280)
/// preview.lines.last?.displayText   // the second line, ending in "…" if the message goes on
/// preview.isTruncated                // whether any of the message is hidden
/// ```
///
/// The raw values are the command line's and the batch format's names.
public enum LineBreakMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Wrap between words; a word too long for a line breaks between grapheme
    /// clusters (CSS `overflow-wrap: break-word`). The default.
    case byWordWrapping = "word"
    /// Wrap before the first grapheme cluster that does not fit, inside words too.
    /// Spaces and tabs still hang at the end of a line and never start one.
    case byCharWrapping = "char"
    /// No soft wrapping: each paragraph is one line, which may be wider than the
    /// container (a renderer clips it at the edge).
    case byClipping = "clip"
    /// Show the end of the line, with "…" in place of its beginning.
    case byTruncatingHead = "truncate-head"
    /// Show the beginning and the end of the line, with "…" in place of its middle.
    case byTruncatingMiddle = "truncate-middle"
    /// Show the beginning of the line, with "…" in place of its end.
    case byTruncatingTail = "truncate-tail"

    /// The character that stands for truncated text: U+2026 HORIZONTAL ELLIPSIS.
    public static let ellipsis: Unicode.Scalar = Ellipsis.character

    /// Where a truncating mode puts the ellipsis; nil for the other modes.
    var truncation: LineTruncator.Position? {
        switch self {
        case .byTruncatingHead: .head
        case .byTruncatingMiddle: .middle
        case .byTruncatingTail: .tail
        case .byWordWrapping, .byCharWrapping, .byClipping: nil
        }
    }
}
