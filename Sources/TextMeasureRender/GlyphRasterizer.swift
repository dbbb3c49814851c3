import CFreeType
import TextMeasure

/// Draws glyphs by ID with FreeType's rasterizer, each font at the sizes it is drawn at.
///
/// Outlines are rendered anti-aliased and unhinted, at their exact subpixel
/// position: the advances measuring used are unhinted too, so what is drawn is
/// what was measured. Colour-bitmap fonts (CBDT emoji) are loaded in colour
/// (`FT_LOAD_COLOR`, premultiplied BGRA) from their strike and scaled to the size,
/// as measuring scales their advances.
///
/// Owns one FreeType library and a face per font, opened on first use over the
/// font's own bytes; not shared between threads (FreeType faces are not).
struct GlyphRasterizer: ~Copyable {
    private enum Face {
        case unopened
        case outline(FT_Face)
        /// A bitmap-only face with its strike selected, and that strike's size in px.
        case bitmap(FT_Face, strikeSize: Double)
    }

    /// A font of `fonts` at a size in device pixels (its bits: sizes come from a few styles).
    private struct FaceKey: Hashable {
        var font: Int
        var pixelSize: UInt64
    }

    private let library: FT_Library
    /// Keeps alive the bytes the faces read (FT_New_Memory_Face does not copy them).
    private let fonts: [Font]
    private var faces: [FaceKey: Face] = [:]
    /// Device pixels per px.
    private let scale: Double

    /// `fonts`: what `PlacedGlyph.fontIndex` indexes (`PreparedText.drawingFonts`).
    init(fonts: [Font], scale: Double) throws(RenderError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw .unusableFont(name: "FreeType", code: -1)
        }
        self.library = library
        self.fonts = fonts
        self.scale = scale
    }

    deinit {
        for face in faces.values {
            switch face {
            case .unopened: break
            case .outline(let face), .bitmap(let face, _): FT_Done_Face(face)
            }
        }
        FT_Done_FreeType(library)
    }

    /// Draws `glyph` of font `fontIndex` at `size` px with its origin at (`x`, `baseline`),
    /// in canvas pixels: outlines in `ink`, colour bitmaps in their own colours.
    mutating func draw(_ glyph: UInt32, fontIndex: Int, size: Double, x: Double, baseline: Double, ink: Color,
                       on canvas: inout Canvas) throws(RenderError) {
        guard x.isFinite, baseline.isFinite else { return }
        let pixelSize = size * scale
        switch try face(fontIndex, pixelSize: pixelSize) {
        case .unopened:
            return
        case .outline(let face):
            // Whole pixels go to the bitmap's placement, the fraction to FreeType.
            let left = x.rounded(.down), top = baseline.rounded(.down)
            var delta = FT_Vector(x: FT_Pos(((x - left) * 64).rounded()), y: -FT_Pos(((baseline - top) * 64).rounded()))
            FT_Set_Transform(face, nil, &delta)
            let flags = FT_Int32(FT_LOAD_NO_HINTING) | FT_Int32(FT_LOAD_NO_BITMAP) | FT_Int32(FT_LOAD_RENDER)
            guard FT_Load_Glyph(face, FT_UInt(glyph), flags) == 0 else { return }
            let slot = face.pointee.glyph.pointee
            drawCoverage(slot.bitmap, left: Canvas.pixel(left) + Int(slot.bitmap_left),
                         top: Canvas.pixel(top) - Int(slot.bitmap_top), ink: ink, on: &canvas)
        case .bitmap(let face, let strikeSize):
            guard FT_Load_Glyph(face, FT_UInt(glyph), FT_Int32(FT_LOAD_COLOR)) == 0 else { return }
            let slot = face.pointee.glyph.pointee
            let scale = pixelSize / strikeSize
            drawScaledColor(slot.bitmap, left: x + Double(slot.bitmap_left) * scale,
                            top: baseline - Double(slot.bitmap_top) * scale, scale: scale, on: &canvas)
        }
    }

    private mutating func face(_ index: Int, pixelSize: Double) throws(RenderError) -> Face {
        guard index >= 0, index < fonts.count, pixelSize.isFinite, pixelSize > 0 else { return .unopened }
        let key = FaceKey(font: index, pixelSize: pixelSize.bitPattern)
        if let face = faces[key] { return face }
        let face = try open(fonts[index], pixelSize: pixelSize)
        faces[key] = face
        return face
    }

    /// Sets a variable font's axes as measuring did (`Font.variations`, checked against
    /// the axes when the font loaded), so the outlines drawn are the instance measured.
    private func setVariations(_ variations: [String: Double], on face: FT_Face) {
        var master: UnsafeMutablePointer<FT_MM_Var>?
        guard FT_Get_MM_Var(face, &master) == 0, let master else { return }
        defer { FT_Done_MM_Var(library, master) }
        // Tags shorter than four characters are padded with spaces in the font.
        let values = Dictionary(variations.map { (Self.padded($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        let axes = UnsafeBufferPointer(start: master.pointee.axis, count: Int(master.pointee.num_axis))
        var coordinates = axes.map { axis -> FT_Fixed in
            let tag = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: axis.tag >> $0) }, as: UTF8.self)
            guard let value = values[tag] else { return axis.def }
            return FT_Fixed((value * 65536).rounded())
        }
        FT_Set_Var_Design_Coordinates(face, FT_UInt(coordinates.count), &coordinates)
    }

    private static func padded(_ tag: String) -> String {
        tag + String(repeating: " ", count: max(0, 4 - tag.utf8.count))
    }

    private func open(_ font: Font, pixelSize: Double) throws(RenderError) -> Face {
        let data = font.unsafeFileData
        var opened: FT_Face?
        let error = FT_New_Memory_Face(library, data.bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self),
                                       FT_Long(data.bytes.count), FT_Long(data.faceIndex), &opened)
        guard error == 0, let face = opened else { throw .unusableFont(name: font.name, code: Int32(error)) }
        if !font.variations.isEmpty { setVariations(font.variations, on: face) }
        if cft_is_scalable(face) != 0 {
            FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72)
            return .outline(face)
        }
        // The largest strike, the one measuring took the advances from (see Font.bitmapAdvances).
        let count = Int(face.pointee.num_fixed_sizes)
        guard count > 0, let sizes = face.pointee.available_sizes else {
            FT_Done_Face(face)
            throw .unusableFont(name: font.name, code: -1)
        }
        var chosen = 0
        for i in 0..<count where sizes[i].y_ppem > sizes[chosen].y_ppem { chosen = i }
        FT_Select_Size(face, FT_Int(chosen))
        return .bitmap(face, strikeSize: Double(sizes[chosen].y_ppem) / 64)
    }

    /// Paints an 8-bit coverage bitmap in `ink`, its top-left pixel at (`left`, `top`).
    private func drawCoverage(_ bitmap: FT_Bitmap, left: Int, top: Int, ink: Color, on canvas: inout Canvas) {
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), let buffer = bitmap.buffer else { return }
        for row in 0..<Int(bitmap.rows) {
            // FreeType: adding the pitch always moves down one row, whatever its sign.
            let line = buffer + row * Int(bitmap.pitch)
            for column in 0..<Int(bitmap.width) where line[column] != 0 {
                canvas.blend(x: left + column, y: top + row, ink, alpha: Int(line[column]))
            }
        }
    }

    /// Paints a premultiplied BGRA bitmap scaled by `scale`, its top-left corner at
    /// (`left`, `top`): each canvas pixel takes the area-weighted average of the
    /// bitmap pixels under it, so a 109 px emoji shrinks to 17 px without aliasing.
    private func drawScaledColor(_ bitmap: FT_Bitmap, left: Double, top: Double, scale: Double,
                                 on canvas: inout Canvas) {
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer,
              scale > 0, left.isFinite, top.isFinite else { return }
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        let x0 = Canvas.pixel(left.rounded(.down)), x1 = Canvas.pixel((left + Double(width) * scale).rounded(.up))
        let y0 = Canvas.pixel(top.rounded(.down)), y1 = Canvas.pixel((top + Double(rows) * scale).rounded(.up))
        for y in Self.span(y0, y1, within: canvas.height) {
            // The canvas pixel's footprint in bitmap coordinates.
            let sy0 = (Double(y) - top) / scale, sy1 = (Double(y + 1) - top) / scale
            for x in Self.span(x0, x1, within: canvas.width) {
                let sx0 = (Double(x) - left) / scale, sx1 = (Double(x + 1) - left) / scale
                var blue = 0.0, green = 0.0, red = 0.0, alpha = 0.0
                for sy in Self.span(Int(sy0.rounded(.down)), Int(sy1.rounded(.up)), within: rows) {
                    let wy = min(sy1, Double(sy + 1)) - max(sy0, Double(sy))
                    let line = buffer + sy * pitch
                    for sx in Self.span(Int(sx0.rounded(.down)), Int(sx1.rounded(.up)), within: width) {
                        let weight = wy * (min(sx1, Double(sx + 1)) - max(sx0, Double(sx)))
                        blue += weight * Double(line[sx * 4])
                        green += weight * Double(line[sx * 4 + 1])
                        red += weight * Double(line[sx * 4 + 2])
                        alpha += weight * Double(line[sx * 4 + 3])
                    }
                }
                // Normalise by the whole footprint: pixels half off the bitmap come out half covered.
                let area = (sx1 - sx0) * (sy1 - sy0)
                canvas.blendPremultiplied(x: x, y: y, red: Int(red / area * 255), green: Int(green / area * 255),
                                          blue: Int(blue / area * 255), alpha: Int((alpha / area).rounded()))
            }
        }
    }

    /// `start..<end` clipped to `0..<limit`; empty when they do not meet.
    private static func span(_ start: Int, _ end: Int, within limit: Int) -> Range<Int> {
        let lower = max(start, 0), upper = min(end, limit)
        return lower < upper ? lower..<upper : 0..<0
    }
}
