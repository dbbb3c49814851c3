#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TextMeasure

/// A font file is checked from its first bytes before it is read whole, and every
/// error about its data names the file.
@Suite struct FontFileTests {
    /// A sparse file of `size` zero bytes after `header`, removed after `body`.
    func withSparseFile<T>(size: Int, header: [UInt8] = [], _ body: (String) throws -> T) throws -> T {
        try FontFiles.withTemporaryFile(header) { path in
            #expect(truncate(path, off_t(size)) == 0)
            return try body(path)
        }
    }

    @Test func fileLargerThanTheLimitIsRefusedUnread() throws {
        let size = Font.maximumFileSize + 1
        _ = try withSparseFile(size: size) { path in
            let error = #expect(throws: FontError.self) { try Font(contentsOfFile: path) }
            #expect(error == .inFile(path: path, error: .unsupportedFont(
                reason: "\(size) bytes, larger than the 256 MiB a font file may have")))
        }
    }

    /// 200 MB that starts like no font: refused from its first four bytes.
    @Test func largeFileThatIsNoFontIsRefusedFromItsHeader() throws {
        _ = try withSparseFile(size: 200 << 20, header: Array("GIF89a".utf8)) { path in
            #expect(throws: FontError.inFile(path: path, error: .unsupportedFont(reason: "not a TrueType/OpenType (sfnt) font"))) {
                try Font(contentsOfFile: path)
            }
        }
    }

    /// A font whose directory lists tables past the end of the file: refused from the directory.
    @Test func truncatedFileIsRefusedFromItsDirectory() throws {
        let full = try #require(FontFiles.bytes("NotoSans-Regular.ttf"))
        _ = try FontFiles.withTemporaryFile(Array(full[..<(full.count / 2)])) { path in
            #expect(throws: FontError.inFile(path: path, error: .truncated(part: "table 'DSIG'"))) {
                try Font(contentsOfFile: path)
            }
        }
    }

    @Test func errorsNameTheFile() throws {
        let hebrew = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        _ = try FontFiles.withTemporaryFile(hebrew) { path in
            let error = #expect(throws: FontError.self) { try Font(contentsOfFile: path, faceIndex: 3) }
            #expect(error == .inFile(path: path, error: .faceIndexOutOfRange(index: 3, faceCount: 1)))
            #expect(String(describing: error!).hasPrefix("font file \(path): "))
        }
        _ = try FontFiles.withTemporaryFile([]) { path in
            let error = #expect(throws: FontError.self) { try Font(contentsOfFile: path) }
            #expect(error.map(String.init(describing:)) == "font file \(path): font data is empty")
        }
    }
}
