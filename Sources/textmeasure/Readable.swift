extension Double {
    /// A width as the CLI prints it, in text and JSON alike: rounded to 0.01 px.
    /// Widths are exact sums of 1/65536 px (95.72700500488281 px); a hundredth of a
    /// pixel is finer than any display's pixel and reads at a glance, and the exact
    /// value is the library's (`TextLayout.Line.width`). Heights and sizes are whole
    /// device pixels already.
    var printedWidth: Double { isFinite ? (self * 100).rounded() / 100 : self }

    /// The number as a person reads it in a terminal: at most two decimals, no
    /// trailing zeros (`23`, `198.49`, `169.5`).
    var readable: String {
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        let rounded = printedWidth
        if let whole = Int(exactly: rounded) { return String(whole) }
        return String(rounded)
    }
}
