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
        let tag = readUInt32(data, 0)
        // 1.0 (TrueType outlines), 'OTTO' (CFF), 'true' (Apple TrueType), 'ttcf' (collection).
        guard let tag, [0x0001_0000, 0x4F54_544F, 0x7472_7565, 0x7474_6366].contains(tag) else {
            throw .unsupportedFont(reason: "not a TrueType/OpenType (sfnt) font")
        }
        var directory = 0
        if tag == 0x7474_6366 {   // 'ttcf': a collection
            let offsetPosition = 12 + 4 * faceIndex
            guard let offset = readUInt32(data, offsetPosition) else { throw .truncated(part: "collection header") }
            directory = Int(offset)
        }
        guard let numTables = readUInt16(data, directory + 4) else { throw .truncated(part: "table directory") }
        for table in 0..<Int(numTables) {
            let record = directory + 12 + 16 * table
            guard let offset = readUInt32(data, record + 8), let length = readUInt32(data, record + 12) else {
                throw .truncated(part: "table directory")
            }
            guard Int(offset) + Int(length) <= data.count else {
                let tag = String(decoding: (0..<4).map { data[record + $0] }, as: UTF8.self)
                throw .truncated(part: "table '\(tag)'")
            }
        }
    }

    private static func readUInt16(_ data: UnsafeRawBufferPointer, _ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= data.count else { return nil }
        return UInt16(data[at]) << 8 | UInt16(data[at + 1])
    }

    private static func readUInt32(_ data: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= data.count else { return nil }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(data[at + $1]) }
    }
}
