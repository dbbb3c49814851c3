/// The table directory of an OpenType or TrueType font (or of one face in a
/// collection), read only to check that every table lies inside the data.
///
/// FreeType reads tables lazily and HarfBuzz drops a table that does not fit, so a
/// truncated file can load and then measure without its kerning or ligatures: a
/// silently wrong width. Browsers refuse such a font (OpenType Sanitizer); so do we.
enum TableDirectory {
    /// Throws `FontError.truncated` naming the first table that does not fit in
    /// `data`. Other formats (and directories too damaged to read) are left to FreeType.
    static func checkTablesFit(in data: UnsafeRawBufferPointer, faceIndex: Int) throws(FontError) {
        var directory = 0
        if data.bigEndianUInt32(at: 0) == 0x7474_6366 {   // 'ttcf': a collection
            guard let offset = data.bigEndianUInt32(at: 12 + 4 * faceIndex) else { throw .truncated(table: "ttcf") }
            directory = Int(offset)
        }
        // TrueType outlines (1.0 or 'true'), CFF outlines ('OTTO'); not WOFF or others.
        guard let version = data.bigEndianUInt32(at: directory),
              [0x0001_0000, 0x7472_7565, 0x4F54_544F].contains(version) else { return }
        guard let tableCount = data.bigEndianUInt16(at: directory + 4) else { return }
        for index in 0..<Int(tableCount) {
            let record = directory + 12 + 16 * index
            guard let tag = data.bigEndianUInt32(at: record), let offset = data.bigEndianUInt32(at: record + 8),
                  let length = data.bigEndianUInt32(at: record + 12) else { throw .truncated(table: "table directory") }
            if UInt64(offset) + UInt64(length) > UInt64(data.count) { throw .truncated(table: tagName(tag)) }
        }
    }

    private static func tagName(_ tag: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> UInt32($0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "?" }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func bigEndianUInt32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(self[offset + $1]) }
    }

    fileprivate func bigEndianUInt16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= count - 2 else { return nil }
        return UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }
}
