import CHarfBuzz

/// Shapes font runs with HarfBuzz and reports each cluster's advance.
///
/// One `hb_shape` per run (not per word: each call costs ~0.5–1 µs on its own).
/// The buffer is scratch space owned by this shaper; a shaper belongs to one
/// preparation at a time, while the fonts it shapes with are shared.
struct Shaper: ~Copyable {
    private let buffer: OpaquePointer
    private let features: [hb_feature_t]

    /// `features` are HarfBuzz feature strings such as `"-kern"` or `"+smcp"`;
    /// ones HarfBuzz cannot parse are ignored.
    init(features: [String]) {
        buffer = hb_buffer_create()
        var parsed: [hb_feature_t] = []
        for string in features {
            var feature = hb_feature_t()
            if hb_feature_from_string(string, -1, &feature) != 0 { parsed.append(feature) }
        }
        self.features = parsed
    }

    deinit { hb_buffer_destroy(buffer) }

    /// Shapes `run` of `text` and adds each glyph's advance, in the font's
    /// advance units (`Font.advanceUnitsPerEm`), to `advances[cluster]`, where
    /// `cluster` is the UTF-16 offset of the cluster the glyph belongs to.
    /// The whole text is given as context, so joining scripts shape correctly at
    /// run edges.
    ///
    /// With `edges`, also marks each UTF-16 offset where a glyph cluster starts
    /// (`ClusterEdge.starts`), where it has more than one glyph, and where HarfBuzz
    /// says breaking before it would change the shaping (`ClusterEdge.unsafeToBreak`:
    /// kerning, ligatures); `firstGlyphs` gets the glyph of each single-glyph cluster.
    func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, with font: Font,
               into advances: UnsafeMutableBufferPointer<Int32>, edges: UnsafeMutableBufferPointer<UInt8>? = nil,
               firstGlyphs: UnsafeMutableBufferPointer<UInt32>? = nil) {
        withGlyphs(of: run, in: text, font: font) { infos, positions in
            if let edges, let firstGlyphs {
                for info in infos {
                    let cluster = Int(info.cluster)
                    if edges[cluster] & ClusterEdge.starts != 0 { edges[cluster] |= ClusterEdge.multipleGlyphs }
                    edges[cluster] |= ClusterEdge.starts
                    firstGlyphs[cluster] = info.codepoint
                    // The glyph flags live in the info's mask (hb_glyph_info_get_glyph_flags).
                    if info.mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0 {
                        edges[cluster] |= ClusterEdge.unsafeToBreak
                    }
                }
            }
            if let bitmapAdvances = font.bitmapAdvances {
                // Colour-bitmap fonts: the strike's advance, not hmtx (see Font.bitmapAdvances).
                for i in infos.indices {
                    let glyph = Int(infos[i].codepoint)
                    let advance = glyph < bitmapAdvances.count ? bitmapAdvances[glyph] : 0
                    advances[Int(infos[i].cluster)] &+= advance
                }
            } else {
                for i in infos.indices {
                    advances[Int(infos[i].cluster)] &+= positions[i].x_advance
                }
            }
        }
    }

    /// Shapes `run` of `text` with `font` and hands HarfBuzz's glyphs and positions
    /// (in font units, HarfBuzz's order: visual order within the run) to `body`.
    /// They live in this shaper's buffer and are valid only inside `body`.
    func withGlyphs<Result>(
        of run: FontRun, in text: UnsafeBufferPointer<UInt16>, font: Font,
        _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Result
    ) -> Result {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(run.start), Int32(run.end - run.start))
        let script = run.script == HB_SCRIPT_INVALID ? HB_SCRIPT_COMMON : run.script
        hb_buffer_set_script(buffer, script)
        let direction = hb_script_get_horizontal_direction(script)
        hb_buffer_set_direction(buffer, direction == HB_DIRECTION_INVALID ? HB_DIRECTION_LTR : direction)
        hb_buffer_guess_segment_properties(buffer)
        features.withUnsafeBufferPointer { hb_shape(font.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }

        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return body(UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeBufferPointer(start: infos, count: Int(count)),
                    UnsafeBufferPointer(start: positions, count: Int(count)))
    }
}

/// Bits `Shaper.shape` sets per UTF-16 offset in its `edges` buffer.
enum ClusterEdge {
    /// A glyph cluster starts at this offset.
    static let starts: UInt8 = 1
    /// Breaking a line before this cluster would change the shaping on either side.
    static let unsafeToBreak: UInt8 = 2
    /// The cluster starting here has more than one glyph.
    static let multipleGlyphs: UInt8 = 4
}
