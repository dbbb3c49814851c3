import TextMeasure

/// Draws text panels side by side on one canvas, each under an optional caption:
/// the glyphs with FreeType (each styled run in its font and size), inline
/// placeholders as green outlines of their boxes, and, faintly, what the layout decided: the frame
/// (grey), the edges the lines wrap at (orange), each line's box (blue) and its
/// baseline (red).
///
/// The canvas is `margin` px around and between the panels, plus a caption band
/// of `captionHeight` px on top when any caption is given, all times `scale`.
public enum PanelRenderer {
    /// Device pixels per px the renderer accepts.
    public static let scaleRange: ClosedRange<Double> = 0.25...8
    /// Space around and between panels, in px.
    public static let margin: Double = 12
    /// Height of the caption band, in px, when any caption is given.
    public static let captionHeight: Double = 20

    static let ink = Color(red: 28, green: 28, blue: 28)
    static let captionInk = Color(red: 96, green: 96, blue: 96)
    static let frameColor = Color(red: 170, green: 170, blue: 170)
    static let wrapEdge = Color(red: 240, green: 150, blue: 60)
    static let lineBox = Color(red: 70, green: 130, blue: 230)
    static let baseline = Color(red: 230, green: 60, blue: 60)
    static let placeholder = Color(red: 40, green: 150, blue: 90)

    /// Renders `panels` left to right, `captions[i]` above panel i, at `scale`
    /// device pixels per px.
    public static func render(_ panels: [TextPanel], captions: [String] = [], scale: Double = 1) throws(RenderError) -> Canvas {
        guard scale.isFinite, scaleRange.contains(scale) else { throw .invalidScale(scale) }
        let band = captions.contains { !$0.isEmpty } ? captionHeight : 0
        let width = panels.reduce(margin) { $0 + $1.frame.width + margin }
        let height = band + margin + (panels.map(\.contentHeight).max() ?? 0) + margin
        var canvas = try Canvas(width: Canvas.pixel((width * scale).rounded(.up)),
                                height: Canvas.pixel((height * scale).rounded(.up)))
        var left = margin
        for (index, panel) in panels.enumerated() {
            try draw(panel, x: left, y: band + margin, scale: scale, on: &canvas)
            if index < captions.count, !captions[index].isEmpty {
                try drawCaption(captions[index], x: left, width: panel.frame.width + margin, scale: scale, on: &canvas)
            }
            left += panel.frame.width + margin
        }
        return canvas
    }

    /// Draws one panel with its frame's top-left corner at (`x`, `y`) px.
    private static func draw(_ panel: TextPanel, x: Double, y: Double, scale: Double, on canvas: inout Canvas) throws(RenderError) {
        let textX = x + panel.textLeft, textY = y + panel.textTop
        let placement = placement(of: panel.prepared, lines: panel.lines, width: panel.textWidth)
        for (index, line) in panel.lines.enumerated() {
            // An empty line (after a final newline) still shows, as a caret would. Where
            // the line is aligned, its box starts at its content (hanging spaces left out).
            let start = placement.lines[index].left + (placement.lines[index].isRightToLeft
                ? placement.lines[index].right - placement.lines[index].left - line.width : 0)
            canvas.fill(x: (textX + start) * scale, y: (textY + line.y) * scale, width: max(line.width, 2) * scale,
                        height: line.height * scale, lineBox, alpha: index % 2 == 0 ? 28 : 48)
        }
        for edge in [textX, textX + panel.textWidth] {
            canvas.fill(x: edge * scale, y: y * scale, width: 0, height: panel.contentHeight * scale, wrapEdge, alpha: 150)
        }
        canvas.stroke(x: x * scale, y: y * scale, width: panel.frame.width * scale,
                      height: panel.frame.height * scale, frameColor)
        for line in panel.lines {
            canvas.fill(x: textX * scale, y: (textY + line.baseline) * scale, width: panel.textWidth * scale,
                        height: 0, baseline, alpha: 90)
        }
        try drawGlyphs(of: panel.prepared, placement, x: textX, y: textY, scale: scale, ink: ink, on: &canvas)
    }

    /// Draws a caption in the band above a panel, on one line cut to `width` px.
    private static func drawCaption(_ caption: String, x: Double, width: Double, scale: Double,
                                    on canvas: inout Canvas) throws(RenderError) {
        guard let prepared = try? PreparedText(caption, style: TextStyle(fontSize: 12)),
              let line = try? prepared.layout(width: width, emptyLines: .label).lines.first else { return }
        let panelLine = TextPanel.Line(utf16Range: line.utf16Range, y: line.y, height: line.height,
                                       baseline: line.baseline, width: line.width)
        // Centred in the band's upper part, clear of the panel below.
        let top = margin / 2 + (captionHeight - line.height) / 2
        try drawGlyphs(of: prepared, placement(of: prepared, lines: [panelLine], width: nil), x: x, y: top, scale: scale,
                       ink: captionInk, on: &canvas)
    }

    /// `lines` placed: aligned in `width` as the style says (unaligned when nil).
    private static func placement(of prepared: PreparedText, lines: [TextPanel.Line], width: Double?) -> TextPlacement {
        prepared.placement(of: lines.map {
            TextPlacement.LineInput(utf16Range: $0.utf16Range, elidedUTF16Range: $0.elidedUTF16Range, lineEnd: $0.lineEnd,
                                    y: $0.y, height: $0.height, baseline: $0.baseline, showsHyphen: $0.showsHyphen)
        }, width: width)
    }

    /// Draws the glyphs of `placement`'s lines where it placed them, each in its run's
    /// font and size, and each inline placeholder as the outline of its box.
    private static func drawGlyphs(of prepared: PreparedText, _ placement: TextPlacement, x: Double, y: Double,
                                   scale: Double, ink: Color, on canvas: inout Canvas) throws(RenderError) {
        var rasterizer = try GlyphRasterizer(fonts: prepared.drawingFonts, scale: scale)
        let placed = prepared.glyphs(in: placement)
        for (line, glyphs) in zip(placement.lines, placed) {
            for glyph in glyphs {
                try rasterizer.draw(glyph.glyphID, fontIndex: glyph.fontIndex, size: glyph.size, x: (x + glyph.x) * scale,
                                    baseline: (y + line.baseline - glyph.y) * scale, ink: ink, on: &canvas)
            }
        }
        for box in prepared.placeholders(in: placement) {
            let top = y + placement.lines[box.line].baseline - box.ascent
            canvas.stroke(x: (x + box.x) * scale, y: top * scale, width: box.width * scale, height: box.height * scale,
                          placeholder)
        }
    }
}
