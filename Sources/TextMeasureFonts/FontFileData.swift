import CHarfBuzz

extension Font {
    /// The bytes of the font file this face was loaded from, and the face's index in
    /// it: what a rasterizer needs to draw the glyphs this font shapes, for example
    /// FreeType's `FT_New_Memory_Face(library, bytes, count, faceIndex, &face)`.
    ///
    /// The buffer is the font's own immutable storage, not a copy: it stays valid as
    /// long as this font is alive, so keep a reference to the font while using it.
    public var unsafeFileData: (bytes: UnsafeRawBufferPointer, faceIndex: Int) {
        let face = hb_font_get_face(hbFont)
        // A face made from a blob hands the whole blob back; our reference is
        // released at once, the face keeps its own.
        let blob = hb_face_reference_blob(face)
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        let data = hb_blob_get_data(blob, &length)
        return (UnsafeRawBufferPointer(start: data, count: Int(length)), Int(hb_face_get_index(face)))
    }
}
