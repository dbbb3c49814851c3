/// The bounds of what the library accepts. They live in the first stage so that
/// `TextMeasureError`, which names them, and the later types that check them and
/// publish them (`TextStyle.fontSizeRange`, `TextContainer.insetRange`,
/// `PreparedText.maximumUTF16Count`, ...) state the same numbers.
package enum Limits {
    /// Font sizes, in pixels.
    package static let fontSize: ClosedRange<Double> = 0.01...10_000
    /// Tab sizes, in spaces.
    package static let tabSize: ClosedRange<Int> = 0...1000
    /// The largest fixed line height (px) or line height multiple.
    package static let maximumLineHeight = 1_000_000.0
    /// Insets and line fragment padding, in pixels: bounded so that a size (text plus
    /// insets) is always a finite number.
    package static let inset: ClosedRange<Double> = 0...1_000_000
    /// The longest text, in UTF-16 code units (offsets are kept in 32 bits).
    package static let maximumUTF16Count = Int(Int32.max) - 1
}
