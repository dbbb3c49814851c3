import Foundation
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
    /// With `--case FILE` (or `-` for standard input), the text, style, spans and
    /// width come from one JSON case, as `batch` reads it; `--width` may override the width.
    static func parse(_ arguments: inout Arguments) throws(CLIError) -> Measurement {
        let text: String, measurer: TextMeasurer, width: Double
        if let source = try arguments.value("--case") {
            let measurement = try MeasurementCase(caseFrom: source)
            width = try arguments.number("--width") ?? measurement.width
            guard try arguments.positionals().isEmpty else { throw .usage("--case takes its text from the case, not TEXT") }
            text = measurement.text
            do { measurer = try measurement.measurer(fonts: FontCache()) } catch { throw .input("\(error)") }
        } else {
            guard let proposed = try arguments.number("--width") else { throw .usage("--width W is required") }
            width = proposed
            let options = try MeasureOptions.parse(&arguments)
            text = try TextInput.read(try arguments.positionals())
            measurer = try options.measurer(for: text)
        }
        let missing = measurer.prepared.missingGlyphClusterCount
        if missing > 0 {
            printError("textmeasure: warning: \(missing) character\(missing == 1 ? " is" : "s are") drawn as .notdef "
                       + "boxes: no font has \(missing == 1 ? "its glyph" : "their glyphs")")
        }
        var fit: Fit?
        if let size = measurer.sizeThatFits(ProposedSize(width: width)) {
            do { fit = Fit(size: size, layout: try measurer.layout(width: width)) } catch { throw .input(error.description) }
        }
        return Measurement(text: text, measurer: measurer, proposedWidth: width, fit: fit,
                           missingGlyphs: missing)
    }

    /// Why a width gives no size.
    static func unusable(width: Double) -> String {
        "width \(width.readable) is not usable: a width must be finite and greater than 0 (there is nothing to wrap against)"
    }
}

extension MeasurementCase {
    /// The case in the file at `path`, or on standard input for `-`.
    init(caseFrom path: String) throws(CLIError) {
        let json: [UInt8]
        if path == "-" {
            json = Array(try StandardInput.read().utf8)
        } else {
            // The bytes as they are: the case reader rejects invalid UTF-8 rather than replacing it.
            guard let data = FileManager.default.contents(atPath: path) else { throw .input("cannot read case file \(path)") }
            json = Array(data)
        }
        do {
            try self.init(json: json)
        } catch {
            throw .input("case\(error.id.map { " \($0)" } ?? ""): \(error.message)")
        }
    }
}
