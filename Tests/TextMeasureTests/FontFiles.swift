#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Font files for robustness tests, made from the repository's fonts at test time
/// (no binary fixtures): collections, WOFF wrappers, truncations, temporary files.
enum FontFiles {
    /// The bytes of one of the embedded fonts, e.g. "NotoSans-Regular.ttf".
    static func bytes(_ name: String) -> [UInt8]? { readBytes(packageRoot + "/Fonts/" + name) }

    /// A TrueType collection ('ttcf') holding `fonts` in order: each font's table
    /// directory is copied and its table offsets moved to where the font now lies.
    static func collection(_ fonts: [[UInt8]]) -> [UInt8] {
        var file: [UInt8] = Array("ttcf".utf8)
        append32(0x0001_0000, to: &file)
        append32(UInt32(fonts.count), to: &file)
        let offsetsAt = file.count
        file += [UInt8](repeating: 0, count: 4 * fonts.count)
        for (index, font) in fonts.enumerated() {
            while file.count % 4 != 0 { file.append(0) }
            let base = file.count
            put32(UInt32(base), at: offsetsAt + 4 * index, in: &file)
            file += font
            let tableCount = Int(font[4]) << 8 | Int(font[5])
            for table in 0..<tableCount {
                let field = base + 12 + 16 * table + 8
                put32(read32(file, at: field) + UInt32(base), at: field, in: &file)
            }
        }
        return file
    }

    /// `font` wrapped as WOFF 1.0 with every table stored uncompressed (which the
    /// format allows): a valid web font that FreeType unpacks and HarfBuzz cannot read.
    static func woff(_ font: [UInt8]) -> [UInt8] {
        let tableCount = Int(font[4]) << 8 | Int(font[5])
        let headerSize = 44, entrySize = 20
        var tables: [UInt8] = []
        var directory: [UInt8] = []
        var sfntSize = 12 + 16 * tableCount
        for table in 0..<tableCount {
            let record = 12 + 16 * table
            let offset = Int(read32(font, at: record + 8)), length = Int(read32(font, at: record + 12))
            directory += font[record..<(record + 4)]                                       // tag
            append32(UInt32(headerSize + entrySize * tableCount + tables.count), to: &directory)
            append32(UInt32(length), to: &directory)                                       // stored length
            append32(UInt32(length), to: &directory)                                       // original length
            directory += font[(record + 4)..<(record + 8)]                                 // checksum
            tables += font[offset..<(offset + length)]
            while tables.count % 4 != 0 { tables.append(0) }
            sfntSize += (length + 3) & ~3
        }
        var file: [UInt8] = Array("wOFF".utf8) + font[0..<4]
        append32(UInt32(headerSize + directory.count + tables.count), to: &file)
        file += [UInt8(tableCount >> 8), UInt8(tableCount & 0xFF), 0, 0]
        append32(UInt32(sfntSize), to: &file)
        file += [0, 1, 0, 0]                                      // version 1.0
        file += [UInt8](repeating: 0, count: 20)                  // no metadata, no private data
        return file + directory + tables
    }

    /// Writes `bytes` to a new temporary file, runs `body` with its path, then removes it.
    static func withTemporaryFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        var template = Array("/tmp/textmeasure-test-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw TemporaryFileError() }
        let path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw TemporaryFileError() }
        return try body(path)
    }

    struct TemporaryFileError: Error {}

    private static func read32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    private static func put32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * i)) }
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
    }
}
