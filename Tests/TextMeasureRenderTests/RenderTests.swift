import CPNG
import Testing
import TextMeasure
import TextMeasureRender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pictures written with libpng and read back with libpng.
@Suite struct RenderTests {
    static let paragraph = "In my younger and more vulnerable years my father gave me some advice that I’ve been turning over in my mind ever since."
    static let margin = PanelRenderer.margin

    /// An RGB image as libpng decodes it.
    struct Decoded {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        func isInk(_ x: Int, _ y: Int) -> Bool {
            let i = (y * width + x) * 3
            return pixels[i] < 110 && pixels[i + 1] < 110 && pixels[i + 2] < 110
        }

        /// Dark pixels in the device-pixel rectangle, clipped to the image.
        func inkCount(x: Double, y: Double, width w: Double, height h: Double) -> Int {
            var count = 0
            for row in max(0, Int(y.rounded(.down)))..<min(height, Int((y + h).rounded(.up))) {
                for column in max(0, Int(x.rounded(.down)))..<min(width, Int((x + w).rounded(.up))) where isInk(column, row) {
                    count += 1
                }
            }
            return count
        }
    }

    static func decode(_ path: String) -> Decoded? {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else { return nil }
        image.format = png_uint_32(PNG_FORMAT_RGB)
        var pixels = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * 3)
        let read = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        png_image_free(&image)
        guard read != 0 else { return nil }
        return Decoded(width: Int(image.width), height: Int(image.height), pixels: pixels)
    }

    /// A fresh directory under the system's temporary directory (`$TMPDIR`, else /tmp).
    static func temporaryDirectory() throws -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/textmeasure-render-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        return try #require(directory)
    }

    static func renderAndDecode(_ panels: [TextPanel], captions: [String] = [], scale: Double) throws -> (Canvas, Decoded) {
        let canvas = try PanelRenderer.render(panels, captions: captions, scale: scale)
        let directory = try temporaryDirectory()
        let path = directory + "/picture.png"
        defer { unlink(path); rmdir(directory) }   // the picture, then its folder: nothing is left behind
        try canvas.writePNG(to: path)
        return (canvas, try #require(decode(path), "libpng cannot read back \(path)"))
    }

    @Test(arguments: [1.0, 2.0])
    func aValidPNGOfTheFramePlusMarginsWithInkInEveryLineBoxAndNoneOutside(scale: Double) throws {
        let measurer = try TextMeasurer(text: Self.paragraph, container: .textView)
        let panel = try TextPanel(measurer: measurer, width: 300)
        let size = try #require(measurer.sizeThatFits(ProposedSize(width: 300)))
        #expect(panel.frame == size)
        #expect(panel.lines.count >= 3)

        let (canvas, png) = try Self.renderAndDecode([panel], scale: scale)
        #expect(png.width == Int(((300 + 2 * Self.margin) * scale).rounded(.up)))
        #expect(png.height == Int(((size.height + 2 * Self.margin) * scale).rounded(.up)))
        #expect(png.pixels == canvas.pixels, "PNG is lossless: what was drawn is what is read back")

        let left = Self.margin + panel.textLeft, top = Self.margin + panel.textTop
        for line in panel.lines {
            let ink = png.inkCount(x: left * scale, y: (top + line.y) * scale, width: line.width * scale,
                                   height: line.height * scale)
            // Glyphs cover a good part of a line box, and not all of it.
            let area = line.width * line.height * scale * scale
            #expect(Double(ink) > area * 0.03 && Double(ink) < area * 0.6, "line \(line.utf16Range): \(ink) of \(area)")
        }
        // Nothing dark below the last line or right of the wrap edge (the frame is grey).
        let bottom = top + (panel.lines.last.map { $0.y + $0.height } ?? 0)
        #expect(png.inkCount(x: 0, y: (bottom + 1) * scale, width: Double(png.width), height: Double(png.height)) == 0)
        #expect(png.inkCount(x: (left + panel.textWidth + 1) * scale, y: 0, width: Double(png.width),
                             height: Double(png.height)) == 0)
    }

    /// A preview truncated to two lines is drawn in two lines that end inside the
    /// wrap edge: the elided text is not drawn, "…" is.
    @Test func truncatedLinesStayInsideTheirBox() throws {
        var container = TextContainer()
        container.maximumNumberOfLines = 2
        container.lineBreakMode = .byTruncatingTail
        let panel = try TextPanel(measurer: TextMeasurer(text: Self.paragraph, container: container), width: 200)
        #expect(panel.lines.count == 2 && panel.lines[1].elidedUTF16Range != nil)
        let (_, png) = try Self.renderAndDecode([panel], scale: 2)
        let left = Self.margin + panel.textLeft, top = Self.margin + panel.textTop
        #expect(png.inkCount(x: (left + panel.textWidth + 1) * 2, y: 0, width: Double(png.width), height: Double(png.height)) == 0)
        let last = panel.lines[1]
        #expect(png.inkCount(x: left * 2, y: (top + last.y) * 2, width: last.width * 2, height: last.height * 2) > 0)
    }

    @Test func aLineBrokenAtASoftHyphenEndsWithTheHyphen() throws {
        let measurer = try TextMeasurer(text: "co\u{AD}operate", container: TextContainer(emptyLines: .label))
        let width = try PreparedText("operate").unwrappedWidth + 1
        var panel = try TextPanel(measurer: measurer, width: width)
        #expect(panel.lines.first?.showsHyphen == true)
        // Placement puts the hyphen after the line's clusters, and its glyph last on the line.
        let layout = try measurer.layout(width: width)
        let placement = measurer.prepared.placement(of: layout)
        let hyphenLeft = try #require(placement.lines.first?.hyphenLeft)
        let hyphen = [try #require(measurer.prepared.glyphs(in: placement).first?.last)]
        #expect(hyphen.count == 1 && hyphen[0].glyphID != 0 && hyphen[0].advance > 3)
        #expect(abs(hyphen[0].x - hyphenLeft) < 1 && abs(hyphenLeft + hyphen[0].advance - layout.lines[0].width) < 0.5)
        // The hyphen's place at the end of the first line: inked, and blank without it.
        let first = try #require(panel.lines.first)
        let left = Self.margin + panel.textLeft + first.width - hyphen[0].advance, top = Self.margin + panel.textTop
        let (_, drawn) = try Self.renderAndDecode([panel], scale: 2)
        #expect(drawn.inkCount(x: left * 2, y: (top + first.y) * 2, width: hyphen[0].advance * 2, height: first.height * 2) > 0)
        panel.lines[0].showsHyphen = false
        let (_, bare) = try Self.renderAndDecode([panel], scale: 2)
        #expect(bare.inkCount(x: (left + 0.5) * 2, y: (top + first.y) * 2, width: (hyphen[0].advance - 0.5) * 2,
                              height: first.height * 2) == 0)
    }

    /// Styled text is drawn at its runs' sizes (measure equals render), and an inline
    /// placeholder as the green outline of its box.
    @Test func styledRunsAreDrawnAtTheirSizesAndPlaceholdersAsBoxes() throws {
        var text = AttributedText("big small \u{FFFC}", style: TextStyle(fontSize: 15))
        try text.setAttributes(TextAttributes(fontSize: 40), utf16Range: 0..<3)
        try text.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 30, height: 12, baseline: 10)),
                               utf16Range: 10..<11)
        let measurer = try TextMeasurer(attributedText: text)
        let panel = try TextPanel(measurer: measurer, width: 400)
        let (_, png) = try Self.renderAndDecode([panel], scale: 1)
        let placement = measurer.prepared.placement(of: try measurer.layout(width: 400))
        let clusters = placement.clusters, baseline = Self.margin + panel.textTop + panel.lines[0].baseline
        let left = Self.margin + panel.textLeft
        // 20 to 26 px above the baseline: the 40 px "big" reaches there, the 15 px "small" does not.
        func inkHigh(_ range: Range<Int>) -> Int {
            png.inkCount(x: left + clusters[range.lowerBound].left, y: baseline - 26,
                         width: clusters[range.upperBound - 1].right - clusters[range.lowerBound].left, height: 6)
        }
        #expect(inkHigh(0..<3) > 20)
        #expect(inkHigh(4..<9) == 0)
        #expect(png.inkCount(x: left + clusters[4].left, y: baseline - 10, width: 10, height: 10) > 0)
        // The placeholder's top edge, 10 px above the baseline, is green; inside it is not.
        let box = try #require(measurer.prepared.placeholders(in: placement).first)
        func color(_ x: Double, _ y: Double) -> (Int, Int, Int) {
            let i = (Int(y.rounded()) * png.width + Int(x.rounded())) * 3
            return (Int(png.pixels[i]), Int(png.pixels[i + 1]), Int(png.pixels[i + 2]))
        }
        let edge = color(left + box.x + box.width / 2, baseline - box.ascent)
        #expect(edge.1 > edge.0 + 60 && edge.1 > edge.2 + 30, "\(edge)")
        let inside = color(left + box.x + box.width / 2, baseline - box.ascent + box.height / 2)
        #expect(!(inside.1 > inside.0 + 60))
    }

    @Test func colourEmojiAreDrawnInTheirColours() throws {
        func hasYellow(_ text: String) throws -> Bool {
            let measurer = try TextMeasurer(text: text, style: TextStyle(fontSize: 40))
            let (_, png) = try Self.renderAndDecode([TextPanel(measurer: measurer, width: 200)], scale: 1)
            return stride(from: 0, to: png.pixels.count, by: 3).contains {
                png.pixels[$0] > 200 && png.pixels[$0 + 1] > 140 && png.pixels[$0 + 2] < 100
            }
        }
        #expect(try hasYellow("😀"))
        #expect(try !hasYellow("a"))
    }

    @Test func panelsSitSideBySideUnderTheirCaptions() throws {
        let narrow = try TextPanel(measurer: TextMeasurer(text: Self.paragraph), width: 150)
        let wide = try TextPanel(measurer: TextMeasurer(text: Self.paragraph), width: 400)
        let (_, png) = try Self.renderAndDecode([narrow, wide], captions: ["narrow", "wide"], scale: 1)
        #expect(png.width == Int((Self.margin + 150 + Self.margin + 400 + Self.margin).rounded(.up)))
        let tallest = max(narrow.frame.height, wide.frame.height)
        #expect(png.height == Int((PanelRenderer.captionHeight + Self.margin + tallest + Self.margin).rounded(.up)))
        // Caption ink above each panel.
        let band = PanelRenderer.captionHeight + Self.margin
        #expect(png.inkCount(x: Self.margin, y: 0, width: 150, height: band) > 0)
        #expect(png.inkCount(x: 2 * Self.margin + 150, y: 0, width: 400, height: band) > 0)
    }

    @Test func failuresAreErrorsNotCrashes() throws {
        let panel = try TextPanel(measurer: TextMeasurer(text: "x"), width: 100)
        #expect(throws: RenderError.invalidScale(0)) { try PanelRenderer.render([panel], scale: 0) }
        #expect(throws: RenderError.self) { try PanelRenderer.render([panel], scale: .nan) }
        let huge = try TextPanel(measurer: TextMeasurer(text: "x"), width: 1e9)
        #expect(throws: RenderError.self) { try PanelRenderer.render([huge]) }
        let canvas = try PanelRenderer.render([panel])
        do {
            try canvas.writePNG(to: "/nonexistent-directory/picture.png")
            Issue.record("writing into a missing directory succeeded")
        } catch {
            guard case .pngWriteFailed(let path, let reason) = error else { throw error }
            #expect(path == "/nonexistent-directory/picture.png")
            #expect(!reason.isEmpty)
        }
    }
}
