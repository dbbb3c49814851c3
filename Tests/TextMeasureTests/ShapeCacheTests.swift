import Testing
import TextMeasure
@testable import TextMeasureShaping
@testable import TextMeasurePreparation

/// The shape cache changes how fast a text is prepared, never what preparing it gives.
@Suite struct ShapeCacheTests {
    /// What preparation produced, all of it.
    struct Prepared: Equatable {
        var segments: [Segment]
        var ends: [Int32]
        var widths: [Int32]
        var fonts: [UInt8]
        var hangs: [Bool]
        var ellipsis: Ellipsis
        /// Whole layouts, which also cover what the arrays above leave out: line-edge
        /// widths of broken words, tab stops and line boxes (see `CachedLayoutTests`).
        var layouts: [[TextLayout.Line]]

        init(_ prepared: PreparedText) {
            // Narrow enough to break words (where the edge widths apply), and a text column.
            layouts = [10.0, 200].map { try! prepared.layout(width: $0).lines }
            segments = prepared.segments
            ends = prepared.graphemeEnds
            widths = prepared.graphemeWidths
            fonts = prepared.graphemeFonts
            hangs = prepared.graphemeHangs
            ellipsis = prepared.ellipsis
        }
    }

    /// Texts whose segments meet in many contexts: repeated words, scripts that
    /// inherit the script before them (digits, quotes, emoji), marks and joiners
    /// right after a space, line breaks of every kind, a word too long to cache.
    static let texts: [String] = [
        "In my younger and more vulnerable years my father gave me some advice that I’ve been turning over in my mind ever since.",
        "“Whenever you feel like criticizing anyone,” he told me, “just remember that all the people in this world haven’t had the advantages that you’ve had.”",
        "Meet me at 10:30, not 11:00 (the 2nd floor). Room 404 — or 405? Call 555-0199; rates: 12.5% / $3.99.",
        "Привет 123 мир, hello 123 world, مرحبا 123 بالعالم, שלום 123 עולם",
        "我冒了嚴寒，回到相隔二千餘里，別了二十餘年的故鄕去。 時候既然是深冬；漸近故鄕時，天氣又陰晦了",
        "وهذا كتاب لا أغرك منه ولا أستر عنك عيبه. لأنه لا يجوز أن يكمل لما تريده",
        "ईदगाह रमजान के पूरे तीस रोजों के बाद आज ईद आयी है। कितना मनोहर, कितना सुहावना प्रभात है।",
        "พุทธิศริระกล่าวดังนั้นแล้ว เจ้าและข้าก็ชวนกันขึ้นม้าหันกลับเข้าเมือง ในเวลาเดินทาง",
        "소나기 소년은 개울가에서 소녀를 보자 곧 윤 초시네 증손녀딸이라는 걸 알 수 있었다.",
        // Letters cached one by one (context-free: see `lettersNoRuleReachesAreCachedOneByOne`)
        // beside what joins them: trailing and leading jamo, marks, variation selectors,
        // a Prepend character, kana and punctuation, other fonts.
        "한\u{11A8}글 \u{1100}\u{1161}\u{11A8}가\u{1100}각 ᄀ가한글 漢字\u{301}字 漢\u{FE00}字字 \u{600}漢字",
        "東京は日本語の文章も。カタカナ、ひらがな「引用」我记得小时候ーっ、漢A漢1漢😀漢",
        "같한같한 소나기소나기 한국어한국어 字字字字字字字字",
        // Hangul of two fonts (Droid Sans Fallback draws 가, and 갈, 같, 간 from its jamo;
        // NanumSquare the rest) meeting each other, ideographs, kana, Latin and punctuation.
        "소녀가 개울가에서 갈꽃을 안고 같이 가을 갔다. 가가 간간 曾孫女가 かな가 A가 가A 가。 (가) 가\u{11A8}나 나\u{1100}가",
        "Family 👨‍👩‍👧‍👦 and flags 🇫🇷🇯🇵 🇺🇸 thumbs 👍🏽 👍 keycaps 1️⃣ #️⃣ done 👍",
        "marks after spaces: a \u{301}b c \u{200D}d e \u{2044}f g \u{FE0F}h ok",
        "lines\nand\r\nparagraphs\u{2028}and\u{2029}more\u{85}end\u{0B}x\u{0C}y\n\nlast\n",
        "tabs\tand\t\tmore tabs\t end",
        "AVATAR Typography office: ffi ffl fi fl — Wolf Vowel Tea Toffee AV AW Yo",
        "https://example.com/a/very/long/path/with/slashes/and-hyphens-everywhere/index.html?query=1&other=2 plus a word",
        String(repeating: "x", count: 300) + " after a word too long to cache " + String(repeating: "y", count: 129),
        String(repeating: "well-known non-trivial co-operation, self-evident re-entry; ", count: 120),
    ]


    @Test func preparingWithTheCacheGivesWhatPreparingWithoutItGives() throws {
        let cache = ShapeCache(capacity: 100_000)
        for text in try Self.texts + FixtureTexts.names.map(FixtureTexts.text) {
            let reference = Prepared(try PreparedText(text, cache: nil))
            // First sight, second (stored), third (served from the cache).
            for pass in 1...3 {
                #expect(Prepared(try PreparedText(text, cache: cache)) == reference, "pass \(pass): \(text.prefix(40))")
            }
        }
        #expect(cache.statistics.hits > 1_000)
    }

    @Test func segmentsMeetingInNewContextsAreStillExact() throws {
        let cache = ShapeCache(capacity: 100_000)
        // Teach the cache every text's segments, then prepare mixtures of them.
        for text in Self.texts { for _ in 1...2 { _ = try PreparedText(text, cache: cache) } }
        let hitsBefore = cache.statistics.hits
        for (a, b) in zip(Self.texts, Self.texts.dropFirst()) {
            for mixture in [a + " " + b, b + "\n" + a, "(" + a + ") " + b, a + b] {
                #expect(Prepared(try PreparedText(mixture, cache: cache)) == Prepared(try PreparedText(mixture, cache: nil)))
            }
        }
        #expect(cache.statistics.hits > hitsBefore)
    }

    @Test func theKeyHoldsSizeFeaturesAndTabSize() throws {
        let cache = ShapeCache(capacity: 1_000)
        let text = "AVATAR Typography\toffice AVATAR Typography\toffice"
        let styles = [TextStyle(fontSize: 17), TextStyle(fontSize: 18), TextStyle(fontSize: 17, fontFeatures: ["-kern"]),
                      TextStyle(fontSize: 17, tabSize: 4)]
        for _ in 1...3 {
            for style in styles {
                #expect(Prepared(try PreparedText(text, style: style, cache: cache))
                        == Prepared(try PreparedText(text, style: style, cache: nil)))
            }
        }
        // The styles really differ, so a key without them would have served wrong widths.
        let widths = try styles.map { style in
            try PreparedText(text, style: style, cache: nil).segments.map { [$0.width, $0.trailingWidth] }
        }
        #expect(Set(widths).count == styles.count)
    }

    @Test func aSegmentIsStoredTheSecondTimeItIsLookedUp() throws {
        let cache = ShapeCache(capacity: 1_000)
        _ = try PreparedText("alpha beta", cache: cache)
        #expect(cache.statistics == .init(hits: 0, misses: 2, insertions: 0, evictions: 0, count: 0))
        _ = try PreparedText("alpha beta", cache: cache)
        #expect(cache.statistics == .init(hits: 0, misses: 4, insertions: 2, evictions: 0, count: 2))
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText("alpha beta", cache: cache)
        #expect(cache.statistics == .init(hits: 2, misses: 4, insertions: 2, evictions: 0, count: 2))
        // Served whole: ICU's line breaks, and neither clusters nor shaping.
        #expect(MeasuringProbe.callsOnThisThread - before == 1)
    }

    @Test func theCacheHoldsNoMoreThanItsCapacity() throws {
        let cache = ShapeCache(capacity: 64)
        let words = (0..<2_000).map { "word\($0) " }
        let text = words.joined()
        for _ in 1...2 { _ = try PreparedText(text, cache: cache) }
        let statistics = cache.statistics
        #expect(statistics.count <= 64)
        #expect(statistics.count >= 32)   // one per shard at least, once full
        #expect(statistics.evictions > 1_000)
        #expect(Prepared(try PreparedText(text, cache: cache)) == Prepared(try PreparedText(text, cache: nil)))
    }

    @Test func theTablesGrowAsTheShardsFillAndStillFindEverySegment() throws {
        // 32 shards of 300: each table starts at 64 slots and doubles on the way to 1,024.
        let cache = ShapeCache(capacity: 9_600)
        let text = (0..<6_000).map { "w\($0) " }.joined()
        for _ in 1...2 { _ = try PreparedText(text, cache: cache) }
        let stored = cache.statistics
        #expect(stored.count == 6_000)
        #expect(stored.evictions == 0)
        _ = try PreparedText(text, cache: cache)
        #expect(cache.statistics.hits - stored.hits == 6_000)
        #expect(Prepared(try PreparedText(text, cache: cache)) == Prepared(try PreparedText(text, cache: nil)))
        // Past the capacity, evictions delete from the grown tables; what stays is found exactly.
        let more = (0..<20_000).map { "x\($0) " }.joined()
        for _ in 1...2 { _ = try PreparedText(more, cache: cache) }
        #expect(cache.statistics.count <= 9_600)
        #expect(cache.statistics.evictions > 0)
        #expect(Prepared(try PreparedText(more, cache: cache)) == Prepared(try PreparedText(more, cache: nil)))
        #expect(Prepared(try PreparedText(text, cache: cache)) == Prepared(try PreparedText(text, cache: nil)))
    }

    @Test func removeAllEmptiesTheCache() throws {
        let cache = ShapeCache(capacity: 1_000)
        for _ in 1...3 { _ = try PreparedText("one two three", cache: cache) }
        #expect(cache.statistics.count == 3)
        cache.removeAll()
        #expect(cache.statistics.count == 0)
        let hits = cache.statistics.hits
        _ = try PreparedText("one two three", cache: cache)
        #expect(cache.statistics.hits == hits)
    }

    @Test func aCacheOfCapacityZeroStoresNothing() throws {
        let cache = ShapeCache(capacity: 0)
        for text in Self.texts {
            for _ in 1...2 {
                #expect(Prepared(try PreparedText(text, cache: cache)) == Prepared(try PreparedText(text, cache: nil)))
            }
        }
        #expect(cache.statistics == .init(hits: 0, misses: 0, insertions: 0, evictions: 0, count: 0))
    }

    @Test func lettersNoRuleReachesAreCachedOneByOne() throws {
        let contexts = FontSet.default.clusterContexts
        // NanumSquare's kerning pairs reach no Hangul syllable; Noto Sans kerns "A",
        // Noto Sans Thai its consonants; "같" is drawn from Droid's jamo, not a glyph of
        // its own. Droid Sans Fallback's one lookup (vertical forms) reaches no ideograph
        // or kana, but it positions nothing, so shaping them costs less than a lookup.
        for letter in ["한", "소", "나", "기"] {
            #expect(contexts[Int(letter.utf16.first!)] & ClusterContext.contextFree != 0, "\(letter)")
        }
        for other in ["中", "か", "같", "A", "ก", "。", "1", "\u{1100}", "\u{11A8}", "\u{301}", "م"] {
            #expect(contexts[Int(other.utf16.first!)] & ClusterContext.contextFree == 0, "\(other)")
        }
        #expect(contexts[0x1100] & ClusterContext.joinsNext != 0 && contexts[0x11A8] & ClusterContext.joinsPrevious != 0)
        let cache = ShapeCache(capacity: 1_000)
        let korean = "소나기소년은개울가에서소녀를", thai = "พุทธิศริระกล่าวดังนั้นแล้ว"
        for _ in 1...3 { _ = try PreparedText(korean, cache: cache) }
        #expect(cache.statistics.hits >= 10)
        let hits = cache.statistics.hits
        for _ in 1...3 { _ = try PreparedText(thai, cache: cache) }
        #expect(cache.statistics.hits == hits)
    }

    @Test func lettersOfTwoFontsMeetAtSafeBreaks() throws {
        let fonts = FontSet.default
        let contexts = fonts.clusterContexts
        func tag(_ letter: String) -> UInt8 { contexts[Int(letter.utf16.first!)] >> ClusterContext.fontTagShift }
        // Droid Sans Fallback draws 가 (and 갈 from its jamo), ideographs and kana;
        // NanumSquare the other Hangul; Latin, Thai, punctuation and jamo have no tag.
        #expect(tag("가") != 0 && tag("가") == tag("갈") && tag("가") == tag("中") && tag("가") == tag("か"))
        #expect(tag("소") != 0 && tag("소") == tag("녀") && tag("소") != tag("가"))
        for other in ["A", "ก", "。", "1", "(", "م", "\u{1100}", "\u{11A8}", " "] { #expect(tag(other) == 0, "\(other)") }

        // Safe: between NanumSquare letters (context-free), between letters of the two
        // fonts, after spaces; not between two of Droid's, nor before a trailing jamo.
        let text = Array("소녀가 갈꽃 가가 中가 가\u{11A8}나".utf16)
        let safe = try text.withUnsafeBufferPointer { buffer in
            let style = TextStyle(fontSize: 17)
            let breaks = try Boundaries.lineBreaks(in: buffer, rules: style.lineBreakRules, options: style.lineBreakOptions)
            var safe = [Bool](repeating: false, count: breaks.count)
            breaks.withUnsafeBufferPointer { breaks in
                safe.withUnsafeMutableBufferPointer { Stretch.markSafeBreaks(breaks, in: buffer, fonts: fonts, into: $0.baseAddress!) }
            }
            return zip(breaks, safe).map { (String(decoding: text[..<$0.utf16Offset], as: UTF16.self), $1) }
        }
        let expected = [("소", true), ("소녀", true), ("소녀가 ", true), ("소녀가 갈", true), ("소녀가 갈꽃 ", true),
                        ("소녀가 갈꽃 가", false), ("소녀가 갈꽃 가가 ", true), ("소녀가 갈꽃 가가 中", false),
                        ("소녀가 갈꽃 가가 中가 ", true), ("소녀가 갈꽃 가가 中가 가\u{11A8}", false),
                        ("소녀가 갈꽃 가가 中가 가\u{11A8}나", true)]
        #expect(safe.map(\.0) == expected.map(\.0))
        #expect(safe.map(\.1) == expected.map(\.1))

        // So Korean with Droid's syllables is served from the cache, segment by segment.
        let cache = ShapeCache(capacity: 1_000)
        let korean = "소녀가개울가에서갈꽃을안고같이"
        for _ in 1...2 { _ = try PreparedText(korean, cache: cache) }
        let misses = cache.statistics.misses
        let prepared = Prepared(try PreparedText(korean, cache: cache))
        #expect(cache.statistics.misses == misses)
        #expect(prepared == Prepared(try PreparedText(korean, cache: nil)))
    }

    @Test func randomMixturesOfHangulOfTwoFontsAreExact() throws {
        // Droid's syllables and NanumSquare's, with what joins them (trailing and
        // leading jamo, a mark, a variation selector), ideographs, kana, Latin, punctuation.
        let pieces = ["가", "갈", "같", "간", "소", "녀", "한", "나", "中", "字", "か", "カ", "A", "fi", "。", ",", " ", "(",
                      ")", "“", "\u{11A8}", "\u{1100}", "\u{1161}", "\u{301}", "\u{FE00}", "👍", "\n", "1"]
        var random = LineBreakModeFuzzTests.Generator(state: 0x4B4F_5245_414E)
        let cache = ShapeCache(capacity: 10_000)
        let texts = (0..<150).map { _ in
            (0..<Int.random(in: 1...40, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        // Every text three times (seen, stored, served), then each again after others filled the cache.
        for text in texts + texts.reversed() {
            let reference = Prepared(try PreparedText(text, cache: nil))
            for pass in 1...3 {
                #expect(Prepared(try PreparedText(text, cache: cache)) == reference, "pass \(pass): \(text)")
            }
        }
        #expect(cache.statistics.hits > 500)
    }

    @Test func fontsWhoseSpaceTakesPartInShapingAreNotCachedWordByWord() throws {
        #expect(FontSet.default.spacesSeparateShaping)
        // Noto Sans Devanagari uses its space glyph in a GPOS lookup.
        let devanagari = try FontSet([FontSet.default.fonts[3]])
        #expect(devanagari.fonts[0].name == "NotoSansDevanagari-Regular.ttf")
        #expect(!devanagari.spacesSeparateShaping)
        let cache = ShapeCache(capacity: 1_000)
        for _ in 1...3 { _ = try PreparedText("हिन्दी पाठ हिन्दी पाठ", fonts: devanagari, cache: cache) }
        #expect(cache.statistics.misses == 0)
    }

    @Test func threadsSharingACacheGetExactResults() async throws {
        let cache = ShapeCache(capacity: 256)   // small, so that threads also evict
        let texts = Self.texts
        let references = try texts.map { Prepared(try PreparedText($0, cache: nil)) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<20 {
                        let index = (worker * 7 + round * 3) % texts.count
                        if Prepared(try PreparedText(texts[index], cache: cache)) != references[index] { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(cache.statistics.hits > 0)
    }
}
