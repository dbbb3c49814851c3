/// Vertical metrics of a font, in font units, read from the font's tables
/// (not FreeType's size metrics, which are rounded to whole pixels).
///
/// Ascent, descent and line gap come from the `hhea` table, or from the OS/2
/// typographic values when the font sets `USE_TYPO_METRICS`, as browsers do (and,
/// when hhea has neither ascender nor descender, as FreeType falls back).
public struct FontMetrics: Sendable, Hashable {
    /// Units per em of the outlines.
    public var unitsPerEm: Int
    /// Distance from the baseline to the top of the line, positive up.
    public var ascent: Int
    /// Distance from the baseline to the bottom of the line, positive down.
    public var descent: Int
    /// Extra space between lines recommended by the font.
    public var lineGap: Int

    /// The metrics in pixels at `size`, each rounded to whole pixels as browsers
    /// round them before building line boxes.
    package func roundedPixels(at size: Double) -> (ascent: Int, descent: Int, lineGap: Int) {
        let scale = size / Double(unitsPerEm)
        return (roundedToInt(Double(ascent) * scale), roundedToInt(Double(descent) * scale),
                roundedToInt(Double(lineGap) * scale))
    }
}
