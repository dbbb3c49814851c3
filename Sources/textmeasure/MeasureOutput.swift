import TextMeasure

/// `measure`'s two forms of output, written a line at a time.
extension MeasureCommand {
    /// One JSON document, as `JSONEncoder` writes it with sorted keys:
    /// `{"idealWidth","intrinsicContentSize","lines","missingGlyphs"?,"size","truncated"?}`.
    /// Every number is finite: the library takes only finite widths, sizes and insets, within bounds.
    static func writeJSON(_ measurement: Measurement, _ fit: Measurement.Fit,
                          to output: inout ChunkedOutput) throws(CLIError) {
        var json = JSONWriter()
        json.raw("{")
        json.key("idealWidth", first: true)
        json.number(measurement.measurer.idealWidth.printedWidth)
        json.key("intrinsicContentSize")
        json.size(measurement.measurer.intrinsicContentSize(currentWidth: measurement.proposedWidth))
        json.key("lines")
        json.raw("[")
        for (index, line) in fit.layout.lines.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("end", first: true)
            json.integer(line.utf16Range.upperBound)
            json.key("start")
            json.integer(line.utf16Range.lowerBound)
            json.key("text")
            json.string(line.displayText)
            json.key("width")
            json.number(line.width.printedWidth)
            json.raw("}")
            try output.write(&json)
        }
        json.raw("]")
        if measurement.missingGlyphs > 0 {
            json.key("missingGlyphs")
            json.integer(measurement.missingGlyphs)
        }
        json.key("size")
        json.size(fit.size)
        if fit.layout.isTruncated {
            json.key("truncated")
            json.bool(true)
        }
        json.raw("}\n")
        try output.write(&json)
    }

    /// The size, the line count and the ideal width, then the lines boxed with their widths.
    static func writeHuman(_ measurement: Measurement, _ fit: Measurement.Fit,
                           to output: inout ChunkedOutput) throws(CLIError) {
        let lines = fit.layout.lines
        try output.write("size \(fit.size.width.readable) × \(fit.size.height.readable) px · \(lines.count) "
                         + "line\(lines.count == 1 ? "" : "s") · idealWidth \(measurement.measurer.idealWidth.printedWidth.readable) px\n")
        // The box is as wide as its widest row, known before the first is written; each
        // row's text is made again to be written rather than kept (its width in columns is).
        let columns = lines.map { TerminalText.columns(TerminalText.visible($0.displayText)) }
        let box = TerminalText.Box(widestRow: columns.max() ?? 0)
        try output.write(box.top + "\n")
        for (line, width) in zip(lines, columns) {
            try output.write(box.row(TerminalText.visible(line.displayText), columns: width,
                                     note: line.width.printedWidth.readable) + "\n")
        }
        try output.write(box.bottom + "\n")
    }
}
