/// The text between two consecutive line-break opportunities, with exactly the
/// widths line fitting needs, in width units (`Units.widthPerPixel`).
///
/// A segment starts where the previous one ends (the first at offset 0). Its
/// graphemes are `PreparedText`'s grapheme entries from the previous segment's
/// `graphemeEnd` up to its own; those before `contentGraphemeEnd` are its content,
/// the rest are its trailing whitespace.
///
/// 40 bytes (the fields are ordered largest first so that none is padded).
@usableFromInline   // read through PreparedText's inlined accessors
package struct Segment: Equatable, Sendable {
    /// Width without the trailing whitespace: what the segment adds when it ends a line.
    package var width: Int
    /// Width of the trailing spaces, tabs and line-break characters, which hang past
    /// the edge when a line ends after them and count when more follows on the line.
    package var trailingWidth: Int
    /// Fonts that draw the segment's content (bit i: `fonts[i]`), for line heights.
    package var fonts: UInt64
    /// UTF-16 offset just past the segment: a break opportunity.
    package var end: Int32
    /// One past the index of the segment's last grapheme.
    package var graphemeEnd: Int32
    /// One past the index of its last grapheme that is not trailing whitespace.
    package var contentGraphemeEnd: Int32
    /// True when the line must end after this segment (a newline or paragraph separator).
    package var isMandatoryBreak: Bool
    /// True when the segment ends with a hyphen whose break exists only in mid-line:
    /// a line that starts with that hyphen keeps it with what follows
    /// (`BrowserTailoring.hyphenHoldsAtLineStart`).
    package var endsWithHeldHyphen: Bool
    /// True when the segment ends with a soft hyphen (U+00AD): a line ending after it
    /// shows a hyphen (`PreparedText.hyphen`), which must fit too.
    package var endsWithSoftHyphen: Bool
    /// True when a line ending after the segment, or starting with it, changes width:
    /// punctuation trimming (`PunctuationTrim`), in `PreparedText.edgeAdjustments` at the
    /// segment's last grapheme of content (`end`) and at the one before its first (`start`).
    package var trimsAtLineEdge = false
}
