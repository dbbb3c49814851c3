import CHarfBuzz
import Synchronization

/// The glyphs a prepared text is drawn with, as HarfBuzz gave them, run by run: shaped
/// once, by the first `glyphs(in:)` (Placement), and kept for every later drawing, so
/// that drawing at another width or alignment shapes nothing. Preparing makes an empty
/// store and shapes nothing for it: measuring never pays for drawing.
package final class GlyphStore: Sendable {
    private final class Box: Sendable {
        let glyphs: StoredGlyphs
        init(_ glyphs: StoredGlyphs) { self.glyphs = glyphs }
    }

    /// Set once, without a lock (a contended `Mutex` fails in some Linux sandboxes).
    private let stored = AtomicLazyReference<Box>()

    init() {}

    /// The stored glyphs, made by `make` the first time (two threads drawing at once may
    /// both shape; the first to store is kept, and both answer with it).
    package func glyphs(_ make: () -> StoredGlyphs) -> StoredGlyphs {
        if let box = stored.load() { return box.glyphs }
        return stored.storeIfNil(Box(make())).glyphs
    }
}

/// One text's glyphs, run after run (`GlyphStore`).
package struct StoredGlyphs: Sendable {
    /// A glyph as HarfBuzz positioned it, in font units; `cluster` is the UTF-16 offset of its cluster.
    package struct Glyph: Sendable {
        package var id: UInt32
        package var cluster: Int32
        package var advance: Int32
        package var xOffset: Int32
        package var yOffset: Int32

        package init(_ info: hb_glyph_info_t, _ position: hb_glyph_position_t) {
            id = info.codepoint
            cluster = Int32(truncatingIfNeeded: info.cluster)
            (advance, xOffset, yOffset) = (position.x_advance, position.x_offset, position.y_offset)
        }
    }

    /// A run: its font (an index into `PreparedText.drawingFonts`), its direction and its glyphs.
    package struct Run: Sendable {
        package var fontIndex: Int
        package var isRightToLeft: Bool
        package var glyphs: Range<Int>

        package init(fontIndex: Int, isRightToLeft: Bool, glyphs: Range<Int>) {
            self.fontIndex = fontIndex
            self.isRightToLeft = isRightToLeft
            self.glyphs = glyphs
        }
    }

    /// The fonts runs are drawn in (`PreparedText.drawingFonts`) and each one's size in px.
    package var fonts: [Font] = []
    package var sizes: [Double] = []
    package var runs: [Run] = []
    package var glyphs: [Glyph] = []
    /// "…" and the hyphen, each shaped alone in its font (`Ellipsis`, `Hyphen`).
    package var ellipsis: [Glyph] = []
    package var hyphen: [Glyph] = []

    package init() {}
}
