import Foundation
import Testing

@Suite("textmeasure measure")
struct MeasureCommandTests {
    /// The height of one line with the default style, measured by the tool itself.
    func oneLineHeight(_ extra: String...) throws -> Double {
        let run = try CLI.run(["measure", "--width", "1000", "--json"] + extra + ["x"])
        return try CLI.decode(MeasureJSON.self, run).size.height
    }

    @Test("a paragraph at a phone width: the proposed width, and taller than one line (two-sided)")
    func paragraphWraps() throws {
        let run = try CLI.run("measure", "--width", "390", "--json", paragraph)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let result = try CLI.decode(MeasureJSON.self, run)

        #expect(result.idealWidth > 2 * 390, "the text must be wider than the proposal for this test to mean anything")
        #expect(result.size.width == 390)                                   // stays within the proposal
        #expect(result.size.height > (try oneLineHeight()) + 1)              // and grows past one line
        #expect(result.intrinsicContentSize.width == -1)
        #expect(result.intrinsicContentSize.height == result.size.height)
        // The unwrapped width cannot fit in fewer lines than idealWidth / width.
        #expect(Double(result.lines.count) >= (result.idealWidth / 390).rounded(.up))
        for line in result.lines { #expect(line.width <= 390 && line.width > 0) }
    }

    @Test("lines cover the text contiguously, in UTF-16 offsets", arguments: [
        paragraph,
        "第一行\n第二行 with 👩‍👩‍👧 and a flag 🇯🇵, then हिन्दी and العربية\r\nend",
        "trailing newline\n",
    ])
    func linesCoverText(_ text: String) throws {
        let result = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "120", "--json", text))
        let utf16 = Array(text.utf16)
        #expect(result.lines.first?.start == 0)
        #expect(result.lines.last?.end == utf16.count)
        for (line, next) in zip(result.lines, result.lines.dropFirst()) { #expect(line.end == next.start) }
        for line in result.lines {
            #expect(line.text == String(decoding: utf16[line.start..<line.end], as: UTF16.self))
            #expect(line.width <= 120)
        }
        #expect(result.lines.map(\.text).joined() == text)
    }

    @Test("insets and padding: the width stays the proposal, the text gets less of it, the height grows by the insets")
    func insetsAndPadding() throws {
        let plain = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "300", "--json", paragraph))
        let inset = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "300", "--inset", "8,4,10,6",
                                                                 "--padding", "5", "--json", paragraph))
        #expect(inset.size.width == 300)
        for line in inset.lines { #expect(line.width <= 300 - 4 - 6 - 2 * 5) }
        #expect(inset.lines.count >= plain.lines.count)
        let lineHeight = try oneLineHeight()
        #expect(inset.size.height == Double(inset.lines.count) * lineHeight + 18)
        #expect(inset.idealWidth == ((plain.idealWidth + 20) * 100).rounded() / 100)   // both printed to 0.01 px
    }

    @Test("--hug takes the widest line; --min-height and --max-height clamp the height")
    func hugAndClamp() throws {
        let hug = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "390", "--hug", "--json", "Hello, world"))
        let widest = try #require(hug.lines.map(\.width).max())
        #expect(hug.size.width == widest.rounded(.up))
        #expect(hug.size.width < 390)

        let capped = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "200", "--max-height", "50",
                                                                  "--json", paragraph))
        #expect(capped.size.height == 50)
        #expect(capped.lines.count > 3, "the cap clamps the size, not the lines")
        let raised = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "200", "--min-height", "100",
                                                                  "--json", "Hi"))
        #expect(raised.size.height == 100)
    }

    @Test("--line-height: fixed px and a multiple of normal")
    func lineHeights() throws {
        let normal = try oneLineHeight()
        #expect(try oneLineHeight("--line-height", "30px") == 30)
        #expect(try oneLineHeight("--line-height", "2x") == 2 * normal)
        #expect(try oneLineHeight("--line-height", "x2") == 2 * normal)   // the older spelling
        #expect(try oneLineHeight("--line-height", "normal") == normal)
        let fixed = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "1000", "--line-height", "30px",
                                                                 "--json", "a\nb\nc"))
        #expect(fixed.size.height == 90)
    }

    /// A bare 1.2 is 1.2 × the font size in CSS and 1.2 × the normal height in TextKit;
    /// it once gave a 2 px line here. Now it asks for a unit.
    @Test("--line-height with a bare number is a usage error naming both units")
    func bareLineHeight() throws {
        try expectFailure(["measure", "--width", "300", "--line-height", "1.2", "x"], status: 2)
        let run = try CLI.run("measure", "--width", "300", "--line-height", "1.2", "x")
        #expect(run.stderr.contains("1.2px") && run.stderr.contains("1.2x"), "\(run.stderr)")
    }

    @Test("numbers are decimal: hex, nan and inf are usage errors that say what was given")
    func decimalNumbers() throws {
        let run = try CLI.run("measure", "--width", "0x64", "x")
        #expect(run.status == 2 && run.stdout.isEmpty)
        #expect(run.stderr.contains("--width") && run.stderr.contains("'0x64'"), "\(run.stderr)")
        #expect(try CLI.run("measure", "--width", "1e2", "--json", "x").status == 0)
    }

    @Test("--max-lines and --line-break-mode: at most N lines, the last ending in …, and \"truncated\"")
    func lineLimit() throws {
        let run = try CLI.run("measure", "--width", "200", "--max-lines", "2", "--line-break-mode", "truncate-tail",
                              "--json", paragraph)
        let result = try CLI.decode(MeasureJSON.self, run)
        #expect(result.lines.count == 2)
        #expect(result.lines.last?.text.hasSuffix("…") == true)
        for line in result.lines { #expect(line.width <= 200) }
        #expect(result.size.height == 2 * (try oneLineHeight()))
        #expect(run.output.contains("\"truncated\":true"))
        #expect(!(try CLI.run("measure", "--width", "200", "--json", paragraph).output.contains("truncated")))
    }

    @Test("a font file given with --font is used: the embedded primary font from its file measures the same")
    func givenFontFile() throws {
        let font = CLI.packageRoot.appendingPathComponent("Fonts/NotoSans-Regular.ttf").path
        let embedded = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "390", "--json", paragraph))
        let given = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "390", "--font", font, "--json", paragraph))
        #expect(given.lines.map(\.width) == embedded.lines.map(\.width))
        #expect(given.size == embedded.size)
        // At another size the widths scale: not a cached answer.
        let larger = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "10000", "--font", font,
                                                                  "--size", "34", "--json", "Hello"))
        let smaller = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "10000", "--font", font,
                                                                   "--size", "17", "--json", "Hello"))
        #expect(abs(larger.lines[0].width - 2 * smaller.lines[0].width) < 0.1)
    }

    @Test("text from standard input, with - or no TEXT")
    func standardInput() throws {
        for arguments in [["measure", "--width", "300", "--json", "-"], ["measure", "--width", "300", "--json"]] {
            let run = try CLI.run(arguments, stdin: Data("Hello\nworld".utf8))
            #expect(run.status == 0)
            #expect(try CLI.decode(MeasureJSON.self, run).lines.map(\.text) == ["Hello\n", "world"])
        }
    }

    @Test("a TEXT that begins with - goes after --")
    func dashText() throws {
        let run = try CLI.run("measure", "--width", "100", "--json", "--", "-5 °C")
        #expect(try CLI.decode(MeasureJSON.self, run).lines.map(\.text) == ["-5 °C"])
        try expectFailure(["measure", "--width", "100", "-x"], status: 2)
    }

    @Test("invalid UTF-8 on standard input is an input error, not replaced")
    func invalidUTF8() throws {
        try expectFailure(["measure", "--width", "300", "-"], status: 1, stdin: Data([0x48, 0x69, 0xFF, 0xFE]))
        #expect(try CLI.run(["measure", "--width", "300", "-"], stdin: Data([0xFF])).stderr.contains("not valid UTF-8"))
    }

    @Test("human output: the size, the line count, and the lines boxed with their widths")
    func humanOutput() throws {
        let json = try CLI.decode(MeasureJSON.self, try CLI.run("measure", "--width", "120", "--json", "Hello wonderful world"))
        let run = try CLI.run("measure", "--width", "120", "Hello wonderful world")
        #expect(run.status == 0)
        let rows = run.output.split(separator: "\n").map(String.init)
        #expect(rows.first?.hasPrefix("size 120 × \(Int(json.size.height)) px · \(json.lines.count) lines") == true)
        #expect(rows.count == json.lines.count + 3)   // summary, top, lines, bottom
        #expect(rows[1].hasPrefix("┌") && rows.last?.hasPrefix("└") == true)
        let boxWidth = rows[1].count
        for (row, line) in zip(rows.dropFirst(2), json.lines) {
            #expect(row.hasPrefix("│" + line.text))
            #expect(row.prefix(boxWidth).hasSuffix("│"))   // every row as wide as the frame (ASCII text here)
        }
    }

    /// `measure` writes its output a chunk (64 KiB) at a time as it makes it, never whole:
    /// a text of many lines must still come out whole and in order, in both forms.
    @Test("a text of thousands of lines: the JSON is the encoder's byte for byte, and the box frames every line")
    func longTextStreams() throws {
        let text = (1...1500).map {
            "Line \($0): \"quoted\", back\\slashed,\ta tab, 你好 and 🙂, words enough to wrap twice here.\n"
        }.joined()
        let json = try CLI.run(["measure", "--width", "200", "--json", "-"], stdin: Data(text.utf8))
        #expect(json.status == 0 && json.stdout.count > 4 * 65_536)
        let result = try CLI.decode(MeasureJSON.self, json)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(json.output == String(decoding: try encoder.encode(result), as: UTF8.self) + "\n")
        #expect(result.lines.count >= 3000)
        #expect(result.lines.map(\.text).joined() == text)
        for (line, next) in zip(result.lines, result.lines.dropFirst()) { #expect(line.end == next.start) }

        let human = try CLI.run(["measure", "--width", "200", "-"], stdin: Data(text.utf8))
        #expect(human.status == 0)
        // Whole px print without decimals, the rest as JSON gives them (already to 0.01 px).
        func readable(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        let rows = result.lines.map { $0.text.replacingOccurrences(of: "\t", with: "␉").replacingOccurrences(of: "\n", with: "␊") }
        let columns = rows.map { row in row.reduce(0) { $0 + ("你好🙂".contains($1) ? 2 : 1) } }
        let inner = try #require(columns.max())
        let rule = String(repeating: "─", count: inner)
        let expected = ["size 200 × \(readable(result.size.height)) px · \(rows.count) lines · idealWidth \(readable(result.idealWidth)) px",
                        "┌" + rule + "┐"]
            + zip(zip(rows, columns), result.lines).map { row, line in
                "│" + row.0 + String(repeating: " ", count: inner - row.1) + "│ " + readable(line.width)
            }
            + ["└" + rule + "┘"]
        #expect(human.output == expected.joined(separator: "\n") + "\n")

        // The fields that come after the lines: "missingGlyphs" and "truncated".
        let limited = try CLI.run(["measure", "--width", "200", "--max-lines", "2000", "--line-break-mode", "truncate-tail",
                                   "--json", "-"], stdin: Data((text + "\u{10FFFD}").utf8))
        let truncated = try CLI.decode(MeasureJSON.self, limited)
        #expect(truncated.truncated == true && truncated.missingGlyphs == 1 && truncated.lines.count == 2000)
        #expect(limited.output == String(decoding: try encoder.encode(truncated), as: UTF8.self) + "\n")
    }

    /// The box's top border is as wide as the widest line in terminal columns.
    @Test("the box is measured in terminal columns", arguments: [
        ("ab", 2), ("你好", 4), ("ｱｲ", 2), ("ＡＢ", 4), ("e\u{301}", 1), ("👩‍👩‍👧", 2), ("🇯🇵", 2), ("☺\u{FE0F}", 2), ("한국", 4),
    ])
    func boxColumns(_ text: String, columns: Int) throws {
        let run = try CLI.run("measure", "--width", "1000", text)
        let top = try #require(run.output.split(separator: "\n").dropFirst().first)
        #expect(top == "┌" + String(repeating: "─", count: columns) + "┐")
    }

    @Test("usage errors exit 2, input errors 1; nothing on stdout", arguments: [
        (["measure", "hello"], 2),                                  // no --width
        (["measure", "--width", "abc", "hello"], 2),
        (["measure", "--width", "100", "--frobnicate", "hello"], 2),
        (["measure", "--width", "100", "--inset", "1,2,3", "hello"], 2),
        (["measure", "--width", "100", "--line-height", "tall", "hello"], 2),
        (["measure", "--width", "100", "--rules", "css", "hello"], 2),
        (["measure", "--width", "100", "one", "two"], 2),
        (["measure", "--width"], 2),
        (["measure", "--width", "0", "hello"], 1),
        (["measure", "--width", "-5", "hello"], 1),
        (["measure", "--width", "nan", "hello"], 2),
        (["measure", "--width", "inf", "hello"], 2),
        (["measure", "--width", "0x64", "hello"], 2),              // not read as 100
        (["measure", "--width", "100", "--size", "nan", "hello"], 2),
        (["measure", "--width", "100", "--inset", "0x8,0,0,0", "hello"], 2),
        (["measure", "--width", "100", "--size", "-3", "hello"], 1),
        (["measure", "--width", "100", "--min-height", "-1", "hello"], 1),
        (["measure", "--width", "100", "--max-height", "nan", "hello"], 2),
        (["measure", "--width", "100", "--padding", "-2", "hello"], 1),
        (["measure", "--width", "100", "--line-height", "x-1", "hello"], 1),
        (["measure", "--width", "100", "--font", "/nonexistent/font.ttf", "hello"], 1),
    ] as [([String], Int32)])
    func errors(_ arguments: [String], status: Int32) throws {
        try expectFailure(arguments, status: status)
    }

    @Test("an unusable width is a clean error, never a one-line size")
    func unusableWidth() throws {
        try expectFailure(["measure", "--width", "0", "--json", paragraph], status: 1)
        #expect(try CLI.run("measure", "--width", "0", "--json", paragraph).stderr.contains("width 0 is not usable"))
    }
}
