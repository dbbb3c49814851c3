/// The truncation token, "…", as truncation draws it: measured once at preparation.
struct Ellipsis: Equatable, Sendable {
    /// Its advance, in width units (`Segment.unitsPerPixel`).
    var width: Int
    /// The font in the set that draws it, for the height of a line that shows it.
    var fontIndex: Int

    /// The bit of `fontIndex` in a line's font mask.
    var fontMask: UInt64 { 1 << UInt64(fontIndex) }
}
