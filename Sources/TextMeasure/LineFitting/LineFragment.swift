/// Why a line ended where it did.
public enum LineEnd: String, Sendable, Hashable {
    /// At a soft break opportunity, because the next segment did not fit.
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
struct LineFragment: Equatable {
    var start: Int
    var end: Int
    /// Width of the line's content, without trailing whitespace that hangs.
    var width: Int
    /// Fonts used on the line (bit i: `fonts[i]`), for its height.
    var fonts: UInt64
    var lineEnd: LineEnd
}
