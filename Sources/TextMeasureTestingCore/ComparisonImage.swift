import TextMeasure
import TextMeasureRender

extension GoldenMismatch {
    /// A picture of the case broken where it was recorded (left) and where it breaks
    /// now (right), so a person can see what moved; `nil` when there is nothing to
    /// set side by side (the case cannot be measured, or its input changed).
    ///
    /// The right panel is the real layout. The left one draws today's glyphs broken
    /// at the recorded line starts, in a frame of the recorded height, its lines
    /// spaced evenly over that height (the recorded file keeps no line geometry).
    public func comparisonImage(fonts: FontCache = FontCache(), scale: Double = 2) throws -> Canvas? {
        guard problem == .changed || problem == .notRecorded else { return nil }
        let measurer = try input.measurer(fonts: fonts)
        let now = try TextPanel(measurer: measurer, width: input.width)
        let actualCaption = "now: \(now.lines.count) line\(now.lines.count == 1 ? "" : "s"), \(formatNumber(now.frame.height)) px (TextMeasure \(TextMeasure.version))"
        guard let expected else { return try PanelRenderer.render([now], captions: [actualCaption], scale: scale) }
        let recorded = recordedPanel(expected, like: now, container: measurer.container)
        let expectedCaption = "recorded: \(expected.lineCount) line\(expected.lineCount == 1 ? "" : "s"), \(formatNumber(expected.height)) px (TextMeasure \(expected.recordedWith))"
        return try PanelRenderer.render([recorded, now], captions: [expectedCaption, actualCaption], scale: scale)
    }

    /// Writes `comparisonImage` as a PNG; returns false when there is nothing to draw.
    @discardableResult
    public func writeComparisonImage(to path: String, fonts: FontCache = FontCache(), scale: Double = 2) throws -> Bool {
        guard let canvas = try comparisonImage(fonts: fonts, scale: scale) else { return false }
        try canvas.writePNG(to: path)
        return true
    }

    /// The text broken at the recorded line starts, in a frame of the recorded height.
    private func recordedPanel(_ expected: GoldenExpectation, like now: TextPanel, container: TextContainer) -> TextPanel {
        let utf16 = Array(input.text.utf16)
        let starts = expected.lineStarts.filter { $0 >= 0 && $0 <= utf16.count }
        let textHeight = expected.height - container.textContainerInset.top - container.textContainerInset.bottom
        let pitch = starts.isEmpty ? 0 : max(0, textHeight) / Double(starts.count)
        // The baseline sits in each line as in today's first line, as far as the pitch allows.
        let ascent = now.lines.first.map { min($0.baseline - $0.y, pitch) } ?? pitch
        var lines: [TextPanel.Line] = []
        for (index, start) in starts.enumerated() {
            let end = max(start, index + 1 < starts.count ? starts[index + 1] : utf16.count)
            lines.append(TextPanel.Line(utf16Range: start..<end, y: Double(index) * pitch, height: pitch,
                                        baseline: Double(index) * pitch + ascent, width: 0))
        }
        // Line widths from the glyphs: the pen's reach, trailing spaces hanging as measuring has them.
        for (index, glyphs) in now.prepared.glyphs(in: lines.map(\.utf16Range)).enumerated() {
            lines[index].width = glyphs.filter { utf16[$0.utf16Offset] != 0x20 && utf16[$0.utf16Offset] != 0x09 }
                .map { $0.x + $0.advance }.max() ?? 0
        }
        return TextPanel(prepared: now.prepared, lines: lines, frame: Size(width: now.frame.width, height: expected.height),
                         textLeft: now.textLeft, textTop: now.textTop, textWidth: now.textWidth)
    }
}
