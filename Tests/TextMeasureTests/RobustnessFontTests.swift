import Testing
import TextMeasure

/// Every way a font can be wrong yields a typed `FontError`, never a trap and never
/// a font that loads and then measures wrongly.
@Suite struct RobustnessFontTests {
    static let hebrewText = "שלום עולם"
    static let thaiText = "สวัสดีชาวโลก"

    func width(_ text: String, _ font: Font) throws -> Double {
        try PreparedText(text, fonts: FontSet([font])).unwrappedWidth
    }

    // Plain missing files, directories, empty bytes, three truncations, face index 1 and
    // the font-set limits are FontTests'; these are the rest.

    @Test func pathThroughAFileIsNotFound() {
        // ENOTDIR, not ENOENT: still "not found".
        let path = packageRoot + "/Package.swift/font.ttf"
        #expect(throws: FontError.fileNotFound(path: path)) { try Font(contentsOfFile: path) }
    }

    @Test func deviceIsUnreadable() {
        #expect(throws: FontError.unreadable(path: "/dev/null", reason: "not a regular file")) {
            try Font(contentsOfFile: "/dev/null")
        }
    }

    @Test func emptyFileIsEmpty() throws {
        _ = try FontFiles.withTemporaryFile([]) { path in
            #expect(throws: FontError.inFile(path: path, error: .empty)) { try Font(contentsOfFile: path) }
        }
    }

    /// Bytes that are not a font, by name (the names keep test output short).
    static let notFonts: [String: [UInt8]] = [
        "text": Array("This is a text file, not a font. ".utf8),
        "PNG signature": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13],
        "TrueType tag alone": [0x00, 0x01, 0x00, 0x00],
        "collection of 4 billion fonts": Array("ttcf".utf8) + [0, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF],
        "4 KiB of zeros": [UInt8](repeating: 0, count: 4096),
    ]

    @Test(arguments: notFonts.keys.sorted())
    func notAFontIsAnError(name: String) throws {
        let bytes = try #require(Self.notFonts[name])
        #expect(throws: FontError.self) { try Font(bytes: bytes) }
        #expect(throws: FontError.self) { try FontFiles.withTemporaryFile(bytes) { try Font(contentsOfFile: $0) } }
    }

    @Test func everyTruncationIsRefused() throws {
        let full = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        _ = try Font(bytes: full)   // the whole file loads
        var cuts = Array(0..<64) + Array(stride(from: 64, to: full.count, by: 257))
        cuts.append(full.count - 1)
        for cut in cuts where cut > 0 {
            #expect(throws: FontError.self, "cut at \(cut) of \(full.count) bytes") {
                try Font(bytes: Array(full[..<cut]))
            }
        }
    }

    @Test func fontCutInsideATableNamesTheTable() throws {
        let full = try #require(FontFiles.bytes("NotoSans-Regular.ttf"))
        // Half the file: the directory is whole, GPOS (kerning) and more are cut off,
        // which FreeType alone would accept and HarfBuzz would silently skip.
        #expect(throws: FontError.truncated(part: "table 'DSIG'")) { try Font(bytes: Array(full[..<(full.count / 2)])) }
    }

    @Test func hostileFaceIndexIsOutOfRange() throws {
        let bytes = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        for index in [2, -1, Int.max, Int.min] {
            #expect(throws: FontError.faceIndexOutOfRange(index: index, faceCount: 1)) {
                try Font(bytes: bytes, faceIndex: index)
            }
        }
    }

    @Test func collectionFacesLoadByIndexAndMeasureLikeTheirFiles() throws {
        let hebrew = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        let thai = try #require(FontFiles.bytes("NotoSansThai-Regular.ttf"))
        let collection = FontFiles.collection([hebrew, thai])
        let face0 = try Font(bytes: collection, faceIndex: 0)
        let face1 = try Font(bytes: collection, faceIndex: 1)
        #expect(face0.covers("ש") && !face0.covers("ส"))
        #expect(face1.covers("ส") && !face1.covers("ש"))
        #expect(try width(Self.hebrewText, face0) == width(Self.hebrewText, Font(bytes: hebrew)))
        #expect(try width(Self.thaiText, face1) == width(Self.thaiText, Font(bytes: thai)))
        #expect(throws: FontError.faceIndexOutOfRange(index: 2, faceCount: 2)) { try Font(bytes: collection, faceIndex: 2) }

        // Cut inside the second font: the first still loads whole, the second is refused.
        let cut = Array(collection[..<(collection.count - 100)])
        #expect(try width(Self.hebrewText, Font(bytes: cut, faceIndex: 0)) == width(Self.hebrewText, face0))
        #expect(throws: FontError.self) { try Font(bytes: cut, faceIndex: 1) }
    }

    @Test func webFontIsRefusedNotMeasuredAsHalfEms() throws {
        let font = try #require(FontFiles.bytes("NotoSansHebrew-Regular.ttf"))
        let woff = FontFiles.woff(font)
        #expect(Array(woff[0..<4]) == Array("wOFF".utf8))
        let error = #expect(throws: FontError.self) { try Font(bytes: woff) }
        guard case .unsupportedFont = error else {
            Issue.record("expected unsupportedFont, got \(String(describing: error))")
            return
        }
    }

    @Test func fontCacheReportsTheFirstBadPath() {
        let cache = FontCache()
        #expect(throws: FontError.fileNotFound(path: "/nonexistent/a.ttf")) {
            try cache.fontSet(paths: [packageRoot + "/Fonts/NotoSans-Regular.ttf", "/nonexistent/a.ttf"])
        }
    }
}
