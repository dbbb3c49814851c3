/// `textmeasure measure`: the size of a text at a proposed width, and its lines.
enum MeasureCommand {
    static let help = """
        usage: textmeasure measure --width W [options] [TEXT | -]
               textmeasure measure --case FILE|- [--width W] [--json]

        The size of a text at a proposed width, and its lines.

        Measures TEXT (or standard input, with - or no TEXT) wrapped at a proposed
        width W, as a self-sizing text view would: the width taken, the height of
        the wrapped lines, and the lines themselves, drawn in a box with each
        line's width in px. Controls are shown as pictures (␊ a line feed).

        options:
          --case FILE          measure one JSON case as batch reads it (- reads standard
                               input): styled text with "spans", "letterSpacing" and
                               "wordSpacing"; its "width" unless --width is given
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

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let json = arguments.flag("--json")
        let measurement = try Measurement.parse(&arguments)
        guard let fit = measurement.fit else { throw .input(Measurement.unusable(width: measurement.proposedWidth)) }
        // Written as it is made: a long text's lines, as text, would outweigh its layout.
        var output = ChunkedOutput()
        if json {
            try writeJSON(measurement, fit, to: &output)
        } else {
            try writeHuman(measurement, fit, to: &output)
        }
        try output.finish()
    }
}
