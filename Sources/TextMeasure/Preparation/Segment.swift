/// The text between two consecutive line-break opportunities, with exactly the
/// widths line fitting needs, in width units (`unitsPerPixel`).
///
/// A segment starts where the previous one ends (the first at offset 0). Its
/// graphemes are `PreparedText`'s grapheme entries from the previous segment's
/// `graphemeEnd` up to its own; those before `contentGraphemeEnd` are its content,
/// the rest are its trailing whitespace.
struct Segment: Equatable {
    /// Width units per pixel: widths are 20.12 fixed point (1/4096 px). Finer than a
    /// browser's 1/64 px layout unit because a browser adds a line's advances in
    /// floating point and rounds once, so a line's width here, summed from its
    /// clusters, must be that exact for the fit decision to come out the same.
    static let unitsPerPixel = 4096

    /// UTF-16 offset just past the segment: a break opportunity.
    var end: Int32
    /// One past the index of the segment's last grapheme.
    var graphemeEnd: Int32
    /// One past the index of its last grapheme that is not trailing whitespace.
    var contentGraphemeEnd: Int32
    /// Width without the trailing whitespace: what the segment adds when it ends a line.
    var width: Int
    /// Width of the trailing spaces, tabs and line-break characters, which hang past
    /// the edge when a line ends after them and count when more follows on the line.
    var trailingWidth: Int
    /// Fonts that draw the segment's content (bit i: `fonts[i]`), for line heights.
    var fonts: UInt64
    /// True when the line must end after this segment (a newline or paragraph separator).
    var isMandatoryBreak: Bool
    /// True when the segment ends with a hyphen whose break exists only in mid-line:
    /// a line that starts with that hyphen keeps it with what follows
    /// (`BrowserTailoring.hyphenHoldsAtLineStart`).
    var endsWithHeldHyphen = false
}
