import Testing
@testable import TextMeasure

/// Variable fonts at the instance Chromium draws text with no font-variation-settings in:
/// `wght` 400, `wdth` 100 and, under `font-optical-sizing: auto`, `opsz` the font size in
/// px, each clamped to the axis; axes the font is loaded with override them. Through the
/// fonts Tests/Fixtures/fonts/make-box-axes.py makes (the axes groups of the browser
/// fixture check the same against Chromium's recordings).
@Suite struct VariableFontDefaultsTests {
    static let boxAxes = packageRoot + "/Tests/Fixtures/fonts/BoxAxes.ttf"
    static let clamped = packageRoot + "/Tests/Fixtures/fonts/BoxAxesClamped.ttf"
    static let optical = packageRoot + "/Tests/Fixtures/fonts/BoxAxesOptical.ttf"
    static let opticalCFF2 = packageRoot + "/Tests/Fixtures/fonts/BoxAxesCFF2.otf"

    func width(_ text: String, _ fonts: FontSet, size: Double = 10, opticalSizing: OpticalSizing = .auto) throws -> Double {
        var style = TextStyle(fontSize: size)
        style.opticalSizing = opticalSizing
        return try PreparedText(text, fonts: fonts, style: style).layout(width: 10_000).lines[0].width
    }

    /// BoxAxes defaults to wght 100, wdth 50 (a box of 500 units); at wght 400, wdth 100
    /// the box is 1000 units and the ascender 875.
    @Test func unnamedWeightAndWidthAreChromiums() throws {
        let font = try Font(contentsOfFile: Self.boxAxes)
        #expect(font.variations == ["wght": 400, "wdth": 100])
        #expect(font.metrics.ascent == 875)
        #expect(try width("aaaa", FontSet([font])) == 40)
    }

    /// An axis named keeps its value; the others still take Chromium's.
    @Test func namedAxesOverrideTheDefaults() throws {
        let light = try Font(contentsOfFile: Self.boxAxes, variations: ["wght": 100])
        #expect(light.variations == ["wght": 100, "wdth": 100])
        #expect(try width("aaaa", FontSet([light])) == 28)   // 500 + 4 × 50 units
    }

    /// BoxAxesClamped's axes exclude 400 and 100 (wght 500...900, wdth 110...150, at
    /// their maximum by default): the values are clamped to 500 and 110, a 400-unit box.
    @Test func defaultsAreClampedToTheAxis() throws {
        let font = try Font(contentsOfFile: Self.clamped)
        #expect(font.variations == ["wght": 500, "wdth": 110])
        #expect(font.metrics.ascent == 800)
        #expect(try width("aaaa", FontSet([font])) == 16)
    }

    /// BoxAxesOptical's opsz runs 14...20 (default 14, +50 units of box per unit; its
    /// wght, unnamed, is 400: an 800-unit box at opsz 14): at 13 px opsz is clamped to 14,
    /// at 17 px it is 17 (950 units), at 22 px clamped to 20 (1100 units). With `.none`,
    /// or opsz named, the size does not move it.
    @Test(arguments: [Self.optical, Self.opticalCFF2])
    func opticalSizeFollowsTheFontSize(path: String) throws {
        let fonts = try FontSet([Font(contentsOfFile: path)])
        #expect(abs(try width("aaaa", fonts, size: 13) - 4 * 0.8 * 13) < 0.01)
        #expect(abs(try width("aaaa", fonts, size: 17) - 4 * 0.95 * 17) < 0.01)
        #expect(abs(try width("aaaa", fonts, size: 22) - 4 * 1.1 * 22) < 0.01)
        #expect(abs(try width("aaaa", fonts, size: 17, opticalSizing: .none) - 4 * 0.8 * 17) < 0.01)
        let named = try FontSet([Font(contentsOfFile: path, variations: ["opsz": 20])])
        #expect(abs(try width("aaaa", named, size: 17) - 4 * 1.1 * 17) < 0.01)
        // The line box is the instance's too: ascender 800 + 20 per opsz unit.
        var style = TextStyle(fontSize: 17)
        #expect(try PreparedText("a", fonts: fonts, style: style).fonts.primary.metrics.ascent == 860)
        style.opticalSizing = .none
        #expect(try PreparedText("a", fonts: fonts, style: style).fonts.primary.metrics.ascent == 800)
    }

    /// A run at another size has its own optical size.
    @Test func aStyledRunTakesItsOwnOpticalSize() throws {
        let fonts = try FontSet([Font(contentsOfFile: Self.optical)])
        var text = AttributedText("aaaaaaaa", style: TextStyle(fontSize: 13), fonts: fonts)
        try text.setAttributes(TextAttributes(fontSize: 22), utf16Range: 4..<8)
        let width = try PreparedText(text).layout(width: 10_000).lines[0].width
        #expect(abs(width - (4 * 0.8 * 13 + 4 * 1.1 * 22)) < 0.01)
    }

    /// Instances are made once per set and size, and a set of instances gives itself
    /// back for its own style (a prepared text's fonts prepare the same text again);
    /// a set with no optical size axis is its own instance at every size.
    @Test func instancesAreSharedAndStable() throws {
        let fonts = try FontSet([Font(contentsOfFile: Self.optical)])
        let style = TextStyle(fontSize: 17)
        let instances = fonts.instances(for: style)
        #expect(instances.identity != fonts.identity)
        #expect(fonts.instances(for: style).identity == instances.identity)
        #expect(instances.instances(for: style).identity == instances.identity)
        #expect(instances.instances(for: TextStyle(fontSize: 13)).identity == fonts.identity)   // 13 clamps to the default
        var none = style
        none.opticalSizing = .none
        #expect(instances.instances(for: none).identity == fonts.identity)
        #expect(try PreparedText("aaaa", fonts: fonts, style: style).fonts.identity == instances.identity)
        let plain = FontSet.default
        #expect(plain.instances(for: style).identity == plain.identity)
    }

    /// `"opticalSizing"` in a JSON case: "auto" or "none", anything else an error naming the key.
    @Test func theCaseKeyIsReadStrictly() throws {
        let none = try MeasurementCase(json: Array(#"{"text": "a", "width": 10, "opticalSizing": "none"}"#.utf8))
        #expect(none.style().opticalSizing == .none)
        #expect(try MeasurementCase(json: Array(#"{"text": "a", "width": 10}"#.utf8)).style().opticalSizing == .auto)
        #expect { try MeasurementCase(json: Array(#"{"text": "a", "width": 10, "opticalSizing": "off"}"#.utf8)) }
            throws: { ($0 as? CaseReadError)?.message.contains("opticalSizing") == true }
    }
}
