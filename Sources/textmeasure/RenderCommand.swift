import TextMeasure
import TextMeasureRender

/// `textmeasure render`: a PNG of a text laid out at a proposed width.
enum RenderCommand {
    static let help = """
        usage: textmeasure render --width W -o OUT.png [--scale S] [options] [TEXT | -]
               textmeasure render --case FILE|- -o OUT.png [--width W] [--scale S]

        A PNG of the text laid out at a proposed width, drawn with FreeType.

        Draws TEXT (or standard input) wrapped at the proposed width W with the
        fonts it was measured with, from the glyphs HarfBuzz gave measuring. Faint
        marks show what the layout decided: the view's frame (grey), the edges the
        lines wrap at (orange), each line's box (blue) and baseline (red). Colour
        emoji are drawn from the emoji font's bitmaps, scaled to the size; a
        truncated line shows its "…". With --case, the text, style, spans and
        width come from one JSON case, as batch reads it: each span is drawn in its
        fonts and size, and a placeholder as the green outline of its box.

        The picture is the frame (W × the measured height) with \(PanelRenderer.margin.readable) px around
        it, times the scale; lines that overflow a --max-height are drawn below it.

        options:
          --width W            the proposed width in px (required; finite and > 0)
          -o, --output PATH    the PNG file to write (required)
          --scale S            device pixels per px, \(PanelRenderer.scaleRange.lowerBound.readable)...\(PanelRenderer.scaleRange.upperBound.readable) (default 1; 2 draws sharper)
        \(MeasureOptions.help)

        Exit status: 0 written; 1 bad input (text, font, width, a picture too
        large) or the file cannot be written; 2 usage error.
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let longOutput = try arguments.value("--output")
        guard let output = try arguments.value("-o") ?? longOutput else {
            throw .usage("render needs -o OUT.png")
        }
        let scale = try arguments.number("--scale") ?? 1
        // The text and its width as `measure` reads them (flags and TEXT, or --case).
        let measurement = try Measurement.parse(&arguments)
        let panel: TextPanel, canvas: Canvas
        do {
            panel = try TextPanel(measurer: measurement.measurer, width: measurement.proposedWidth)
            canvas = try PanelRenderer.render([panel], scale: scale)
            try canvas.writePNG(to: output)
        } catch {
            throw .input("\(error)")
        }
        try StandardOutput.writeLine("\(output): \(canvas.width) × \(canvas.height) pixels, frame \(panel.frame), \(panel.lines.count) line\(panel.lines.count == 1 ? "" : "s")")
    }
}
