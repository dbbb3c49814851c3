import Foundation
import Testing

@Suite("direction, alignment and boxes on the command line")
struct PlacementCommandTests {
    @Test("batch: \"boxes\": true lists each cluster's [start, end, line, left, right]; align and direction move them")
    func boxesInBatch() throws {
        let input = [
            #"{"id": "rtl", "text": "שלום John", "width": 200, "boxes": true}"#,
            #"{"id": "left", "text": "שלום John", "width": 200, "boxes": true, "align": "left"}"#,
            #"{"id": "ltr", "text": "שלום John\n", "width": 200, "boxes": true, "direction": "ltr", "padding": 5}"#,
            #"{"id": "plain", "text": "ok", "width": 200}"#,
            #"{"id": "bad", "text": "ok", "width": 200, "align": "middle"}"#,
        ].joined(separator: "\n") + "\n"
        let run = try CLI.run("batch", stdin: input)
        #expect(run.status == 0)
        let lines = try CLI.jsonLines(run)
        try #require(lines.count == 5)
        let rtl = try #require(lines[0]["boxes"] as? [[Double]])
        #expect(rtl.map { $0[0] } == [0, 1, 2, 3, 4, 5, 6, 7, 8])
        // Right-aligned: שלום (0–3) ends at the right edge; John (5–8) left of it, in order.
        #expect(abs(rtl[0][4] - 200) < 1e-6)
        #expect(rtl[5][3] < rtl[6][3] && rtl[8][4] <= rtl[3][3] + 1e-6)
        let left = try #require(lines[1]["boxes"] as? [[Double]])
        #expect(abs(left.map { $0[3] }.min()! - 0) < 1e-6)
        // Left to right from the padding; the final newline has no box.
        let ltr = try #require(lines[2]["boxes"] as? [[Double]])
        #expect(ltr.count == 9 && abs(ltr[3][3] - 5) < 1e-6)
        #expect(lines[3]["boxes"] == nil)
        #expect(lines[4]["error"] != nil)
    }

    @Test("--direction and --align are checked")
    func flags() throws {
        let bad = try CLI.run("measure", "--width", "100", "--align", "middle", "x")
        #expect(bad.status == 2 && bad.stderr.contains("--align must be one of start, end, left, right, center"))
        let badDirection = try CLI.run("measure", "--width", "100", "--direction", "up", "x")
        #expect(badDirection.status == 2 && badDirection.stderr.contains("auto, ltr, rtl"))
        let good = try CLI.run("measure", "--width", "100", "--direction", "rtl", "--align", "center", "x")
        #expect(good.status == 0)
    }
}
