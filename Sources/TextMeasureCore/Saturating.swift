extension Int32 {
    /// `value` rounded to the nearest integer and clamped to `Int32`'s range; NaN is 0.
    ///
    /// Widths and heights are computed in `Double` from user-controlled
    /// inputs (font size, line height, a font's own numbers), and `Int(_:)` traps on
    /// NaN, infinity or a value out of range. Kept within 32 bits, any sum over a
    /// text's graphemes or lines (at most 2³¹ of each) stays within `Int`.
    @inlinable @inline(__always)   // per grapheme in preparation: across modules it stayed a call
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Int32.max) {
            self = .max
        } else if value <= Double(Int32.min) {
            self = .min
        } else {
            // Within Int32's range, so roundedToInt is exact: no libm call per grapheme's width.
            self = Int32(truncatingIfNeeded: roundedToInt(value))
        }
    }
}

/// `Int(value.rounded())` (to nearest, ties away from zero) without the libm call
/// that `rounded()` compiles to. Exact for |value| < 2^52: subtracting the
/// truncation leaves the fraction exactly.
/// Always inlined: preparation's measuring loop is large enough that the optimizer
/// otherwise left it a call from another module.
@inlinable @inline(__always)
package func roundedToInt(_ value: Double) -> Int {
    let truncated = Int(value)
    let fraction = value - Double(truncated)
    // Selects rather than branches: which way a width rounds is a coin toss.
    return truncated + (fraction >= 0.5 ? 1 : 0) - (fraction <= -0.5 ? 1 : 0)
}
