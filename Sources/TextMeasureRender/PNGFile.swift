import CPNG

extension Canvas {
    /// Writes the canvas to `path` as an 8-bit RGB PNG, with libpng.
    public func writePNG(to path: String) throws(RenderError) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        let written = pixels.withUnsafeBytes { bytes in
            png_image_write_to_file(&image, path, 0, bytes.baseAddress, png_int_32(width * 3), nil)
        }
        // libpng's own words, e.g. "png_image_write_to_file: open failed".
        let reason = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        png_image_free(&image)
        guard written != 0 else { throw .pngWriteFailed(path: path, reason: reason) }
    }
}
