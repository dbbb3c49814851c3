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
    /// Grapheme clusters drawn as .notdef boxes (`PreparedText.missingGlyphClusterCount`),
    /// warned about on stderr when not 0.
    let missingGlyphs: Int

    /// Reads `--width W`, the layout options and the text from `arguments`, and
    /// measures the text at that width.
    static func parse(_ arguments: inout Arguments) throws(CLIError) -> Measurement {
        guard let width = try arguments.number("--width") else { throw .usage("--width W is required") }
        let options = try MeasureOptions.parse(&arguments)
        let text = try TextInput.read(try arguments.positionals())
        let measurer = try options.measurer(for: text)
        let missing = measurer.prepared.missingGlyphClusterCount
        if missing > 0 {
            printError("textmeasure: warning: \(missing) character\(missing == 1 ? " is" : "s are") drawn as .notdef "
                       + "boxes: no font has \(missing == 1 ? "its glyph" : "their glyphs")")
        }
        var fit: Fit?
        if let size = measurer.sizeThatFits(ProposedSize(width: width)) {
            do { fit = Fit(size: size, layout: try measurer.layout(width: width)) } catch { throw .input(error.description) }
        }
        return Measurement(text: text, options: options, measurer: measurer, proposedWidth: width, fit: fit,
                           missingGlyphs: missing)
    }

    /// Why a width gives no size.
    static func unusable(width: Double) -> String {
        "width \(width.readable) is not usable: a width must be finite and greater than 0 (there is nothing to wrap against)"
    }
}
