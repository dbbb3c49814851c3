/// Why a line ended where it did.
public enum LineEnd: String, Sendable, Hashable {
    /// At a soft break opportunity, because what follows did not fit: between
    /// words, or with `.byCharWrapping` between any grapheme clusters.
    case softBreak
    /// After a newline or paragraph separator.
    case mandatoryBreak
    /// Inside a word too long for an empty line, at a grapheme-cluster boundary
    /// (CSS `overflow-wrap: break-word`).
    case emergencyBreak
    /// At the end of the text.
    case endOfText
}

/// One line as line fitting produces it: a UTF-16 range and its width in width units.
package struct LineFragment: Equatable {
    package var start: Int
    var end: Int
    /// Width of the line as drawn: its content without trailing whitespace that
    /// hangs, and the ellipsis if it has one.
    var width: Int
    /// Fonts used on the line (bit i: `fonts[i]`), for its height.
    var fonts: UInt64
    var lineEnd: LineEnd
    /// For a truncated line, the UTF-16 range of its text that "…" replaces
    /// (empty when the ellipsis only marks that text after the line is hidden).
    var elided: Range<Int>? = nil
    /// Whether the line ends at a soft hyphen and shows a hyphen there (counted in `width`).
    var hyphenated = false
    /// Whether `text-wrap: balance` or `pretty` chose this line's breaks rather than greedy.
    var rewrapped = false
}
