import Foundation
import Testing
@testable import TextMeasure

/// The font store of a batch or a server: one font per file however its path is
/// spelled, bounded however many files it is shown, and a bad file read once.
@Suite struct FontCacheTests {
    /// A new temporary directory, removed after `body`.
    func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fontcache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory)
    }

    /// Replaces the contents of `path` in place (the same inode), without Foundation's
    /// `Data.write`, which syncs each file to disk.
    func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw FontFiles.TemporaryFileError() }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard fclose(file) == 0, written == bytes.count else { throw FontFiles.TemporaryFileError() }
    }

    /// 200 spellings of one file (`./././`, `x/../`, symlinks, hard links) are one font, read once.
    @Test func spellingsOfOnePathShareOneFont() throws {
        let bytes = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        try withDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
            try write(bytes, to: directory + "/f.ttf")
            var paths: [String] = []
            for i in 0..<50 {
                paths.append(directory + String(repeating: "/.", count: i) + "/f.ttf")
                paths.append(directory + String(repeating: "/sub/..", count: i + 1) + "/f.ttf")
                try FileManager.default.createSymbolicLink(atPath: directory + "/s\(i).ttf", withDestinationPath: "f.ttf")
                paths.append(directory + "/s\(i).ttf")
                try FileManager.default.linkItem(atPath: directory + "/f.ttf", toPath: directory + "/h\(i).ttf")
                paths.append(directory + "/h\(i).ttf")
            }
            let cache = FontCache()
            let first = try cache.font(atPath: paths[0])
            for path in paths { #expect(try cache.font(atPath: path) === first, "\(path)") }
            let set = try cache.fontSet(paths: [paths[0]])
            for path in paths { #expect(try cache.fontSet(paths: [path]).identity == set.identity) }
            let statistics = cache.statistics
            #expect(statistics.fonts == 1 && statistics.loads == 1 && statistics.bytes == bytes.count)
        }
    }

    /// 10,000 distinct paths (symlinks) to three files, with room for two fonts:
    /// each file read once while its paths are used, never more than two held.
    @Test func tenThousandPathsStayWithinTheByteLimit() throws {
        let names = ["NotoSansHebrew-Regular.ttf", "NotoSansThai-Regular.ttf", "NotoSansArabic-Regular.ttf"]
        let files = try names.map { try #require(FontFiles.bytes($0)) }
        try withDirectory { directory in
            for (index, bytes) in files.enumerated() { try write(bytes, to: directory + "/\(index).ttf") }
            let paths = try (0..<10_000).map { i in
                let path = directory + "/link\(i).ttf"
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "\(i * 3 / 10_000).ttf")
                return path
            }
            let limit = files[1].count + files[2].count
            let cache = FontCache(byteLimit: limit)
            var current: (file: Int, font: Font)?
            for (i, path) in paths.enumerated() {
                let font = try cache.font(atPath: path)
                if let current, current.file == i * 3 / 10_000 { #expect(font === current.font) }   // the same file: the same font
                current = (i * 3 / 10_000, font)
                #expect(cache.statistics.bytes <= limit)
            }
            #expect(cache.statistics.loads == 3)
            #expect(cache.statistics.fonts == 2)
            // The first file was evicted: asking again reads it again, once.
            let hebrew = try cache.font(atPath: paths[0])
            #expect(hebrew.covers("ש"))
            #expect(try cache.font(atPath: paths[1]) === hebrew)
            #expect(cache.statistics.loads == 4 && cache.statistics.bytes <= limit)
        }
    }

    /// 1,000 distinct files that are not fonts: each read once (and only its first
    /// bytes), at most `entryLimit` remembered, each error naming its file.
    @Test func badFilesAreRememberedWithinTheEntryLimit() throws {
        try withDirectory { directory in
            let paths = try (0..<1_000).map { i in
                let path = directory + "/bad\(i).ttf"
                try write(Array("not a font \(i)".utf8), to: path)
                return path
            }
            let cache = FontCache(entryLimit: 300)
            for path in paths + paths.suffix(300) + paths.suffix(300) {
                #expect(throws: FontError.inFile(path: path, error: .unsupportedFont(reason: "not a TrueType/OpenType (sfnt) font"))) {
                    try cache.font(atPath: path)
                }
            }
            // The last 300 were remembered, not read again.
            #expect(cache.statistics.loads == 1_000)
            #expect(cache.statistics.failures == 300 && cache.statistics.fonts == 0)
        }
    }

    /// A file rewritten with another font is read again, not served from the cache.
    @Test func rewrittenFileIsReadAgain() throws {
        let hebrew = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        let thai = try #require(FontFiles.bytes("NotoSansThai-Regular.ttf"))
        try withDirectory { directory in
            let path = directory + "/f.ttf"
            try write(hebrew, to: path)
            let cache = FontCache()
            #expect(try cache.font(atPath: path).covers("ש"))
            #expect(try cache.fontSet(paths: [path]).primary.covers("ש"))
            try write(thai, to: path)
            #expect(try cache.font(atPath: path).covers("ส"))
            #expect(try cache.fontSet(paths: [path]).primary.covers("ส"))
            // A bad file made good is read again too.
            try write(Array("junk".utf8), to: path)
            #expect(throws: FontError.self) { try cache.font(atPath: path) }
            try write(hebrew, to: path)
            #expect(try cache.font(atPath: path).covers("ש"))
        }
    }
}
