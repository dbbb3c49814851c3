/// The text between two consecutive line-break opportunities, with exactly the
/// widths line fitting needs, in width units (`unitsPerPixel`).
///
/// A segment starts where the previous one ends (the first at offset 0). Its
/// graphemes are `PreparedText`'s grapheme entries from the previous segment's
/// `graphemeEnd` up to its own; those before `contentGraphemeEnd` are its content,
/// the rest are its trailing whitespace.
///
/// 40 bytes (the fields are ordered largest first so that none is padded).
struct Segment: Equatable {
    /// Width units per pixel: widths are 16.16 fixed point (1/65536 px), the precision
    /// of Blink's glyph advances. Much finer than a browser's 1/64 px layout unit,
    /// because a browser adds a line's advances at that precision and rounds once:
    /// a line's width here, summed from its clusters, must be as exact for the fit
    /// decision to come out the same. Cluster widths (Int32) reach 32,767 px.
    static let unitsPerPixel = 65536

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
    /// True when the segment ends with a hyphen whose break exists only in mid-line:
    /// a line that starts with that hyphen keeps it with what follows
    /// (`BrowserTailoring.hyphenHoldsAtLineStart`).
    var endsWithHeldHyphen: Bool
    /// True when the segment ends with a soft hyphen (U+00AD): a line ending after it
    /// shows a hyphen (`PreparedText.hyphen`), which must fit too.
    var endsWithSoftHyphen: Bool
}
