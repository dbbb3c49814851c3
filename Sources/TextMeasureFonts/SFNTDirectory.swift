/// Checks an sfnt (TrueType/OpenType) file's table directory against its length.
///
/// FreeType reads tables lazily, so it accepts a file cut short as long as its first
/// tables are intact; measuring would later read past the end or find glyphs
/// missing. Checking that every table the directory lists lies inside the data
/// catches truncation at load time, where it can be reported.
package enum SFNTDirectory {
    /// Throws `FontError.unsupportedFont` for data that is not an sfnt font (HarfBuzz
    /// shapes only those: not WOFF, Type 1 or bitmap formats FreeType also reads), and
    /// `FontError.truncated` if a table of face `faceIndex` extends past the data.
    static func validate(_ data: UnsafeRawBufferPointer, faceIndex: Int) throws(FontError) {
        try validate(length: data.count, faceIndex: faceIndex) { offset, count in
            Array(data[offset..<(offset + count)])
        }
    }

    /// The same check from the header and table directory alone: `read(offset, count)`
    /// gives those bytes of data `length` bytes long, and is asked only for ranges
    /// inside it. A font file is checked this way before it is read whole.
    static func validate(length: Int, faceIndex: Int,
                         read: (_ offset: Int, _ count: Int) throws(FontError) -> [UInt8]) throws(FontError) {
        func uint(_ at: Int, _ size: Int) throws(FontError) -> UInt32? {
            guard at >= 0, at <= length - size else { return nil }
            return try read(at, size).reduce(0) { $0 << 8 | UInt32($1) }
        }
        let tag = try uint(0, 4)
        // 1.0 (TrueType outlines), 'OTTO' (CFF), 'true' (Apple TrueType), 'ttcf' (collection).
        guard let tag, [0x0001_0000, 0x4F54_544F, 0x7472_7565, 0x7474_6366].contains(tag) else {
            throw .unsupportedFont(reason: "not a TrueType/OpenType (sfnt) font")
        }
        var directory = 0
        if tag == 0x7474_6366 {   // 'ttcf': a collection
            guard let faceCount = try uint(8, 4) else { throw .truncated(part: "collection header") }
            guard faceIndex >= 0, faceIndex < Int(faceCount) else {
                throw .faceIndexOutOfRange(index: faceIndex, faceCount: Int(faceCount))
            }
            guard let offset = try uint(12 + 4 * faceIndex, 4) else { throw .truncated(part: "collection header") }
            directory = Int(offset)
        } else if faceIndex != 0 {
            throw .faceIndexOutOfRange(index: faceIndex, faceCount: 1)
        }
        guard let numTables = try uint(directory + 4, 2) else { throw .truncated(part: "table directory") }
        for table in 0..<Int(numTables) {
            let record = directory + 12 + 16 * table
            guard record <= length - 16 else { throw .truncated(part: "table directory") }
            let fields = try read(record, 16)
            let offset = fields[8..<12].reduce(0) { $0 << 8 | Int($1) }
            let tableLength = fields[12..<16].reduce(0) { $0 << 8 | Int($1) }
            guard offset + tableLength <= length else {
                throw .truncated(part: "table '\(String(decoding: fields[0..<4], as: UTF8.self))'")
            }
        }
    }
}
