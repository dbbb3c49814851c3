import Foundation
import Testing

@Suite("textmeasure explain")
struct ExplainCommandTests {
    func explain(_ arguments: String...) throws -> (lines: [String], status: Int32) {
        let run = try CLI.run(["explain"] + arguments, stdin: nil)
        #expect(run.stderr.isEmpty)
        return (run.output.split(separator: "\n").map(String.init), run.status)
    }

    @Test("tells the proposal, the ideal width, the width taken and one reason per line, agreeing with measure")
    func agreesWithMeasure() throws {
        let measured = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "200", "--json", paragraph))
        let (lines, status) = try explain("--width", "200", paragraph)
        #expect(status == 0)
        #expect(lines.contains("Proposed width: 200 px, all of it for the text."))
        let ratio = ((measured.idealWidth / 200) * 100).rounded() / 100
        #expect(lines.contains { $0.hasPrefix("Ideal width: \(Int(measured.idealWidth)) px") && $0.contains("\(ratio)× the proposal") })
        #expect(lines.contains { $0.hasPrefix("Width taken: 200 px, the proposed width") })
        #expect(lines.contains("Lines: \(measured.lines.count) at 200 px."))
        let reasons = lines.filter { $0.hasPrefix("  ") }
        #expect(reasons.count == measured.lines.count)
        #expect(reasons.dropLast().allSatisfy { $0.contains("soft break: the next word") })
        #expect(reasons.last?.hasSuffix("end of text") == true)
        #expect(lines.contains("Size: sizeThatFits(width: 200) = 200 × \(Int(measured.size.height))."))
        #expect(lines.contains { $0.hasPrefix("Intrinsic size: intrinsicContentSize(currentWidth: 200) = (noIntrinsicMetric, \(Int(measured.size.height)))") })
    }

    @Test("names mandatory breaks and emergency breaks inside a word too long for the line")
    func breakKinds() throws {
        let (lines, _) = try explain("--width", "100", "Supercalifragilisticexpialidocious\r\nnext\u{2028}end\n")
        let reasons = lines.filter { $0.hasPrefix("  ") }
        #expect(reasons.contains { $0.contains("emergency break: the word \"Supercalifragilisticexpialid") })
        #expect(reasons.contains { $0.contains("mandatory break: CR LF") })
        #expect(reasons.contains { $0.contains("mandatory break: U+2028 LINE SEPARATOR") })
        #expect(reasons.last?.contains("the empty line a final newline starts") == true)
    }

    @Test("says which lines end at a soft hyphen and show a hyphen")
    func softHyphens() throws {
        let (lines, _) = try explain("--width", "60", "co\u{AD}operate co\u{AD}operate")
        let reasons = lines.filter { $0.hasPrefix("  ") }
        #expect(reasons.first?.contains("\"co­‐\"") == true)
        #expect(reasons.first?.contains("at a hyphenation point (a soft hyphen, or hyphens: auto): a hyphen (U+2010) "
                                        + "is drawn and counted in the width") == true)
        #expect(reasons.filter { $0.contains("at a hyphenation point") }.count < reasons.count)
    }

    @Test("with hyphens: auto, names the piece of a word up to a hyphenation point that did not fit, with its hyphen")
    func hyphenationPieces() throws {
        let text = "The extraordinary internationalization of incomprehensibilities"
        let (lines, status) = try explain("--width", "120", "--hyphens", "auto", "--lang", "en-US", text)
        #expect(status == 0)
        let rows = lines.filter { $0.hasPrefix("  ") }
        // Each row: number, the line in quotes, its width, why it ended.
        let shown = rows.map { $0.split(separator: "\"")[1] }
        let pieces = rows.map { row in
            row.firstRange(of: "up to a hyphenation point, \"").map { row[$0.upperBound...].prefix { $0 != "\"" } }
        }
        #expect(pieces.contains { $0 != nil })
        for (index, piece) in pieces.enumerated() {
            guard let piece else { continue }
            // The piece is where the next line starts, shown with the hyphen it would have had to fit too.
            #expect(piece.hasSuffix("\u{2010}") && index + 1 < shown.count && shown[index + 1].hasPrefix(piece.dropLast()),
                    "\(rows[index])")
            #expect(rows[index].contains("with its hyphen, would make it"))
        }
        #expect(rows.contains { $0.contains("is drawn and counted in the width, here one of hyphens: auto's (en-US patterns)") })
        #expect(rows.contains { $0.contains("soft break: the rest of the word, ") })
        // Without hyphenation the same text names whole words only, and no line shows a hyphen.
        let plain = try explain("--width", "120", text).lines.filter { $0.hasPrefix("  ") }
        #expect(!plain.contains { $0.contains("hyphenation point") || $0.contains("rest of the word") })
        #expect(plain.dropLast().allSatisfy { $0.contains("soft break: the next word, ") || $0.contains("emergency break") })
        #expect(plain.contains { $0.contains("soft break: the next word, ") })
    }

    @Test("says a line ends at a soft hyphen, and names the next soft-hyphen piece that did not fit")
    func softHyphenPieces() throws {
        let rows = try explain("--width", "100", "Ex\u{AD}tra\u{AD}or\u{AD}di\u{AD}nary in\u{AD}ter\u{AD}na\u{AD}tion\u{AD}al")
            .lines.filter { $0.hasPrefix("  ") }
        #expect(rows.contains { $0.contains("counted in the width, here at a soft hyphen") })
        #expect(rows.contains { $0.contains("soft break: the next piece of a word, up to a hyphenation point, \"") })
        #expect(!rows.contains { $0.contains("hyphens: auto's") })
    }

    @Test("tells how the height was clamped")
    func clamping() throws {
        let capped = try explain("--width", "200", "--max-height", "40", paragraph).lines
        #expect(capped.contains { $0.contains("Capped at --max-height: 40 px") })
        let raised = try explain("--width", "200", "--min-height", "100", "Hi").lines
        #expect(raised.contains { $0.contains("Raised to --min-height: 100 px") })
        let free = try explain("--width", "200", "Hi").lines
        #expect(!free.contains { $0.contains("--min-height") || $0.contains("--max-height") })
    }

    @Test("insets and padding: the width left for the text")
    func insets() throws {
        let lines = try explain("--width", "120", "--inset", "8,3,8,3", "--padding", "5", "Hello").lines
        #expect(lines.contains { $0.contains("104 px are left for the text") })
        #expect(lines.contains { $0.contains("plus insets of 8 top and 8 bottom") })
    }

    @Test("an unusable width is explained: no size, no intrinsic height", arguments: ["0", "-10"])
    func unusableWidth(_ width: String) throws {
        let (lines, status) = try explain("--width", width, paragraph)
        #expect(status == 0)
        #expect(lines.contains { $0.contains("not a usable width") })
        #expect(lines.contains { $0.hasPrefix("Size: none. sizeThatFits(width: \(width)) is nil") })
        #expect(lines.contains { $0.contains("(noIntrinsicMetric, noIntrinsicMetric)") })
        #expect(!lines.contains { $0.hasPrefix("Lines:") })
    }

    @Test("usage and input errors", arguments: [
        (["explain", "hello"], 2), (["explain", "--width", "100", "--bogus", "x"], 2),
        (["explain", "--width", "100", "--size", "0", "x"], 1),
        (["explain", "--width", "nan", "x"], 2), (["explain", "--width", "0x64", "x"], 2),
    ] as [([String], Int32)])
    func errors(_ arguments: [String], status: Int32) throws {
        try expectFailure(arguments, status: status)
    }

    @Test("says when a line fits only with its closing bracket set half-width (text-spacing-trim)")
    func trimmedClosingBracket() throws {
        let font = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/fonts/BoxCJK.otf").path
        let (lines, status) = try explain("--width", "25", "--size", "10", "--font", font, "好好」好")
        #expect(status == 0)
        #expect(lines.contains { $0.contains("\"好好」\"") && $0.contains("half-width") && $0.contains("30 px with it whole") })
        let (wide, _) = try explain("--width", "30", "--size", "10", "--font", font, "好好」好")
        #expect(!wide.contains { $0.contains("half-width") })
        let (spaced, _) = try explain("--width", "25", "--size", "10", "--font", font, "--text-spacing-trim", "space-all",
                                      "好好」好")
        #expect(!spaced.contains { $0.contains("half-width") })
    }
}

@Suite("textmeasure explain: line-break modes and line limits")
struct ExplainModesTests {
    func reasons(_ arguments: String...) throws -> (header: String, rows: [String]) {
        let lines = try CLI.run(["explain"] + arguments, stdin: nil).output.split(separator: "\n").map(String.init)
        return (try #require(lines.first { $0.hasPrefix("Lines:") }), lines.filter { $0.hasPrefix("  ") })
    }

    @Test("a line limit: the last line says the rest is hidden")
    func lineLimit() throws {
        let (header, rows) = try reasons("--width", "150", "--max-lines", "2", paragraph)
        #expect(header == "Lines: 2 at 150 px (--max-lines 2).")
        #expect(rows.count == 2)
        #expect(rows[1].hasSuffix("the line limit hides the text after it"))
        #expect(!rows[0].contains("hides"))
    }

    @Test("truncation: the line is shown as drawn, and says what the ellipsis stands for")
    func truncation() throws {
        let (header, rows) = try reasons("--width", "150", "--max-lines", "2", "--line-break-mode", "truncate-tail", paragraph)
        #expect(header == "Lines: 2 at 150 px (--line-break-mode truncate-tail, --max-lines 2).")
        #expect(rows[1].contains("…\"") && rows[1].contains("truncated: \"…\" stands for \""))
    }

    @Test("char wrapping: the next character is what did not fit")
    func charWrapping() throws {
        let (_, rows) = try reasons("--width", "150", "--line-break-mode", "char", paragraph)
        #expect(rows.dropLast().allSatisfy { $0.contains("soft break: the next character, \"") })
    }

    @Test("clipping: lines wider than the box say so")
    func clipping() throws {
        let (_, rows) = try reasons("--width", "150", "--line-break-mode", "clip", paragraph + "\nshort")
        #expect(rows.count == 2)
        #expect(rows[0].contains("wider than the 150 px box"))
        #expect(!rows[1].contains("wider than"))
    }
}
