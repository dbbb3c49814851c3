/// The height of a line.
public enum LineHeight: Sendable, Hashable {
    /// The fonts' own spacing, as CSS `line-height: normal` computes it: the primary
    /// font's ascent, descent and line gap, each rounded to whole pixels, with the
    /// line gap split above and below; a line that uses a fallback font grows to
    /// hold that font's rounded ascent and descent too.
    case normal
    /// Every line is exactly this many pixels tall (CSS `line-height: <px>`).
    case fixed(Double)
    /// A multiple of the primary font's normal line height (TextKit's
    /// `lineHeightMultiple`; note this is not CSS's unitless multiple of the font size).
    case multiple(Double)
}
