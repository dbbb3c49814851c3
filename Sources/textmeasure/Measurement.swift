import TextMeasure

/// A text measured at a proposed width with the layout options: what `measure`
/// reports and `explain` tells.
struct Measurement {
    /// The size and the lines at a usable width.
    struct Fit {
        /// `sizeThatFits` at the proposed width.
        var size: Size
        /// The lines at the proposed width.
        var layout: TextLayout
    }

    let text: String
    let options: MeasureOptions
    let measurer: TextMeasurer
    /// The proposed width (`--width`), usable or not.
    let proposedWidth: Double
    /// The answer at the proposed width; nil when that width is not usable
    /// (zero, negative, NaN or infinite), as `sizeThatFits` gives none.
    let fit: Fit?

    /// Reads `--width W`, the layout options and the text from `arguments`, and
    /// measures the text at that width.
    static func parse(_ arguments: inout Arguments) throws(CLIError) -> Measurement {
        guard let width = try arguments.number("--width") else { throw .usage("--width W is required") }
        let options = try MeasureOptions.parse(&arguments)
        let text = try TextInput.read(try arguments.positionals())
        let measurer = try options.measurer(for: text)
        var fit: Fit?
        if let size = measurer.sizeThatFits(ProposedSize(width: width)) {
            do { fit = Fit(size: size, layout: try measurer.layout(width: width)) } catch { throw .input(error.description) }
        }
        return Measurement(text: text, options: options, measurer: measurer, proposedWidth: width, fit: fit)
    }

    /// Why a width gives no size.
    static func unusable(width: Double) -> String {
        "width \(width.readable) is not usable: a width must be finite and greater than 0 (there is nothing to wrap against)"
    }
}
