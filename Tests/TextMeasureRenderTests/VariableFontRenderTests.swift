import Testing
import TextMeasure
import TextMeasureRender

/// A variable font's instance is drawn as measured: FreeType's outlines at the same axes.
@Suite struct VariableFontRenderTests {
    static let boxVariable: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)   // Tests/TextMeasureRenderTests/<this file>
        return parts.joined(separator: "/") + "/Tests/Fixtures/fonts/BoxVariable.ttf"
    }()
    static let boxAxesOptical = String(boxVariable.dropLast("BoxVariable.ttf".count)) + "BoxAxesOptical.ttf"

    /// The box is 400 units of ink wide at wght 100 and 900 at wght 900 (its advance less
    /// 50 units each side), 700 tall: at 100 px, 40 × 70 and 90 × 70 pixels. With no wght
    /// named the font is at 400, as Chromium draws it: 587.5 units, 58.75 × 70 pixels.
    @Test func theInstanceMeasuredIsTheInstanceDrawn() throws {
        func ink(_ variations: [String: Double]) throws -> Int {
            let fonts = try FontSet([Font(contentsOfFile: Self.boxVariable, variations: variations)])
            let measurer = try TextMeasurer(text: "a", fonts: fonts, style: TextStyle(fontSize: 100))
            let (_, png) = try RenderTests.renderAndDecode([TextPanel(measurer: measurer, width: 300)], scale: 1)
            return png.inkCount(x: 0, y: 0, width: Double(png.width), height: Double(png.height))
        }
        let regular = try ink(["wght": 100]), bold = try ink(["wght": 900]), unnamed = try ink([:])
        #expect(abs(regular - 40 * 70) < 200, "\(regular)")
        #expect(abs(Double(unnamed) - 58.75 * 70) < 250, "\(unnamed)")
        #expect(abs(bold - 90 * 70) < 300, "\(bold)")
    }

    /// An instance for a size is drawn as measured: BoxAxesOptical at 100 px has opsz 20
    /// (the size clamped to the axis) and wght 400, a box of 1000 units of ink (100 × 70
    /// pixels); with `opticalSizing` `.none` opsz stays 14, 700 units (70 × 70 pixels).
    @Test func theOpticalSizeMeasuredIsTheOneDrawn() throws {
        func ink(_ opticalSizing: OpticalSizing) throws -> Int {
            var style = TextStyle(fontSize: 100)
            style.opticalSizing = opticalSizing
            let measurer = try TextMeasurer(text: "a", fonts: FontSet([Font(contentsOfFile: Self.boxAxesOptical)]), style: style)
            let (_, png) = try RenderTests.renderAndDecode([TextPanel(measurer: measurer, width: 300)], scale: 1)
            return png.inkCount(x: 0, y: 0, width: Double(png.width), height: Double(png.height))
        }
        let auto = try ink(.auto), none = try ink(.none)
        #expect(abs(auto - 100 * 70) < 300, "\(auto)")
        #expect(abs(none - 70 * 70) < 250, "\(none)")
    }
}
