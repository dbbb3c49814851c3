import TextMeasure

/// Seeded random texts and widths for the property tests: mixes of every script
/// the embedded fonts draw, spaces, tabs, newlines, emoji sequences, bare combining
/// marks and long words. The same seed gives the same texts on every machine
/// (`LineBreakModeFuzzTests.Generator` is SplitMix64).
enum RandomTexts {
    typealias Generator = LineBreakModeFuzzTests.Generator

    /// Words by script (the embedded fonts' order), so a text can also be drawn from one script.
    static let words: [String: [String]] = [
        "latin": ["a", "In", "my", "younger", "AVATAR", "office", "Typography", "Wolf", "naïve", "café", "well-known",
                  "2024-03-15", "$1,234.56", "(555)", "010-9999.", "co-operation;", "“quoted”", "e.g.", "x-12", "-12"],
        "cjk": ["漢", "字。", "「引用」", "我记得小时候", "日本語の文章も", "東京は", "ー", "っ", "、"],
        "korean": ["한국어", "소나기", "소년은", "같한"],
        "thai": ["ไทย", "สวัสดีครับ", "ประเทศไทย", "ขอบคุณ"],
        "arabic": ["مرحبا", "بالعالم", "المشكلات", "لا"],
        "hebrew": ["שלום", "עולם", "שָׁלוֹם"],
        "devanagari": ["नमस्ते", "हिन्दी", "क्षत्रिय", "धीरे-धीरे"],
        "emoji": ["👩‍👩‍👧", "🇯🇵", "🇫🇷🇯🇵", "👍🏽", "😂😂😂", "1️⃣", "☺️", "🍕"],
    ]

    /// What goes between and inside words: whitespace of every kind, line breaks,
    /// bare combining marks and joiners (which may follow a space), punctuation.
    static let glue = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u{2028}", "\u{00A0}", "\u{301}", "\u{200D}",
                       "\u{FE0F}", "-", "/", "!", " !", "?", ".", ","]

    /// A text of about `length` pieces: words of `scripts` (all of them by default)
    /// with glue between, now and then a word too long for any line.
    static func text(_ random: inout Generator, length: Int, scripts: [String]? = nil) -> String {
        let names = scripts ?? words.keys.sorted()
        var text = ""
        for _ in 0..<length {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                text += words[names.randomElement(using: &random)!]!.randomElement(using: &random)!
            case 6:
                let word = words[names.randomElement(using: &random)!]!.randomElement(using: &random)!
                text += String(repeating: word, count: Int.random(in: 3...12, using: &random))
            default:
                text += glue.randomElement(using: &random)!
            }
            if Int.random(in: 0..<3, using: &random) != 0 { text += " " }
        }
        return text
    }

    /// A width in pixels: mostly random, with 1/64 px steps and odd fractions, and
    /// sometimes exactly the width of a prefix of `text` that ends at a break
    /// opportunity, or 1/64 px either side, where an off-by-one in fitting shows.
    static func width(_ random: inout Generator, for prepared: PreparedText) throws -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return Double(Int.random(in: 0...(400 * 64), using: &random)) / 64
        case 1:
            return Double.random(in: 1...300, using: &random)
        default:
            let breaks = try prepared.style.lineBreakRules.breakOpportunities(in: prepared.text)
            guard let end = breaks.randomElement(using: &random)?.utf16Offset else { return 100 }
            let prefix = prepared.text.utf16Slice(0..<end)
            let exact = try PreparedText(String(prefix), fonts: prepared.fonts, style: prepared.style).unwrappedWidth
            return max(0, (exact * 64).rounded(.down) / 64 + Double(Int.random(in: -1...1, using: &random)) / 64)
        }
    }
}
