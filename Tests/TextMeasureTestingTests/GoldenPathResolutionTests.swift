import Foundation
import Testing
import TextMeasureTesting

/// One resolution of font paths everywhere: the filesystem's. With `L -> a/b`, the
/// font `L/../f.ttf` is `a/f.ttf` to batch (which opens it), so the golden file must
/// record and verify that file too, not `f.ttf` (`..` taken as text).
@Suite(.temporaryFiles) struct GoldenPathResolutionTests {
    static let text = "Hello, wrapping world, once more"

    /// X/a/f.ttf is Noto Sans, X/f.ttf Noto Sans Hebrew (no Latin: wider .notdef boxes, with
    /// no embedded fallback to draw it instead), X/L -> a/b.
    func makeTree() throws -> String {
        let root = try temporaryDirectory()
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try files.copyItem(atPath: notoSansPath, toPath: root + "/a/f.ttf")
        try files.copyItem(atPath: repositoryRoot + "/Fonts/NotoSansHebrew-Regular.ttf", toPath: root + "/f.ttf")
        try files.createSymbolicLink(atPath: root + "/L", withDestinationPath: "a/b")
        try Data(#"{"id": "s", "text": "\#(Self.text)", "width": 60, "fonts": ["L/../f.ttf"], "embeddedFallback": false}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/cases.jsonl"))
        return root
    }

    @Test func goldenRecordMeasuresTheFileBatchOpens() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // What batch measures: the file the kernel opens for L/../f.ttf.
        let opened = MeasurementCase(id: "s", text: Self.text, fonts: [root + "/L/../f.ttf"], embeddedFallback: false, width: 60)
        let batch = try opened.measure(fonts: FontCache())
        let notoSans = try MeasurementCase(id: "s", text: Self.text, fonts: [root + "/a/f.ttf"], embeddedFallback: false, width: 60)
            .measure(fonts: FontCache())
        let hebrew = try MeasurementCase(id: "s", text: Self.text, fonts: [root + "/f.ttf"], embeddedFallback: false, width: 60)
            .measure(fonts: FontCache())
        #expect(batch.lineStarts == notoSans.lineStarts && batch.lineStarts != hebrew.lineStarts)

        let record = try GoldenCommandTests.textmeasure(["golden", "record", "cases.jsonl", "-o", "golden.json"], in: root)
        #expect(record.status == 0, "\(record.stderr)")
        let golden = try GoldenFile(contentsOfFile: root + "/golden.json")
        #expect(golden.cases.first?.input.fonts == ["a/f.ttf"])
        #expect(golden.cases.first?.expected.lineStarts == batch.lineStarts)
        let verify = try GoldenCommandTests.textmeasure(["golden", "verify", "golden.json"], in: root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// The library resolves the same way, for paths relative to a font directory.
    @Test func goldenHeightsStoresTheResolvedPath() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let heights = GoldenHeights(path: root + "/lib.json", fontDirectory: root)
        _ = try heights.record([MeasurementCase(id: "s", text: Self.text, fonts: ["L/../f.ttf"], embeddedFallback: false, width: 60)])
        let golden = try GoldenFile(contentsOfFile: root + "/lib.json")
        #expect(golden.cases.first?.input.fonts == ["a/f.ttf"])
        #expect(try heights.verify().passed)
    }
}
