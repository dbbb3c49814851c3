extension Int32 {
    /// `value` rounded to the nearest integer and clamped to `Int32`'s range; NaN is 0.
    ///
    /// Widths and heights are computed in `Double` from user-controlled
    /// inputs (font size, line height, a font's own numbers), and `Int(_:)` traps on
    /// NaN, infinity or a value out of range. Kept within 32 bits, any sum over a
    /// text's graphemes or lines (at most 2³¹ of each) stays within `Int`.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Int32.max) {
            self = .max
        } else if value <= Double(Int32.min) {
            self = .min
        } else {
            self = Int32(value.rounded())
        }
    }
}
