/// What a segment builder (`SegmentBuilder` for plain text, `StyledSegmentBuilder` for
/// styled text) gives `PreparedText`: the segments, each grapheme cluster's end, width,
/// font and whether it hangs, the line-edge adjustments, tab stops, bidi levels and
/// right-to-left ligatures. One type, so that the two builders and their readers
/// (preparation, editing) name the same fields.
struct BuiltSegments {
    var segments: [Segment] = []
    var graphemeEnds: [Int32] = []
    var graphemeWidths: [Int32] = []
    var graphemeFonts: [UInt8] = []
    var graphemeHangs: [Bool] = []
    var edgeAdjustments = EdgeAdjustments()
    var tabStops = TabStops.none
    /// Whether some segment ends at a soft hyphen or hyphenation point.
    var hasSoftHyphens = false
    var bidi = BidiLevels()
    var ligatures = LigatureSpans()

    /// Everything, moved out: left empty, so that no array is retained by a copy and
    /// released again when the builder ends.
    mutating func takeAll() -> BuiltSegments {
        var taken = BuiltSegments()
        swap(&taken, &self)
        return taken
    }
}
