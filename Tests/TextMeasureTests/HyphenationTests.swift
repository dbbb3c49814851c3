import CHyphen
import Testing
@testable import TextMeasure

/// `hyphens: auto` through libhyphen and Debian's patterns (Chromium on this machine has
/// no hyphenation dictionaries, so libhyphen's own answers are the reference), and
/// `hyphens: none`.
@Suite struct HyphenationTests {
    static let words: [(language: String, file: String, words: [String])] = [
        ("en-US", "hyph_en_US.dic", ["hyphenation", "internationalization", "algorithm", "computer", "wonderful",
                                     "paragraph", "typography", "information", "ok", "table", "extraordinary"]),
        ("de", "hyph_de.dic", ["silbentrennung", "donaudampfschiff", "geschwindigkeit", "zusammenarbeit",
                               "übermäßig", "häuser", "straße", "entwicklung"]),
        ("fr", "hyph_fr.dic", ["anticonstitutionnellement", "développement", "hyphénation", "ordinateur",
                               "bibliothèque", "éléphant"]),
    ]

    /// libhyphen's own answer for `word`, with CSS's default limits applied here: the
    /// number of characters before each break.
    static func libhyphenPoints(_ word: String, dictionary: UnsafeMutablePointer<HyphenDict>, utf8: Bool) -> [Int] {
        let scalars = Array(word.unicodeScalars)
        var bytes: [CChar] = [], owner: [Int] = []
        for (index, scalar) in scalars.enumerated() {
            let encoded = utf8 ? Array(String(scalar).utf8) : [UInt8(scalar.value)]
            for byte in encoded { bytes.append(CChar(bitPattern: byte)); owner.append(index) }
        }
        var hyphens = [CChar](repeating: 0, count: bytes.count + 5)
        var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        var pos: UnsafeMutablePointer<Int32>? = nil, cut: UnsafeMutablePointer<Int32>? = nil
        #expect(hnj_hyphen_hyphenate2(dictionary, bytes, Int32(bytes.count), &hyphens, nil, &rep, &pos, &cut) == 0)
        #expect(rep == nil)   // none of these words takes a spelling change
        guard scalars.count >= 5 else { return [] }
        return bytes.indices.filter { hyphens[$0] & 1 == 1 && ($0 + 1 == bytes.count || owner[$0 + 1] != owner[$0]) }
            .map { owner[$0] + 1 }
            .filter { $0 >= 2 && scalars.count - $0 >= 2 }
    }

    @Test(arguments: words)
    func pointsAreLibhyphensWithinCSSLimits(_ language: (language: String, file: String, words: [String])) throws {
        let hyphenator = try #require(try Hyphenator.forLanguage(language.language))
        let dictionary = try #require(hnj_hyphen_load(Hyphenator.directory + "/" + language.file))
        defer { hnj_hyphen_free(dictionary) }
        var hyphenated = 0
        for word in language.words {
            let ours = hyphenator.points(in: Array(word.unicodeScalars))
            let theirs = Self.libhyphenPoints(word, dictionary: dictionary, utf8: language.language != "de")
            #expect(ours == theirs, "\(word)")
            if !ours.isEmpty { hyphenated += 1 }
        }
        #expect(hyphenated >= language.words.count - 2)
    }

    @Test func knownWords() throws {
        let english = try #require(try Hyphenator.forLanguage("en-US"))
        #expect(english.points(in: Array("hyphenation".unicodeScalars)) == [2, 6])   // hy-phen-ation
        #expect(english.points(in: Array("table".unicodeScalars)).allSatisfy { $0 >= 2 && $0 <= 3 })
        #expect(english.points(in: Array("ok".unicodeScalars)).isEmpty)   // shorter than 5
        let german = try #require(try Hyphenator.forLanguage("de-DE"))
        #expect(german.points(in: Array("silbentrennung".unicodeScalars)) == [3, 6, 10])   // sil-ben-tren-nung
    }

    @Test func languageTags() throws {
        #expect(try Hyphenator.forLanguage("en") != nil)
        #expect(try Hyphenator.forLanguage("fr-CA") != nil)
        #expect(try Hyphenator.forLanguage("xx") == nil)   // well formed, no patterns: no hyphenation
        #expect(throws: TextMeasureError.invalidLanguage("en_US")) { try Hyphenator.forLanguage("en_US") }
        var style = TextStyle()
        style.language = "not a tag"
        #expect(throws: TextMeasureError.invalidLanguage("not a tag")) { try PreparedText("x", style: style) }
    }

    func layout(_ text: String, width: Double, hyphens: Hyphens) throws -> TextLayout {
        var style = TextStyle()
        style.hyphens = hyphens
        style.language = "en-US"
        return try PreparedText(text, style: style).layout(width: width, emptyLines: .label)
    }

    @Test func hyphenatingLetsALineHoldMore() throws {
        let text = "The hyphenation algorithm"
        let width = try PreparedText("The hyphen\u{2010}").unwrappedWidth + 1
        #expect(width < (try PreparedText("The hyphenation").unwrappedWidth))
        let manual = try layout(text, width: width, hyphens: .manual).lines
        let auto = try layout(text, width: width, hyphens: .auto).lines
        #expect(manual.first.map { String($0.text) } == "The ")
        #expect(auto.first?.displayText == "The hyphen\u{2010}")
        #expect(auto.first.map { $0.width <= width } == true)
        #expect(auto.count <= manual.count)
    }

    /// In each language shipped: at every width the first line holds at least what it
    /// holds without hyphenation, and at some widths more, ending with a hyphen that fits.
    @Test(arguments: [("en-US", "The extraordinary internationalization of typography"),
                      ("de", "Die Donaudampfschifffahrt und die Geschwindigkeit der Entwicklung"),
                      ("fr", "Le développement anticonstitutionnellement de la bibliothèque")])
    func hyphenatingLetsTheFirstLineHoldMore(_ language: String, _ text: String) throws {
        func prepared(_ hyphens: Hyphens) throws -> PreparedText {
            var style = TextStyle()
            style.hyphens = hyphens
            style.language = language
            return try PreparedText(text, style: style)
        }
        let auto = try prepared(.auto), manual = try prepared(.manual)
        var holdsMore = 0
        for width in stride(from: 120.0, through: 400, by: 9) {
            let hyphenated = try #require(try auto.layout(width: width, emptyLines: .label).lines.first)
            let plain = try #require(try manual.layout(width: width, emptyLines: .label).lines.first)
            #expect(hyphenated.utf16Range.upperBound >= plain.utf16Range.upperBound, "\(language) at \(width)")
            #expect(hyphenated.width <= width + 1.0 / 64)
            if hyphenated.utf16Range.upperBound > plain.utf16Range.upperBound {
                #expect(hyphenated.hyphen != nil && hyphenated.displayText.hasSuffix("\u{2010}"))
                holdsMore += 1
            }
        }
        #expect(holdsMore > 0, "\(language): hyphenation never let the first line hold more")
    }

    @Test func aWordThatFitsIsNotHyphenated() throws {
        let lines = try layout("The hyphenation algorithm", width: 1000, hyphens: .auto).lines
        #expect(lines.count == 1)
        #expect(lines[0].hyphen == nil)
    }

    @Test func hyphensNoneIgnoresSoftHyphens() throws {
        let text = "co\u{AD}operate"
        let width = try PreparedText("operate").unwrappedWidth + 1
        #expect(try layout(text, width: width, hyphens: .manual).lines.first?.hyphen != nil)
        let none = try layout(text, width: width, hyphens: .none).lines
        #expect(none.allSatisfy { $0.hyphen == nil })
        #expect(none.first?.lineEnd == .emergencyBreak)
    }
}

/// `lang` per styled run (issues 12 and 14): each run's words hyphenate by its own
/// language's patterns.
@Suite struct RunLanguageTests {
    static let english = "hyphenation", german = "zusammenarbeit"

    /// The UTF-16 offsets of the hyphenation points preparing `attributed` found.
    static func points(_ attributed: AttributedText) throws -> [Int] {
        try PreparedText(attributed).segments.filter(\.endsWithSoftHyphen).map { Int($0.end) }
    }

    /// libhyphen's points of `word` (from `file`'s patterns) as offsets in a text where it starts at `start`.
    static func libhyphen(_ word: String, file: String, at start: Int) throws -> [Int] {
        let dictionary = try #require(hnj_hyphen_load(Hyphenator.directory + "/" + file))
        defer { hnj_hyphen_free(dictionary) }
        return HyphenationTests.libhyphenPoints(word, dictionary: dictionary, utf8: !file.hasPrefix("hyph_de"))
            .map { start + $0 }
    }

    func text(base: String?, runs: [(Range<Int>, String)]) throws -> AttributedText {
        var style = TextStyle()
        style.hyphens = .auto
        style.language = base
        var attributed = AttributedText(Self.english + " " + Self.german, style: style)
        for (range, language) in runs { try attributed.setAttributes(TextAttributes(language: language), utf16Range: range) }
        return attributed
    }

    @Test func anEnglishAndAGermanRunHyphenateEachByItsOwnPatterns() throws {
        let germanStart = Self.english.utf16.count + 1
        let german = germanStart..<(germanStart + Self.german.utf16.count)
        let expected = try Self.libhyphen(Self.english, file: "hyph_en_US.dic", at: 0)
            + Self.libhyphen(Self.german, file: "hyph_de.dic", at: germanStart)
        #expect(try Self.points(text(base: "en-US", runs: [(german, "de")])) == expected)
        #expect(try Self.points(text(base: nil, runs: [(0..<Self.english.utf16.count, "en-US"), (german, "de")]))
                == expected)
        // The German word by English patterns breaks elsewhere: the run's language is what chose.
        let allEnglish = try Self.libhyphen(Self.english, file: "hyph_en_US.dic", at: 0)
            + Self.libhyphen(Self.german, file: "hyph_en_US.dic", at: germanStart)
        #expect(allEnglish != expected)
        #expect(try Self.points(text(base: "en-US", runs: [])) == allEnglish)
        // A run without a language of its own keeps the base's; no language, no points.
        #expect(try Self.points(text(base: "en-US", runs: [(german, "de"), (0..<2, "en-US")])) == expected)
        #expect(try Self.points(text(base: nil, runs: [(german, "de")]))
                == Self.libhyphen(Self.german, file: "hyph_de.dic", at: germanStart))
    }

    @Test func anEditedParagraphAfterTheFirstHyphenatesItsRunsByTheirOwnPatterns() throws {
        // The paragraph an edit prepares again starts inside the text: its runs' ranges
        // are offsets in the whole text, not in the paragraph.
        var style = TextStyle()
        style.hyphens = .auto
        style.language = "en-US"
        style.whiteSpace = .preWrap
        let first = "first paragraph\n"
        let germanStart = first.utf16.count + Self.english.utf16.count + 1
        var attributed = AttributedText(first + Self.english + " " + Self.german, style: style)
        try attributed.setAttributes(TextAttributes(language: "de"),
                                     utf16Range: germanStart..<(germanStart + Self.german.utf16.count))
        let prepared = try PreparedText(attributed)
        let at = germanStart - 1   // inside the second paragraph: only it is prepared again
        let edited = try prepared.replacingCharacters(inUTF16: at..<at, with: " x")
        try attributed.replaceCharacters(inUTF16: at..<at, with: " x")
        let points = edited.segments.filter(\.endsWithSoftHyphen).map { Int($0.end) }
        #expect(points.filter { $0 > germanStart + 2 } == (try Self.libhyphen(Self.german, file: "hyph_de.dic", at: germanStart + 2)))
        try StyledEditingTests.expectSame(edited, PreparedText(attributed), "German run after an edit")
    }

    @Test func anInvalidRunLanguageIsATypedError() throws {
        var text = AttributedText("hello world")
        #expect(throws: TextMeasureError.invalidRun(index: 0, reason: TextMeasureError.invalidLanguage("en_US").description)) {
            try text.setAttributes(TextAttributes(language: "en_US"), utf16Range: 0..<5)
        }
        let json = #"{"id": 3, "text": "hyphenation", "width": 50, "hyphens": "auto", "spans": [{"start": 0, "end": 5, "lang": "#
        do {
            _ = try MeasurementCase(json: Array((json + #""de_DE"}]}"#).utf8))
            Issue.record("an invalid span lang was read")
        } catch {
            #expect(error.message.contains(#""spans[0].lang" is not a BCP 47 language tag"#))
        }
        let good = try MeasurementCase(json: Array((json + #""de"}]}"#).utf8))
        #expect(good.spans?.first?.lang == "de")
    }
}
