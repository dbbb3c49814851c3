extension Double {
    /// The number as a person reads it in a terminal: at most two decimals, no
    /// trailing zeros (`23`, `198.5`, `169.52`). JSON output keeps full precision.
    var readable: String {
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        let rounded = (self * 100).rounded() / 100
        if let whole = Int(exactly: rounded) { return String(whole) }
        return String(rounded)
    }
}
