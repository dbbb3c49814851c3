import TextMeasure

/// `textmeasure measure`: the size of a text at a proposed width, and its lines.
enum MeasureCommand {
    static let help = """
        usage: textmeasure measure --width W [options] [TEXT | -]

        The size of a text at a proposed width, and its lines.

        Measures TEXT (or standard input, with - or no TEXT) wrapped at a proposed
        width W, as a self-sizing text view would: the width taken, the height of
        the wrapped lines, and the lines themselves, drawn in a box with each
        line's width in px. Controls are shown as pictures (␊ a line feed).

        options:
          --width W            the proposed width in px (required; finite and > 0)
          --json               print JSON instead: {"size": {"width", "height"},
                               "intrinsicContentSize": {"width", "height"}, "idealWidth",
                               "lines": [{"start", "end", "width", "text"}]}, and
                               "truncated": true when a line limit or "…" hides text
                               (a line's "text" is as drawn, "…" included), and
                               "missingGlyphs": N when N characters are .notdef boxes
        \(MeasureOptions.help)

        Sizes are in px; JSON offsets are UTF-16 code units, a line's end is the
        next line's start. TEXT from standard input must be UTF-8: invalid UTF-8
        is an error, never replaced.
        Exit status: 0 success; 1 bad input (text, font, a value out of range such
        as a width of 0); 2 usage error (unknown option, missing or non-numeric value).
        """

    struct Output: Encodable {
        struct Line: Encodable {
            var start: Int
            var end: Int
            var width: Double
            var text: String
        }
        var size: Size
        var intrinsicContentSize: Size
        var idealWidth: Double
        var lines: [Line]
        /// Present (true) when a line limit or truncation hides some of the text.
        var truncated: Bool?
        /// Present when some grapheme clusters are drawn as .notdef: how many.
        var missingGlyphs: Int?
    }

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let json = arguments.flag("--json")
        let measurement = try Measurement.parse(&arguments)
        guard let fit = measurement.fit else { throw .input(Measurement.unusable(width: measurement.proposedWidth)) }
        let output = Output(size: fit.size,
                            intrinsicContentSize: measurement.measurer.intrinsicContentSize(currentWidth: measurement.proposedWidth),
                            idealWidth: measurement.measurer.idealWidth.printedWidth,
                            lines: fit.layout.lines.map {
                                Output.Line(start: $0.utf16Range.lowerBound, end: $0.utf16Range.upperBound,
                                            width: $0.width.printedWidth, text: $0.displayText)
                            },
                            truncated: fit.layout.isTruncated ? true : nil,
                            missingGlyphs: measurement.missingGlyphs > 0 ? measurement.missingGlyphs : nil)
        try StandardOutput.writeLine(json ? JSONOutput.line(output) : human(output))
    }

    private static func human(_ output: Output) -> String {
        let count = output.lines.count
        return """
            size \(output.size.width.readable) × \(output.size.height.readable) px · \(count) line\(count == 1 ? "" : "s") \
            · idealWidth \(output.idealWidth.readable) px
            \(TerminalText.box(output.lines.map { TerminalText.visible($0.text) }, notes: output.lines.map(\.width.readable)))
            """
    }
}
