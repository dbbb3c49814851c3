/// The text between two consecutive line-break opportunities, with exactly the
/// widths line fitting needs. Widths are in 1/64 px (26.6 fixed point).
///
/// A segment starts where the previous one ends (the first at offset 0). Its
/// graphemes are `PreparedText`'s grapheme entries from the previous segment's
/// `graphemeEnd` up to its own; those before `contentGraphemeEnd` are its content,
/// the rest are its trailing whitespace.
///
/// 40 bytes (the fields are ordered largest first so that none is padded).
struct Segment: Equatable {
    /// Width without the trailing whitespace: what the segment adds when it ends a line.
    var width: Int
    /// Width of the trailing spaces, tabs and line-break characters, which hang past
    /// the edge when a line ends after them and count when more follows on the line.
    var trailingWidth: Int
    /// Fonts that draw the segment's content (bit i: `fonts[i]`), for line heights.
    var fonts: UInt64
    /// UTF-16 offset just past the segment: a break opportunity.
    var end: Int32
    /// One past the index of the segment's last grapheme.
    var graphemeEnd: Int32
    /// One past the index of its last grapheme that is not trailing whitespace.
    var contentGraphemeEnd: Int32
    /// True when the line must end after this segment (a newline or paragraph separator).
    var isMandatoryBreak: Bool
}
