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
/// The HarfBuzz buffer is scratch space kept per thread, so preparing a text
/// allocates none; the fonts are immutable and shared.
struct Shaper {
    private let features: [hb_feature_t]

    /// `features` are HarfBuzz feature strings such as `"-kern"` or `"+smcp"`;
    /// ones HarfBuzz cannot parse are ignored.
    init(features: [String]) {
        self.features = Self.parse(features: features)
    }

    /// HarfBuzz features from strings such as `"-kern"`; unparsable ones are dropped.
    static func parse(features: [String]) -> [hb_feature_t] {
        var parsed: [hb_feature_t] = []
        for string in features {
            var feature = hb_feature_t()
            if hb_feature_from_string(string, -1, &feature) != 0 { parsed.append(feature) }
        }
        return parsed
    }

    /// Sets the script of a run (Common when it has none) and the script's direction.
    static func setSegmentProperties(of buffer: OpaquePointer, script runScript: hb_script_t) {
        let script = runScript == HB_SCRIPT_INVALID ? HB_SCRIPT_COMMON : runScript
        hb_buffer_set_script(buffer, script)
        let direction = hb_script_get_horizontal_direction(script)
        hb_buffer_set_direction(buffer, direction == HB_DIRECTION_INVALID ? HB_DIRECTION_LTR : direction)
        hb_buffer_guess_segment_properties(buffer)
    }

    /// Shapes `run` of `text` and adds each glyph's advance, in the font's advance
    /// units (`Font.advanceUnitsPerEm`), to `advances[cluster]`, where `cluster` is
    /// the UTF-16 offset of the cluster the glyph belongs to; sets
    /// `unsafeToBreak[cluster]` when HarfBuzz says the text may not be cut before
    /// that cluster without shaping differently. The whole text is given as context,
    /// so joining scripts shape correctly at run edges.
    func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, with font: Font,
               advances: UnsafeMutablePointer<Int32>, unsafeToBreak: UnsafeMutablePointer<Bool>) {
        withThreadBuffer { buffer in
            shape(run, of: text, with: font, in: buffer, advances: advances, unsafeToBreak: unsafeToBreak)
        }
    }

    private func shape(_ run: FontRun, of text: UnsafeBufferPointer<UInt16>, with font: Font, in buffer: OpaquePointer,
                       advances: UnsafeMutablePointer<Int32>, unsafeToBreak: UnsafeMutablePointer<Bool>) {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(run.start), Int32(run.end - run.start))
        Self.setSegmentProperties(of: buffer, script: run.script)
        features.withUnsafeBufferPointer { hb_shape(font.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
        ctx_note_measuring_call()

        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        let unsafeFlag = HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue
        if let bitmapAdvances = font.bitmapAdvances {
            // Colour-bitmap fonts: the strike's advance, not hmtx (see Font.bitmapAdvances).
            bitmapAdvances.withUnsafeBufferPointer { bitmapAdvances in
                for i in 0..<Int(count) {
                    let glyph = Int(infos[i].codepoint), cluster = Int(infos[i].cluster)
                    advances[cluster] &+= glyph < bitmapAdvances.count ? bitmapAdvances[glyph] : 0
                    if infos[i].mask & unsafeFlag != 0 { unsafeToBreak[cluster] = true }
                }
            }
        } else {
            for i in 0..<Int(count) {
                let cluster = Int(infos[i].cluster)
                advances[cluster] &+= positions[i].x_advance
                if infos[i].mask & unsafeFlag != 0 { unsafeToBreak[cluster] = true }
            }
        }
    }

    /// Runs `body` with this thread's HarfBuzz buffer, created on first use; with a
    /// buffer of its own should the thread have no room for one.
    private func withThreadBuffer(_ body: (OpaquePointer) -> Void) {
        if let key = shaperBufferKey, let buffer = pthread_getspecific(key) { return body(OpaquePointer(buffer)) }
        let buffer: OpaquePointer = hb_buffer_create()
        body(buffer)
        if let key = shaperBufferKey, pthread_setspecific(key, UnsafeRawPointer(buffer)) == 0 { return }
        hb_buffer_destroy(buffer)
    }
}

/// The key of each thread's shaping buffer, which is destroyed when its thread
/// exits; nil if the process has run out of thread-specific keys.
private let shaperBufferKey: pthread_key_t? = {
    var key = pthread_key_t()
    guard pthread_key_create(&key, { buffer in hb_buffer_destroy(OpaquePointer(buffer)) }) == 0 else { return nil }
    return key
}()
