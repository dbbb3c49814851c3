import TextMeasure

/// Texts and checks shared by the line-fitting tests.
enum Samples {
    static let latin = """
        In my younger and more vulnerable years my father gave me some advice that I’ve been turning over in my mind ever since.
        “Whenever you feel like criticizing anyone,” he told me, “just remember that all the people in this world haven’t had the advantages that you’ve had.”
        """
    static let cjk = """
        我记得小时候常常在河边玩耍，故乡的天空总是那么蓝。后来我离开了家乡，去了很远的城市工作，每年只回去一次。
        日本語の文章も折り返します。東京は今日も雨でした。
        """
    /// ZWJ sequences, flags and a base with a combining mark, between words and run together.
    static let emoji = "Family 👩‍👩‍👧 trip to 🇯🇵 and a cafe\u{301} 👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧🇯🇵🇯🇵🇯🇵e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}👩‍👩‍👧🇯🇵 end"
    /// French puts a space before "!", "?" and ";", where a line may not break:
    /// spaces inside a segment.
    static let french = "Bonjour ! Comment allez-vous ? Très bien ; et vous ? Quelle surprise ! Il fait beau aujourd’hui !"
    /// Clusters only, no break opportunity: every cut is inside a "word".
    static let clustersOnly = String(repeating: "👩‍👩‍👧🇯🇵e\u{301}", count: 12)

    static let all = [latin, cjk, emoji, french, clustersOnly]
    static let widths: [Double] = [30, 61.5, 100, 157.25, 240, 390]
}

/// UTF-16 offsets of the text's grapheme-cluster boundaries as Swift's standard
/// library finds them (an outside reference: not ICU), 0 and the end included.
func characterBoundaries(_ text: String) -> Set<Int> {
    var boundaries: Set<Int> = [0]
    var offset = 0
    for character in text {
        offset += character.utf16.count
        boundaries.insert(offset)
    }
    return boundaries
}

/// The engine's width of `text[range]` (UTF-16), summed from its clusters, in 1/64 px.
func clusterWidth(_ prepared: PreparedText, _ range: Range<Int>) -> Int {
    var width = 0
    var start = 0
    for (end, w) in zip(prepared.graphemeEnds, prepared.graphemeWidths) {
        if start >= range.lowerBound, Int(end) <= range.upperBound { width += Int(w) }
        start = Int(end)
    }
    return width
}

/// The UTF-16 ranges of the prepared text's clusters, in order.
func clusterRanges(_ prepared: PreparedText) -> [Range<Int>] {
    var start = 0
    return prepared.graphemeEnds.map { end in
        defer { start = Int(end) }
        return start..<Int(end)
    }
}

/// The width of `text` shaped on its own, one line, its trailing whitespace hanging:
/// an outside measure of what a renderer drawing the string would take, from HarfBuzz
/// alone (`HarfBuzzReference`), not from the library's own fitting.
func shapedWidth(_ text: some StringProtocol) throws -> Double {
    HarfBuzzReference.width(text)
}

extension TextLayout {
    /// Every line's range follows the one before, from 0 to the end of the visible range.
    var linesTileVisibleRange: Bool {
        var offset = 0
        for line in lines {
            guard line.utf16Range.lowerBound == offset else { return false }
            offset = line.utf16Range.upperBound
        }
        return offset == visibleUTF16Range.upperBound && visibleUTF16Range.lowerBound == 0
    }
}

/// The paragraphs as a text view counts its lines without wrapping: split at
/// newlines, a final newline starting an empty last one.
func paragraphCount(_ text: String) -> Int {
    text.split(separator: "\n", omittingEmptySubsequences: false).count
}
