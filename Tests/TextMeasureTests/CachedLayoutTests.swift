import Testing
import TextMeasure

/// The shape cache changes how fast a text is prepared, never a layout: whole
/// layouts (every line's range, width, height and baseline, and the glyphs placed on
/// them) are identical with the cache off, a fresh cache seeing the words once,
/// twice (storing them) and a third time (serving them), and the shared cache,
/// at many widths, in every wrapping mode, for every script the embedded fonts draw.
/// Comparing layouts rather than prepared arrays covers what preparing derives from
/// the cached words: line-edge widths of broken words, tab stops and line boxes.
@Suite struct CachedLayoutTests {
    static let scripts = ["latin", "cjk", "korean", "thai", "arabic", "hebrew", "devanagari", "emoji"]

    /// Everything a layout says, glyphs included.
    struct Snapshot: Equatable {
        var lines: [TextLayout.Line]
        var height: Double
        var usedWidth: Double
        var glyphs: [[PlacedGlyph]]

        init(_ prepared: PreparedText, width: Double, mode: LineBreakMode) throws {
            let layout = try prepared.layout(width: width, lineBreakMode: mode)
            lines = layout.lines
            height = layout.height
            usedWidth = layout.usedWidth
            glyphs = prepared.glyphs(in: layout)
        }
    }

    @Test(arguments: scripts)
    func layoutsAreTheSameWithAndWithoutTheCache(script: String) throws {
        var random = RandomTexts.Generator(state: UInt64(script.utf8.count) * 31 + 5)
        let fresh = ShapeCache(capacity: 10_000)
        // A tab size of 3 as well as the default: tab stops are derived from the
        // primary font's space, which the cache must not change.
        for style in [TextStyle(fontSize: 17), TextStyle(fontSize: 13, lineHeight: .fixed(19), tabSize: 3)] {
            for _ in 0..<2 {
                // The script alone, then mixed with the others (other contexts for the same words).
                let text = RandomTexts.text(&random, length: 16, scripts: [script])
                    + RandomTexts.text(&random, length: 6)
                let reference = try PreparedText(text, style: style, cache: nil)
                let widths = try (0..<4).map { _ in try RandomTexts.width(&random, for: reference) } + [0]
                let preparations = try [1, 2, 3].map { _ in try PreparedText(text, style: style, cache: fresh) }
                    + [try PreparedText(text, style: style, cache: .shared), try PreparedText(text, style: style)]
                for width in widths {
                    for mode in [LineBreakMode.byWordWrapping, width < 50 ? .byCharWrapping : .byTruncatingMiddle] {
                        let expected = try Snapshot(reference, width: width, mode: mode)
                        for (pass, prepared) in preparations.enumerated() {
                            #expect(try Snapshot(prepared, width: width, mode: mode) == expected,
                                    "pass \(pass) \(mode) at \(width): \(text.debugDescription)")
                        }
                    }
                }
                #expect(reference.unwrappedWidth == preparations.last?.unwrappedWidth)
            }
        }
        // The comparison above only means something if the cache served words.
        #expect(fresh.statistics.hits > 0,
                "\(fresh.statistics)")
    }
}
