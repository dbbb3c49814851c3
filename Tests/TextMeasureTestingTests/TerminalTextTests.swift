import Testing
@testable import textmeasure

/// `measure`'s box counts terminal columns over whole texts, taking runs of ASCII without
/// making a Character of each: the counts must be those of the characters one by one.
@Suite struct TerminalTextTests {
    /// ASCII next to what joins a cluster to it (marks, ZWJ, variation selectors,
    /// keycaps, a prepended mark, CR LF) and next to wide and emoji characters.
    static let texts = [
        "", "a", "plain ASCII, with punctuation!", "e\u{301}", "ae\u{301}b", "a\u{200D}b", "#\u{FE0F}\u{20E3}1",
        "\u{600}1 x", "a\u{903}b", "a\r\nb", "\r\n", "ab\u{7F}c", "你好ab", "ab🙂", "a🇯🇵b", "x\u{FE0F}", "☺\u{FE0F}a",
        "“quoted” — dashes", "ｱｲab", "a\u{AD}b\u{200B}c", "a\tb\u{1}",
    ]

    @Test("a text's columns are the sum of its characters' columns", arguments: texts)
    func columnsAddUp(_ text: String) {
        #expect(TerminalText.columns(text) == text.reduce(0) { $0 + TerminalText.columns(of: $1) })
    }

    @Test func columnsOfKnownTexts() {
        #expect(TerminalText.columns("e\u{301}x") == 2)
        #expect(TerminalText.columns("#\u{FE0F}\u{20E3}ab") == 4)
        #expect(TerminalText.columns("ab你好🙂") == 8)
        #expect(TerminalText.columns("Hello, world.") == 13)
    }

    @Test("controls are shown as pictures, and text without any is kept as it is")
    func visible() {
        #expect(TerminalText.visible("a\tb\r\n\u{85}\u{2028}\u{2029}\u{7F}\u{9F}") == "a␉b␍␊␤␤¶␡\u{FFFD}")
        #expect(TerminalText.visible("plain “text” 你好 🙂") == "plain “text” 你好 🙂")
        #expect(TerminalText.visible("e\u{301}\u{0}"[...]) == "e\u{301}␀")
    }

    @Test("the box: rows padded to the widest, notes after the frame")
    func box() {
        let box = TerminalText.Box(widestRow: 4)
        #expect(box.top == "┌────┐" && box.bottom == "└────┘")
        #expect(box.row("你", columns: 2, note: "9.5") == "│你  │ 9.5")
        #expect(box.row("abcd", columns: 4, note: "") == "│abcd│")
        #expect(TerminalText.Box(widestRow: 0).top == "┌─┐")
    }
}
