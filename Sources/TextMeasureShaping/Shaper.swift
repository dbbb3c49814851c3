import CHarfBuzz
import CTextICU
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shapes font runs with HarfBuzz and reports each cluster's advance.
///
/// One `hb_shape` per run (not per word: each call costs ~0.5–1 µs on its own).
/// The HarfBuzz buffer is scratch space kept per thread, so shaping allocates
/// nothing once a thread has shaped its longest run; the fonts are immutable and shared.
package struct Shaper {
    private let features: [hb_feature_t]

    /// `features` are HarfBuzz feature strings such as `"-kern"` or `"+smcp"`;
    /// ones HarfBuzz cannot parse are ignored.
    package init(features: [String]) {
        self.features = Self.parse(features: features)
    }

    /// HarfBuzz features from strings such as `"-kern"`; unparsable ones are dropped.
    package static func parse(features: [String]) -> [hb_feature_t] {
        var parsed: [hb_feature_t] = []
        for string in features {
            var feature = hb_feature_t()
            if hb_feature_from_string(string, -1, &feature) != 0 { parsed.append(feature) }
        }
        return parsed
    }

    /// Sets the script of a run (Common when it has none) and its direction: its bidi
    /// level's when it has one, else the script's.
    package static func setSegmentProperties(of buffer: OpaquePointer, script runScript: hb_script_t, bidiLevel: UInt8? = nil) {
        let script = runScript == HB_SCRIPT_INVALID ? HB_SCRIPT_COMMON : runScript
        hb_buffer_set_script(buffer, script)
        let direction = bidiLevel.map { $0 & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR }
            ?? hb_script_get_horizontal_direction(script)
        hb_buffer_set_direction(buffer, direction == HB_DIRECTION_INVALID ? HB_DIRECTION_LTR : direction)
        hb_buffer_guess_segment_properties(buffer)
    }

    /// Shapes `run` of `text` and adds each glyph's advance, in the font's advance
    /// units (`Font.advanceUnitsPerEm`), to `advances[cluster]`, where `cluster` is
    /// the UTF-16 offset of the cluster the glyph belongs to. The whole text is given
    /// as context, so joining scripts shape correctly at run edges.
    ///
    /// `edges[cluster]` gets `ClusterEdge` bits: a cluster starts there, it has more
    /// than one glyph, HarfBuzz says the text may not be cut before it without shaping
    /// differently (kerning, ligatures). `firstGlyphs[cluster]`, when given, gets the
    /// glyph of each single-glyph cluster.
    package func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, with font: Font,
               advances: UnsafeMutablePointer<Int32>, edges: UnsafeMutablePointer<UInt8>,
               firstGlyphs: UnsafeMutablePointer<UInt32>? = nil) {
        let unsafeFlag = HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue
        withGlyphs(of: run, in: text, font: font) { infos, positions in
            for info in infos {
                let cluster = Int(info.cluster)
                var bits = edges[cluster]
                if bits & ClusterEdge.starts != 0 { bits |= ClusterEdge.multipleGlyphs }
                bits |= ClusterEdge.starts
                if info.mask & unsafeFlag != 0 { bits |= ClusterEdge.unsafeToBreak }
                edges[cluster] = bits
                firstGlyphs?[cluster] = info.codepoint
            }
            if let bitmapAdvances = font.bitmapAdvances {
                // Colour-bitmap fonts: the strike's advance, not hmtx (see Font.bitmapAdvances).
                bitmapAdvances.withUnsafeBufferPointer { bitmapAdvances in
                    for info in infos {
                        let glyph = Int(info.codepoint)
                        advances[Int(info.cluster)] &+= glyph < bitmapAdvances.count ? bitmapAdvances[glyph] : 0
                    }
                }
            } else {
                for i in infos.indices { advances[Int(infos[i].cluster)] &+= positions[i].x_advance }
            }
        }
    }

    /// Shapes `run` of `text` with `font` and hands HarfBuzz's glyphs and positions
    /// (in font units, HarfBuzz's order: visual order within the run) to `body`.
    /// They live in a scratch buffer and are valid only inside `body`.
    ///
    /// A run holding a very long stretch of marks is shaped in pieces
    /// (`ShapingPieces`), and `body` is called once per piece, in visual order; the
    /// glyphs of a piece that starts with marks carry the cluster of the base they follow.
    package func withGlyphs(
        of run: FontRun, in text: UnsafeBufferPointer<UInt16>, font: Font,
        _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Void
    ) {
        withThreadBuffer { buffer in
            let cuts = ShapingPieces.cuts(in: text, from: run.start, to: run.end)
            guard !cuts.isEmpty else {
                shapePiece(run.start..<run.end, of: run, in: text, font: font, buffer: buffer, body)
                return
            }
            let starts = [run.start] + cuts, ends = cuts + [run.end]
            // Right to left, the last piece is drawn first: its glyphs wait in copies.
            var waiting: [(infos: [hb_glyph_info_t], positions: [hb_glyph_position_t])] = []
            var anchor: UInt32?
            for (index, start) in starts.enumerated() {
                // A piece starting with marks has no base: no dotted circle for it.
                hb_buffer_set_flags(buffer, index == 0 ? HB_BUFFER_FLAG_DEFAULT : HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE)
                shapePiece(start..<ends[index], of: run, in: text, font: font, buffer: buffer,
                           continuing: anchor) { infos, positions in
                    // Clusters are monotone: the largest is the one the next piece continues.
                    anchor = infos.lazy.map(\.cluster).max() ?? anchor
                    if run.isShapedRightToLeft {
                        waiting.append((Array(infos), Array(positions)))
                    } else {
                        body(infos, positions)
                    }
                }
            }
            hb_buffer_set_flags(buffer, HB_BUFFER_FLAG_DEFAULT)
            for piece in waiting.reversed() {
                piece.infos.withUnsafeBufferPointer { infos in
                    piece.positions.withUnsafeBufferPointer { body(infos, $0) }
                }
            }
        }
    }

    /// One `hb_shape` of `range` of `run`, the whole text as context. With `anchor`,
    /// the range starts inside a cluster cut by `ShapingPieces`: HarfBuzz gives its
    /// leading marks a cluster of their own at the range's start, and they get the
    /// cluster `anchor` of the base they follow.
    private func shapePiece(
        _ range: Range<Int>, of run: FontRun, in text: UnsafeBufferPointer<UInt16>, font: Font, buffer: OpaquePointer,
        continuing anchor: UInt32? = nil,
        _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Void
    ) {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        Self.setSegmentProperties(of: buffer, script: run.script, bidiLevel: run.bidiLevel)
        features.withUnsafeBufferPointer { hb_shape(font.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
        #if DEBUG
        ctx_note_measuring_call()   // for tests (MeasuringProbe); nothing in a release build
        #endif

        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return body(UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
        }
        if let anchor {
            for i in 0..<Int(count) where infos[i].cluster == UInt32(range.lowerBound) { infos[i].cluster = anchor }
        }
        body(UnsafeBufferPointer(start: infos, count: Int(count)), UnsafeBufferPointer(start: positions, count: Int(count)))
    }

    /// Runs `body` with this thread's HarfBuzz buffer, created on first use. The
    /// buffer leaves its slot while in use, so a shaping nested inside `body` (or a
    /// thread with no slot to spare) gets a buffer of its own.
    private func withThreadBuffer<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        let slot = shaperBufferKey.flatMap { pthread_getspecific($0) }
        let buffer: OpaquePointer = slot.map(OpaquePointer.init) ?? hb_buffer_create()
        if slot != nil, let key = shaperBufferKey { pthread_setspecific(key, nil) }
        defer {
            // Back into the empty slot for the next run; or, if the slot is taken, gone.
            let kept = shaperBufferKey.map { key in
                pthread_getspecific(key) == nil && pthread_setspecific(key, UnsafeRawPointer(buffer)) == 0
            } ?? false
            if !kept { hb_buffer_destroy(buffer) }
        }
        return body(buffer)
    }
}

/// The key of each thread's shaping buffer, which is destroyed when its thread
/// exits; nil if the process has run out of thread-specific keys.
private let shaperBufferKey: pthread_key_t? = {
    var key = pthread_key_t()
    guard pthread_key_create(&key, { buffer in hb_buffer_destroy(OpaquePointer(buffer)) }) == 0 else { return nil }
    return key
}()

/// Bits `Shaper.shape` sets per UTF-16 offset in its `edges` buffer.
package enum ClusterEdge {
    /// A glyph cluster starts at this offset.
    package static let starts: UInt8 = 1
    /// Breaking a line before this cluster would change the shaping on either side.
    package static let unsafeToBreak: UInt8 = 2
    /// The cluster starting here has more than one glyph.
    static let multipleGlyphs: UInt8 = 4
}
