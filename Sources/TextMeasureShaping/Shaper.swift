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
    /// Whether no feature turns on a vertical form (`vert`, `vrt2`), so that the
    /// font set's `nominalGlyphs` are what HarfBuzz gives.
    private let keepsVerticalFormsOff: Bool

    /// How many code units of nominal glyphs in a row, with text to shape on both
    /// sides, are written directly rather than shaped with that text: fewer cost less
    /// in the one `hb_shape` around them (about 45 ns a letter) than as the cut
    /// between two (a fixed ~0.5 µs).
    static let shortestNominalStretch = 8

    /// `features` are HarfBuzz feature strings such as `"-kern"` or `"+smcp"`;
    /// ones HarfBuzz cannot parse are ignored.
    package init(features: [String]) {
        self.features = Self.parse(features: features)
        keepsVerticalFormsOff = !self.features.contains { $0.value != 0 && NominalGlyph.verticalFeatures.contains($0.tag) }
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
    /// glyph of each single-glyph cluster. With `origin`, the three hold the offsets
    /// from `origin` on (`advances[0]` is offset `origin`'s), for a caller whose scratch
    /// covers only part of the text.
    package func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, with font: Font,
               advances: UnsafeMutablePointer<Int32>, edges: UnsafeMutablePointer<UInt8>,
               firstGlyphs: UnsafeMutablePointer<UInt32>? = nil, origin: Int = 0) {
        shape(run, of: text, with: font, advances: advances, edges: edges, firstGlyphs: firstGlyphs, origin: origin,
              lent: nil)
    }

    /// The same in `lent`, a HarfBuzz buffer the caller holds, or this thread's buffer.
    private func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, with font: Font,
                       advances: UnsafeMutablePointer<Int32>, edges: UnsafeMutablePointer<UInt8>,
                       firstGlyphs: UnsafeMutablePointer<UInt32>?, origin: Int, lent: OpaquePointer?) {
        if let bitmapAdvances = font.bitmapAdvances {
            bitmapAdvances.withUnsafeBufferPointer { bitmapAdvances in
                shape(run, of: text, hbFont: font.hbFont, bitmapAdvances: bitmapAdvances,
                      advances: advances, edges: edges, firstGlyphs: firstGlyphs, origin: origin, lent: lent)
            }
        } else {
            shape(run, of: text, hbFont: font.hbFont, bitmapAdvances: nil,
                  advances: advances, edges: edges, firstGlyphs: firstGlyphs, origin: origin, lent: lent)
        }
    }

    /// `shape(_:of:with:advances:edges:firstGlyphs:)` given what it reads of the font:
    /// its HarfBuzz font and its strike's advances (`Font.bitmapAdvances`), so that the
    /// closure below captures no reference (capturing the font retained it per run).
    private func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, hbFont: OpaquePointer,
                       bitmapAdvances: UnsafeBufferPointer<Int32>?,
                       advances: UnsafeMutablePointer<Int32>, edges: UnsafeMutablePointer<UInt8>,
                       firstGlyphs: UnsafeMutablePointer<UInt32>?, origin: Int, lent: OpaquePointer?) {
        withGlyphs(of: run, in: text, hbFont: hbFont, lent: lent) { infos, positions in
            if let bitmapAdvances {
                for info in infos { Self.mark(info, edges: edges, firstGlyphs: firstGlyphs, origin: origin) }
                // Colour-bitmap fonts: the strike's advance, not hmtx (see Font.bitmapAdvances).
                for info in infos {
                    let glyph = Int(info.codepoint)
                    advances[Int(info.cluster) &- origin] &+= glyph < bitmapAdvances.count ? bitmapAdvances[glyph] : 0
                }
            } else {
                // One pass over the glyphs, not one for the edges and one for the advances.
                for i in infos.indices {
                    Self.mark(infos[i], edges: edges, firstGlyphs: firstGlyphs, origin: origin)
                    advances[Int(infos[i].cluster) &- origin] &+= positions[i].x_advance
                }
            }
        }
    }

    /// Writes the `ClusterEdge` bits of `info`'s glyph to its cluster, and its glyph.
    @inline(__always)
    private static func mark(_ info: hb_glyph_info_t, edges: UnsafeMutablePointer<UInt8>,
                             firstGlyphs: UnsafeMutablePointer<UInt32>?, origin: Int) {
        let cluster = Int(info.cluster) &- origin
        var bits = edges[cluster]
        if bits & ClusterEdge.starts != 0 { bits |= ClusterEdge.multipleGlyphs }
        bits |= ClusterEdge.starts
        if info.mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0 { bits |= ClusterEdge.unsafeToBreak }
        edges[cluster] = bits
        firstGlyphs?[cluster] = info.codepoint
    }

    /// Shapes each of `runs` (in text order, made of the clusters ending at
    /// `clusterEnds`, the first starting at `runs[0].start`) with its font of `fonts`,
    /// as `shape(_:of:with:advances:edges:firstGlyphs:)` does, with the same results;
    /// but a cluster of one code unit with a nominal glyph (`FontSet.nominalGlyphs`)
    /// gets that glyph and its advance directly, and HarfBuzz shapes only the text
    /// between such clusters. That holds in runs of scripts HarfBuzz's default or
    /// Hangul shaper shapes, which change a glyph only by the font's lookups (others
    /// have rules of their own, such as Arabic's fallback forms). The text between is
    /// shaped with the same context: no lookup reaches across a nominal glyph.
    /// `fontList` is `fonts.fonts`, read once for the whole text by the caller (the
    /// getter retains the array at each read). `origin`: as for one run.
    package func shape(_ runs: [FontRun], of text: UnsafeBufferPointer<UInt16>, clusterEnds: UnsafeBufferPointer<Int32>,
                       fonts: FontSet, fontList: [Font], advances: UnsafeMutablePointer<Int32>,
                       edges: UnsafeMutablePointer<UInt8>, firstGlyphs: UnsafeMutablePointer<UInt32>?,
                       origin: Int = 0) {
        // Each run's font borrowed from the list, not copied out of it: a copy was
        // retained per run and released again. The thread's buffer is taken once for
        // all the runs, not once per run (four calls for its thread-specific slot).
        withThreadBuffer { lent in
        fontList.withUnsafeBufferPointer { fontList in
          fonts.nominalGlyphs.withUnsafeBufferPointer { nominal in
            var cluster = 0
            for run in runs {
                guard keepsVerticalFormsOff, !nominal.isEmpty, Self.shapesOnlyByLookups(run.script) else {
                    // Lent without a retain: the list holds the font throughout.
                    Unmanaged.passUnretained(fontList[run.fontIndex])._withUnsafeGuaranteedRef { font in
                        shape(run, of: text, with: font, advances: advances, edges: edges, firstGlyphs: firstGlyphs,
                              origin: origin, lent: lent)
                    }
                    continue
                }
                // Runs are made of whole clusters: find the run's first.
                var start = cluster == 0 ? runs[0].start : Int(clusterEnds[cluster - 1])
                while start < run.start {
                    start = Int(clusterEnds[cluster])
                    cluster += 1
                }
                var shapedTo = run.start   // text before this is shaped or written
                var stretch: Int?          // where the nominal clusters before `start` begin
                while start < run.end {
                    let end = Int(clusterEnds[cluster])
                    let isNominal = end == start + 1 && nominal[Int(text[start])] != 0
                    if !isNominal, let first = stretch {
                        if first == shapedTo || start - first >= Self.shortestNominalStretch {
                            shapePiece(shapedTo..<first, of: run, in: text, font: fontList[run.fontIndex], advances, edges,
                                       firstGlyphs, origin: origin, lent: lent)
                            Self.writeNominal(first..<start, of: text, nominal, advances, edges, firstGlyphs, origin: origin)
                            shapedTo = start
                        }
                        stretch = nil
                    } else if isNominal, stretch == nil {
                        stretch = start
                    }
                    start = end
                    cluster += 1
                }
                if let first = stretch {
                    shapePiece(shapedTo..<first, of: run, in: text, font: fontList[run.fontIndex], advances, edges,
                               firstGlyphs, origin: origin, lent: lent)
                    Self.writeNominal(first..<run.end, of: text, nominal, advances, edges, firstGlyphs, origin: origin)
                } else {
                    shapePiece(shapedTo..<run.end, of: run, in: text, font: fontList[run.fontIndex], advances, edges,
                               firstGlyphs, origin: origin, lent: lent)
                }
            }
          }
        }
        }
    }

    /// `range` of `run` shaped by HarfBuzz, if it is not empty.
    private func shapePiece(_ range: Range<Int>, of run: FontRun, in text: UnsafeBufferPointer<UInt16>, font: Font,
                            _ advances: UnsafeMutablePointer<Int32>, _ edges: UnsafeMutablePointer<UInt8>,
                            _ firstGlyphs: UnsafeMutablePointer<UInt32>?, origin: Int, lent: OpaquePointer) {
        guard !range.isEmpty else { return }
        var piece = run
        piece.start = range.lowerBound
        piece.end = range.upperBound
        shape(piece, of: text, with: font, advances: advances, edges: edges, firstGlyphs: firstGlyphs, origin: origin,
              lent: lent)
    }

    /// What `shape` writes for clusters of one code unit and one glyph, none unsafe to break.
    private static func writeNominal(_ range: Range<Int>, of text: UnsafeBufferPointer<UInt16>,
                                     _ nominal: UnsafeBufferPointer<UInt32>, _ advances: UnsafeMutablePointer<Int32>,
                                     _ edges: UnsafeMutablePointer<UInt8>, _ firstGlyphs: UnsafeMutablePointer<UInt32>?,
                                     origin: Int) {
        for offset in range {
            let entry = nominal[Int(text[offset])]
            advances[offset &- origin] &+= NominalGlyph.advance(entry)
            edges[offset &- origin] |= ClusterEdge.starts
            firstGlyphs?[offset &- origin] = NominalGlyph.glyph(entry)
        }
    }

    /// Whether HarfBuzz shapes `script` with its default shaper or its Hangul one
    /// (`ClusterContext.shapesWithoutContext`; neutral text before any script: Common),
    /// which change a glyph with no lookup only to mirror it, hide a default-ignorable
    /// or compose a cluster: none of that reaches a nominal glyph (see `CTX_ALONE_GRAPHIC`).
    private static func shapesOnlyByLookups(_ script: hb_script_t) -> Bool {
        script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INVALID || ClusterContext.shapesWithoutContext(script)
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
        withGlyphs(of: run, in: text, hbFont: font.hbFont, body)
    }

    /// The same with the font's HarfBuzz font, which the closures below capture
    /// without retaining anything, in `lent` (a buffer the caller holds) or this thread's buffer.
    private func withGlyphs(
        of run: FontRun, in text: UnsafeBufferPointer<UInt16>, hbFont: OpaquePointer, lent: OpaquePointer? = nil,
        _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Void
    ) {
        if let lent {
            withGlyphs(of: run, in: text, hbFont: hbFont, buffer: lent, body)
        } else {
            withThreadBuffer { withGlyphs(of: run, in: text, hbFont: hbFont, buffer: $0, body) }
        }
    }

    /// The same in `buffer`.
    private func withGlyphs(
        of run: FontRun, in text: UnsafeBufferPointer<UInt16>, hbFont: OpaquePointer, buffer: OpaquePointer,
        _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Void
    ) {
        // Most runs are too short to hold a stretch to cut: asked for none, they
        // release no empty array either (a call per run).
        let mayBeCut = run.end - run.start > ShapingPieces.maximumJoiningUnits
        let cuts = mayBeCut ? ShapingPieces.cuts(in: text, from: run.start, to: run.end) : nil
        guard let cuts, !cuts.isEmpty else {
            shapePiece(run.start..<run.end, of: run, in: text, hbFont: hbFont, buffer: buffer, body)
            return
        }
        let starts = [run.start] + cuts, ends = cuts + [run.end]
        // Right to left, the last piece is drawn first: its glyphs wait in copies.
        var waiting: [(infos: [hb_glyph_info_t], positions: [hb_glyph_position_t])] = []
        var anchor: UInt32?
        for (index, start) in starts.enumerated() {
            // A piece starting with marks has no base: no dotted circle for it.
            hb_buffer_set_flags(buffer, index == 0 ? HB_BUFFER_FLAG_DEFAULT : HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE)
            shapePiece(start..<ends[index], of: run, in: text, hbFont: hbFont, buffer: buffer,
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

    /// One `hb_shape` of `range` of `run`, the whole text as context. With `anchor`,
    /// the range starts inside a cluster cut by `ShapingPieces`: HarfBuzz gives its
    /// leading marks a cluster of their own at the range's start, and they get the
    /// cluster `anchor` of the base they follow.
    private func shapePiece(
        _ range: Range<Int>, of run: FontRun, in text: UnsafeBufferPointer<UInt16>, hbFont: OpaquePointer, buffer: OpaquePointer,
        continuing anchor: UInt32? = nil,
        _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Void
    ) {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        Self.setSegmentProperties(of: buffer, script: run.script, bidiLevel: run.bidiLevel)
        features.withUnsafeBufferPointer { hb_shape(hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
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
@usableFromInline
package enum ClusterEdge {
    // Inlinable constants rather than stored `let`s: from another module (preparation
    // tests them per boundary) a stored one is read through a call to its addressor.
    /// A glyph cluster starts at this offset.
    @inlinable package static var starts: UInt8 { 1 }
    /// Breaking a line before this cluster would change the shaping on either side.
    @inlinable package static var unsafeToBreak: UInt8 { 2 }
    /// The cluster starting here has more than one glyph.
    static let multipleGlyphs: UInt8 = 4
}
