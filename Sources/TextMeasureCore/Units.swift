/// The library's two integer length units, so that every width and height is exact
/// and the same on every machine.
@usableFromInline   // so that other stages inline the constants (see decisions.md)
package enum Units {
    /// Width units per pixel: widths are 16.16 fixed point (1/65536 px), the precision
    /// of Blink's glyph advances. Much finer than a browser's 1/64 px layout unit,
    /// because a browser adds a line's advances at that precision and rounds once:
    /// a line's width here, summed from its clusters, must be as exact for the fit
    /// decision to come out the same. Cluster widths (Int32) reach 32,767 px.
    @inlinable package static var widthPerPixel: Int { 65536 }

    /// Layout units per pixel: heights (line boxes, stacked lines) and the width a line
    /// must fit in are Blink's `LayoutUnit`, 1/64 px.
    @inlinable package static var layoutPerPixel: Int { 64 }

    /// Width units per layout unit.
    @inlinable package static var widthPerLayoutUnit: Int { widthPerPixel / layoutPerPixel }
}
