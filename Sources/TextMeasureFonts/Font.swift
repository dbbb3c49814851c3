import CFreeType
import CHarfBuzz
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One font face, loaded, validated and immutable.
///
/// Loading reads everything that measuring needs (vertical metrics, the Unicode
/// coverage, bitmap-strike advances for colour-bitmap fonts) through FreeType once,
/// then closes the FreeType face. Shaping uses an immutable HarfBuzz font over the
/// same bytes. After `init` returns nothing in a `Font` changes, so one instance is
/// shared freely between threads with no lock on the measuring path.
///
/// ```swift
/// let font = try Font(contentsOfFile: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf")
/// print(font.metrics.unitsPerEm)   // 1000
/// ```
public final class Font: @unchecked Sendable {
    // @unchecked Sendable: the one stored property that is not Sendable is `hbFont`,
    // an hb_font_t made immutable with hb_font_make_immutable before init returns.
    // HarfBuzz guarantees immutable fonts may be used from many threads at once;
    // it is destroyed exactly once, in deinit.
    package let hbFont: OpaquePointer

    /// A name for messages and diagnostics: the file name, or the name given with the bytes.
    public let name: String
    /// Vertical metrics in font units.
    public let metrics: FontMetrics
    /// Number of glyphs in the face.
    public let glyphCount: Int
    /// The axis values this font is drawn at, where they are not the axis's default:
    /// those it was loaded with (`["wght": 700]`), then for an axis they leave out
    /// what Chromium sets for text with no font-variation-settings (`wght` 400,
    /// `wdth` 100, clamped to the axis; `opsz` the font size once instanced for a
    /// style, see `FontSet.instances(for:)`). Empty for the default instance.
    public let variations: [String: Double]
    /// The face's `opsz` axis when the variations it was loaded with do not name it:
    /// the axis that follows the font size (`instance(opticalSize:)`).
    package let opticalSizeAxis: FontVariation.OpticalSizeAxis?
    package let coverage: CoverageSet
    /// For colour-bitmap fonts (CBDT, sbix) the advance of each glyph in its bitmap
    /// strike, 26.6 pixels at `advanceUnitsPerEm / 64` ppem; `nil` for outline fonts,
    /// whose advances come from HarfBuzz in font units.
    package let bitmapAdvances: [Int32]?
    /// Units per em of the advances this font's shaping yields: `metrics.unitsPerEm`
    /// for outline fonts, the strike's ppem in 26.6 for bitmap fonts.
    package let advanceUnitsPerEm: Int
    /// The character map's glyph of each Latin and punctuation code point, with its
    /// advance: what line-edge widths ask at every kerned boundary (two HarfBuzz calls
    /// there cost some 300 instructions; see `NominalAdvances`).
    package let nominalAdvances: NominalAdvances
    /// Its facts for trimming fullwidth punctuation (`TextStyle.textSpacingTrim`); nil
    /// for a font without `halt`, whose punctuation is never trimmed.
    package let halfWidthPunctuation: HalfWidthPunctuation?

    /// Loads the face at `faceIndex` from a font file (TrueType, OpenType, or a collection)
    /// of at most `maximumFileSize` bytes, at the axis values `variations` of a variable
    /// font (see `init(bytes:name:faceIndex:variations:)`). Errors about the file's data
    /// name the file (`FontError.inFile`).
    public convenience init(contentsOfFile path: String, faceIndex: Int = 0,
                            variations: [String: Double] = [:]) throws(FontError) {
        try self.init(file: FontFile(path: path), faceIndex: faceIndex, variations: variations)
    }

    /// Loads the face at `faceIndex` from font data in memory. The bytes are copied.
    ///
    /// `variations` sets a variable font's axes by tag (`["wght": 700]`): HarfBuzz shapes
    /// with them and the vertical metrics are read at them (MVAR), so what is measured is
    /// the instance drawn. A tag the font has no axis for, or a value outside the axis's
    /// range, is `FontError.invalidVariation` rather than silently ignored or clamped.
    public convenience init(bytes: [UInt8], name: String = "font", faceIndex: Int = 0,
                            variations: [String: Double] = [:]) throws(FontError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let copy = malloc(bytes.count) else { throw .unsupportedFont(reason: "out of memory") }
        bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(start: copy, count: $0.count).copyMemory(from: $0) }
        try self.init(data: UnsafeRawBufferPointer(start: copy, count: bytes.count), name: name,
                      faceIndex: faceIndex, variations: variations, ownsData: true)
    }

    /// Loads a font over static bytes that live as long as the process (the embedded fonts).
    convenience init(staticData data: UnsafeRawBufferPointer, name: String) throws(FontError) {
        try self.init(data: data, name: name, faceIndex: 0, variations: [:], ownsData: false)
    }

    /// With `ownsData`, `data` was allocated with `malloc` and the font takes it over:
    /// the HarfBuzz blob frees it when the font is destroyed, or this init frees it on failure.
    init(data: UnsafeRawBufferPointer, name: String, faceIndex: Int, variations: [String: Double],
         ownsData: Bool) throws(FontError) {
        let facts: FreeTypeFacts
        do throws(FontError) {
            // HarfBuzz blobs are limited to UInt32 lengths.
            guard data.count < Int(UInt32.max) else { throw FontError.unsupportedFont(reason: "larger than 4 GiB") }
            facts = try FreeTypeFacts(data: data, faceIndex: faceIndex)
        } catch {
            if ownsData { free(UnsafeMutableRawPointer(mutating: data.baseAddress)) }
            throw error
        }
        let blob = hb_blob_create(data.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(data.count),
                                  HB_MEMORY_MODE_READONLY, ownsData ? UnsafeMutableRawPointer(mutating: data.baseAddress) : nil,
                                  ownsData ? { free($0) } : nil)
        let face = hb_face_create(blob, UInt32(faceIndex))
        hb_blob_destroy(blob)   // the face holds its own reference
        // FreeType validated the face and HarfBuzz will measure it: they must read the same
        // one. A face HarfBuzz finds empty would measure every glyph as half an em; one with
        // fewer glyphs (a CFF font whose maxp disagrees with its charstrings) or another
        // units per em would measure glyphs or scales FreeType never checked.
        guard hb_face_get_glyph_count(face) == UInt32(clamping: facts.glyphCount),
              hb_face_get_upem(face) == UInt32(clamping: facts.metrics.unitsPerEm),
              let font = hb_font_create(face) else {
            hb_face_destroy(face)
            throw .unsupportedFont(reason: "FreeType and HarfBuzz read it differently")
        }
        // Scale = units per em: advances come back exact, in font units (platform notes §5).
        let upem = Int32(facts.metrics.unitsPerEm)
        hb_font_set_scale(font, upem, upem)
        var metrics = facts.metrics
        // Only a variable face has axes to default: a static one is not searched for them.
        let defaults = facts.isVariable ? FontVariation.unnamedDefaults(face: face, named: variations) : (values: [:], opticalSize: nil)
        let applied = defaults.values.isEmpty ? variations : variations.merging(defaults.values) { named, _ in named }
        if !applied.isEmpty {
            do throws(FontError) {
                metrics = try FontVariation.apply(applied, to: font, face: face, metrics: metrics)
            } catch {
                hb_font_destroy(font)
                hb_face_destroy(face)
                throw error
            }
        }
        hb_face_destroy(face)
        hb_font_make_immutable(font)

        hbFont = font
        self.name = name
        self.metrics = metrics
        self.variations = applied
        opticalSizeAxis = defaults.opticalSize
        glyphCount = facts.glyphCount
        coverage = facts.coverage
        bitmapAdvances = facts.bitmapAdvances
        advanceUnitsPerEm = facts.bitmapStrikePPEM26_6 ?? facts.metrics.unitsPerEm
        nominalAdvances = NominalAdvances(font)
        halfWidthPunctuation = HalfWidthPunctuation(font, coverage: facts.coverage)
    }

    /// Another instance of `parent`'s face, over the same HarfBuzz face and bytes.
    private init(instancing parent: Font, variations: [String: Double]) throws(FontError) {
        let face = hb_font_get_face(parent.hbFont)
        guard let font = hb_font_create(face) else { throw .unsupportedFont(reason: "out of memory") }
        let upem = Int32(parent.metrics.unitsPerEm)
        hb_font_set_scale(font, upem, upem)
        do throws(FontError) {
            metrics = try FontVariation.apply(variations, to: font, face: face, metrics: parent.metrics)
        } catch {
            hb_font_destroy(font)
            throw error
        }
        hb_font_make_immutable(font)
        hbFont = font
        name = parent.name
        self.variations = variations
        opticalSizeAxis = parent.opticalSizeAxis
        glyphCount = parent.glyphCount
        coverage = parent.coverage
        bitmapAdvances = parent.bitmapAdvances
        advanceUnitsPerEm = parent.advanceUnitsPerEm
        nominalAdvances = NominalAdvances(font)   // an instance's advances are its own
        halfWidthPunctuation = parent.halfWidthPunctuation == nil ? nil
            : HalfWidthPunctuation(font, coverage: parent.coverage)
    }

    /// This font with its unnamed `opsz` axis at `size` (px) clamped to the axis, as
    /// Chromium instances it under `font-optical-sizing: auto`; itself when it has no
    /// such axis or the value is the one it has.
    package func instance(opticalSize size: Double) -> Font {
        guard let axis = opticalSizeAxis else { return self }
        let value = min(max(size, axis.range.lowerBound), axis.range.upperBound)
        guard value != (variations["opsz"] ?? axis.defaultValue) else { return self }
        var values = variations
        values["opsz"] = value == axis.defaultValue ? nil : value
        // The value is within the axis, so this cannot fail but for memory.
        return (try? Font(instancing: self, variations: values)) ?? self
    }

    deinit { hb_font_destroy(hbFont) }

    /// Whether the font maps `scalar` to a glyph.
    public func covers(_ scalar: Unicode.Scalar) -> Bool { coverage.contains(scalar.value) }
}

/// What loading reads through FreeType: validation, metrics, coverage and bitmap advances.
/// The FreeType library and face live only inside `init` and are freed there.
private struct FreeTypeFacts {
    var metrics: FontMetrics
    var glyphCount: Int
    var coverage = CoverageSet()
    var bitmapAdvances: [Int32]?
    var bitmapStrikePPEM26_6: Int?
    /// Whether the face has variation axes (fvar).
    var isVariable = false

    init(data: UnsafeRawBufferPointer, faceIndex: Int) throws(FontError) {
        guard data.count > 0 else { throw .empty }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw .unsupportedFont(reason: "FreeType could not be initialised")
        }
        defer { FT_Done_FreeType(library) }

        guard let bytes = data.baseAddress?.assumingMemoryBound(to: FT_Byte.self) else { throw .empty }
        var probe: FT_Face?
        let probeError = FT_New_Memory_Face(library, bytes, FT_Long(data.count), -1, &probe)
        guard probeError == 0, let probe else { throw .invalidFont(code: probeError, reason: Self.message(probeError)) }
        let faceCount = Int(probe.pointee.num_faces)
        FT_Done_Face(probe)
        guard faceIndex >= 0, faceIndex < faceCount else {
            throw .faceIndexOutOfRange(index: faceIndex, faceCount: faceCount)
        }

        try SFNTDirectory.validate(data, faceIndex: faceIndex)

        var faceOut: FT_Face?
        let error = FT_New_Memory_Face(library, bytes, FT_Long(data.count), FT_Long(faceIndex), &faceOut)
        guard error == 0, let face = faceOut else { throw .invalidFont(code: error, reason: Self.message(error)) }
        defer { FT_Done_Face(face) }

        guard FT_Select_Charmap(face, FT_ENCODING_UNICODE) == 0 else {
            throw .unsupportedFont(reason: "no Unicode character map")
        }
        // FreeType reports no units per em for bitmap-only fonts; the head table has them.
        let upem = Int(cft_head(face)?.pointee.Units_Per_EM ?? face.pointee.units_per_EM)
        guard upem > 0, let hhea = cft_hhea(face) else {
            throw .unsupportedFont(reason: "no units per em or no hhea table")
        }
        glyphCount = Int(face.pointee.num_glyphs)
        isVariable = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) != 0

        // hhea by default; OS/2 typographic metrics when the font asks for them (fsSelection bit 7).
        // An hhea with neither ascender nor descender falls back as FreeType's face metrics
        // do, which Chromium's Skia reads: to the typographic values, else to the win ones.
        var ascent = Int(hhea.pointee.Ascender), descent = -Int(hhea.pointee.Descender)
        var lineGap = Int(hhea.pointee.Line_Gap)
        if let os2 = cft_os2(face), os2.pointee.version != 0xFFFF {
            let os2 = os2.pointee
            if os2.fsSelection & (1 << 7) != 0 || ascent == 0 && descent == 0 && (os2.sTypoAscender != 0 || os2.sTypoDescender != 0) {
                ascent = Int(os2.sTypoAscender)
                descent = -Int(os2.sTypoDescender)
                lineGap = Int(os2.sTypoLineGap)
            } else if ascent == 0 && descent == 0 {
                ascent = Int(os2.usWinAscent)
                descent = Int(os2.usWinDescent)
                lineGap = 0
            }
        }
        // A descent reaching above the ascent would make lines of negative height.
        metrics = FontMetrics(unitsPerEm: upem, ascent: ascent, descent: max(descent, -ascent), lineGap: max(0, lineGap))

        var glyphIndex: FT_UInt = 0
        var code = FT_Get_First_Char(face, &glyphIndex)
        // Codes come in ascending order; past U+10FFFF a (malformed) cmap could go on
        // for billions of them, none a Unicode scalar.
        while glyphIndex != 0, code < 0x110000 {
            coverage.insert(UInt32(truncatingIfNeeded: code))
            code = FT_Get_Next_Char(face, code, &glyphIndex)
        }

        if cft_is_scalable(face) == 0 {
            guard cft_has_fixed_sizes(face) != 0, face.pointee.num_fixed_sizes > 0 else {
                throw .unsupportedFont(reason: "neither outlines nor bitmap strikes")
            }
            try readBitmapAdvances(face)
        }
    }

    /// Colour-bitmap fonts (Noto Color Emoji: one 109 ppem CBDT strike) are measured
    /// the way browsers draw them: the strike's advance scaled to the requested size,
    /// not the `hmtx` advance. Only metrics are loaded, no bitmap is decoded.
    private mutating func readBitmapAdvances(_ face: FT_Face) throws(FontError) {
        guard let sizes = face.pointee.available_sizes else { throw .unsupportedFont(reason: "no bitmap strikes") }
        var best = 0
        for i in 0..<Int(face.pointee.num_fixed_sizes) where sizes[i].y_ppem > sizes[best].y_ppem { best = i }
        // The strike's ppem divides every advance: a zero one would make widths infinite.
        guard sizes[best].y_ppem > 0, FT_Select_Size(face, FT_Int(best)) == 0 else {
            throw .unsupportedFont(reason: "bitmap strike cannot be selected")
        }
        let flags = FT_Int32(FT_LOAD_COLOR) | FT_Int32(FT_LOAD_BITMAP_METRICS_ONLY)
        var advances = [Int32](repeating: 0, count: glyphCount)
        for gid in 0..<glyphCount where FT_Load_Glyph(face, FT_UInt(gid), flags) == 0 {
            advances[gid] = Int32(truncatingIfNeeded: face.pointee.glyph.pointee.advance.x)
        }
        bitmapAdvances = advances
        bitmapStrikePPEM26_6 = Int(sizes[best].y_ppem)
    }

    private static func message(_ error: FT_Error) -> String {
        if let text = cft_error_message(error) { return String(cString: text) }
        return "error \(error)"
    }
}

/// For the code points of Latin (U+0000–U+017F) and of general punctuation (U+2000–U+206F),
/// what HarfBuzz answers for a font: `hb_font_get_nominal_glyph`, and
/// `hb_font_get_glyph_h_advance` of that glyph, read once when the font is loaded (some
/// 500 code points, 4 KB). The font is immutable, so the answers never change.
package struct NominalAdvances: Sendable {
    /// Per code point (`index(of:)`): bit 63 set when the font maps it, the glyph in
    /// bits 32–62, the advance's bit pattern below.
    private let entries: [UInt64]

    private static let latinEnd = 0x180
    private static let punctuation = 0x2000..<0x2070

    private static func index(of unit: UInt16) -> Int? {
        let value = Int(unit)
        if value < latinEnd { return value }
        return punctuation.contains(value) ? latinEnd + value - punctuation.lowerBound : nil
    }

    init(_ font: OpaquePointer) {
        var entries = [UInt64](repeating: 0, count: Self.latinEnd + Self.punctuation.count)
        for value in Array(0..<Self.latinEnd) + Array(Self.punctuation) {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font, hb_codepoint_t(value), &glyph) != 0,
                  let index = Self.index(of: UInt16(value)) else { continue }
            let advance = UInt32(bitPattern: hb_font_get_glyph_h_advance(font, glyph))
            entries[index] = 1 << 63 | UInt64(glyph & 0x7FFF_FFFF) << 32 | UInt64(advance)
        }
        self.entries = entries
    }

    /// Whether the table holds `unit`'s answers at all.
    package func holds(_ unit: UInt16) -> Bool { Self.index(of: unit) != nil }

    /// The advance of `glyph` when it is `unit`'s nominal glyph, nil when it is another glyph
    /// (or `unit` has none); `unit` must be one the table `holds`.
    package func advance(of glyph: UInt32, for unit: UInt16) -> Int32? {
        guard let index = Self.index(of: unit) else { return nil }
        let entry = entries[index]
        guard entry >> 63 != 0, UInt32(truncatingIfNeeded: entry >> 32) & 0x7FFF_FFFF == glyph else { return nil }
        return Int32(bitPattern: UInt32(truncatingIfNeeded: entry))
    }
}
