import Testing
@testable import TextMeasure

/// The strict JSON case reader (`MeasurementCase(json:)`, issue 15 and 17): every
/// mistake is an error naming the key, never a guess.
@Suite struct CaseReaderTests {
    func read(_ json: String) throws(CaseReadError) -> MeasurementCase {
        try MeasurementCase(json: Array(json.utf8))
    }

    func message(_ json: String) -> String? {
        readError(json)?.message
    }

    func readError(_ json: String) -> CaseReadError? {
        do { _ = try read(json); return nil } catch { return error }
    }

    @Test func aMistypedKeyIsAnErrorNamingTheNearestKnownOne() {
        #expect(message(#"{"text": "x", "width": 100, "maxlines": 1}"#) == #"unknown key "maxlines"; did you mean "maxLines"?"#)
        #expect(message(#"{"text": "x", "width": 100, "max_lines": 1}"#)?.contains(#"did you mean "maxLines"?"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "widht": 1}"#)?.contains(#"did you mean "width"?"#) == true)
        let far = message(#"{"text": "x", "width": 100, "colour": "red"}"#)
        #expect(far?.hasPrefix(#"unknown key "colour"; the keys are "id", "text""#) == true, "\(far ?? "")")
    }

    @Test func aKeyTwiceIsAnErrorNotTheFirstWinning() {
        let text = message(#"{"text": "x", "width": 100, "width": "abc"}"#)
        #expect(text?.contains(#"duplicate key "width""#) == true, "\(text ?? "")")
        #expect(text?.contains("byte 28") == true, "the offset of the second key: \(text ?? "")")
        #expect(readError(#"{"id": "c", "text": "x", "width": 100, "width": 1}"#)?.id == .string("c"))
        #expect(readError(#"{"id": "c", "id": "d", "text": "x", "width": 100}"#).map { $0.id == nil } == true)
    }

    @Test("ids come back exactly as written", arguments: ["1.0", "1e2", "-0.0", "-0", "1E+2", "123456789012345678901234567890"])
    func numericIDsKeepTheirText(_ id: String) throws {
        let testCase = try read(#"{"id": \#(id), "text": "x", "width": 100}"#)
        #expect(testCase.id == .number(id))
        #expect(testCase.id?.description == id)
    }

    @Test func plainIntegerAndStringIDs() throws {
        #expect(try read(#"{"id": 7, "text": "x", "width": 100}"#).id == .integer(7))
        #expect(try read(#"{"id": "7", "text": "x", "width": 100}"#).id == .string("7"))
        #expect(try read(#"{"id": null, "text": "x", "width": 100}"#).id == nil)
        #expect(message(#"{"id": [1], "text": "x", "width": 100}"#) == #""id" must be a string or a number, got an array"#)
    }

    @Test func wrongTypesNameTheKeyAndTheType() {
        #expect(message(#"{"text": 5, "width": 100}"#) == #""text" must be a string, got a number"#)
        #expect(message(#"{"text": "x", "width": "100"}"#) == #""width" must be a number, got a string"#)
        #expect(message(#"{"text": "x", "width": 100, "fonts": "a.ttf"}"#) == #""fonts" must be an array, got a string"#)
        #expect(message(#"{"text": "x", "width": 100, "maxLines": 1.5}"#)?.hasPrefix(#""maxLines" must be a whole number"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "rules": "css"}"#) == #""rules" must be one of "uax14", "browser", got "css""#)
        #expect(message(#"{"text": "x", "width": 100, "embeddedFallback": "no"}"#) == #""embeddedFallback" must be true or false, got a string"#)
        #expect(message(#"{"width": 100}"#) == #"missing "text""#)
        #expect(message("[1]") == "not a JSON object: an array")
    }

    @Test func paragraphOptionsAreReadAndTheirMistakesNameTheKey() throws {
        let testCase = try read(#"{"text": "x", "width": 100, "textWrap": "balance", "wordBreak": "keep-all", "#
            + #""lineBreak": "strict", "overflowWrap": "normal", "whiteSpace": "normal", "hyphens": "auto", "lang": "en-US"}"#)
        let style = testCase.style()
        #expect(style.textWrap == .balance && style.wordBreak == .keepAll && style.lineBreak == .strict)
        #expect(style.overflowWrap == .normal && style.whiteSpace == .normal && style.hyphens == .auto)
        #expect(style.language == "en-US")
        #expect(message(#"{"text": "x", "width": 100, "textWrap": "even"}"#)?.hasPrefix(#""textWrap" must be one of "wrap""#) == true)
        #expect(message(#"{"text": "x", "width": 100, "wordBreak": "keepAll"}"#)?.hasPrefix(#""wordBreak" must be one of"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "hyphens": true}"#)?.hasPrefix(#""hyphens""#) == true)
        #expect(message(#"{"text": "x", "width": 100, "lang": 5}"#) == #""lang" must be a string, got a number"#)
        #expect(message(#"{"text": "x", "width": 100, "lang": "en_US"}"#)?.hasPrefix(#""lang" is not a BCP 47 language tag"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "textwrap": "balance"}"#)?.contains(#"did you mean "textWrap"?"#) == true)
    }

    @Test func theErrorCarriesTheCaseIDWhenItCanBeRead() {
        do { _ = try read(#"{"id": "a1", "text": "x", "width": 0}"#) } catch {
            #expect(error.id == .string("a1"))
            #expect(error.message.contains("must be greater than 0"), "\(error.message)")
        }
    }

    @Test func numbersOutOfRangeAreOutOfRangeNotInvalidJSON() {
        #expect(message(#"{"text": "x", "width": 1e400}"#) == #""width" is out of range: 1e400 is too large for a number"#)
        #expect(message(#"{"text": "x", "width": 100, "size": -1e999}"#)?.contains("out of range") == true)
    }

    @Test func wholeNumbersBeyondIntAreOutOfRangeNotATrap() {
        #expect(message(#"{"text": "x", "width": 100, "maxLines": 9223372036854775808}"#)?
            .hasPrefix(#""maxLines" must be a whole number from 0 to"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "fonts": [{"path": "a", "index": 1e300}]}"#)?
            .hasPrefix(#""fonts[0].index" must be a whole number"#) == true)
    }

    @Test func insetsNeedFourNumbers() {
        #expect(message(#"{"text": "x", "width": 100, "insets": [1, 2, 3]}"#)
                == #""insets" needs four numbers [top, left, bottom, right], got 3"#)
        #expect(message(#"{"text": "x", "width": 100, "insets": [1, 2, "3", 4]}"#) == #""insets[2]" must be a number, got a string"#)
    }

    @Test func aWidthOfZeroMustBeGreaterThanZero() {
        #expect(message(#"{"text": "x", "width": 0}"#)?.hasPrefix(#""width" must be greater than 0"#) == true)
        #expect(message(#"{"text": "x", "width": -5}"#)?.hasPrefix(#""width" must be greater than 0"#) == true)
    }

    @Test func aNULInAFontPathIsAnError() {
        #expect(message(#"{"text": "x", "width": 100, "fonts": ["f.ttf\u0000junk"]}"#)?
            .hasPrefix(#""fonts[0]" contains a NUL character"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "fonts": [{"path": "f.ttf\u0000"}]}"#)?
            .hasPrefix(#""fonts[0].path" contains a NUL character"#) == true)
    }

    @Test func fontsArePathsOrObjectsWithIndexAndVariations() throws {
        let testCase = try read(#"{"text": "x", "width": 100, "fonts": ["a.ttf", {"path": "b.ttc", "index": 2}, {"path": "c.ttf", "variations": {"wght": 700, "wdth": 87.5}}]}"#)
        #expect(testCase.fonts == [FontReference(path: "a.ttf"), FontReference(path: "b.ttc", index: 2),
                                   FontReference(path: "c.ttf", variations: ["wght": 700, "wdth": 87.5])])
        #expect(message(#"{"text": "x", "width": 100, "fonts": [{"path": "b.ttc", "idx": 2}]}"#)?
            .hasPrefix(#"unknown key "fonts[0].idx""#) == true)
        #expect(message(#"{"text": "x", "width": 100, "fonts": [{"index": 2}]}"#) == #"missing "fonts[0].path""#)
        #expect(message(#"{"text": "x", "width": 100, "fonts": [{"path": "c.ttf", "variations": {"weight": 7}}]}"#)?
            .hasPrefix(#""fonts[0].variations.weight" is not an axis tag"#) == true)
    }

    @Test func lineHeightsArePixelsOrSayWhatTheyAre() throws {
        #expect(try read(#"{"text": "x", "width": 100, "lineHeight": 20}"#).lineHeight == .fixed(20))
        #expect(try read(#"{"text": "x", "width": 100, "lineHeight": "20px"}"#).lineHeight == .fixed(20))
        #expect(try read(#"{"text": "x", "width": 100, "lineHeight": "1.2x"}"#).lineHeight == .multiple(1.2))
        #expect(try read(#"{"text": "x", "width": 100, "lineHeight": "normal"}"#).lineHeight == .normal)
        #expect(try read(#"{"text": "x", "width": 100, "lineHeight": null}"#).lineHeight == nil)
        #expect(message(#"{"text": "x", "width": 100, "lineHeight": "1.2"}"#)?.hasPrefix(#""lineHeight" must be a number of px"#) == true)
        #expect(message(#"{"text": "x", "width": 100, "lineHeight": "0x10px"}"#) != nil)
    }

    @Test("syntax errors say where", arguments: [
        (#"{"text": "x", "width": 0x64}"#, 24), (#"{"text": "x", "width": NaN}"#, 23), (#"{"text": "x",}"#, 13),
        (#"{"text": "x\ud800", "width": 1}"#, 11), (#"{"text": "a"} junk"#, 14), ("{\"text\": \"a\u{01}\"}", 11),
        (#"{"text": 'x'}"#, 9), (#"{"width": 01}"#, 11),
    ] as [(String, Int)])
    func syntaxErrors(_ json: String, offset: Int) {
        let text = message(json)
        #expect(text?.hasPrefix("not valid JSON at byte \(offset):") == true, "\(text ?? "accepted")")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(message(#"{"text": "x", "width": 1, "id": \#(deep)}"#)?.contains("nested deeper") == true)
    }

    @Test func escapesAndAByteOrderMarkAreRead() throws {
        #expect(try read(#"{"text": "\u00e9\ud83d\ude00\n\"\\\/", "width": 100}"#).text == "é😀\n\"\\/")
        #expect(try MeasurementCase(json: [0xEF, 0xBB, 0xBF] + Array(#"{"text": "x", "width": 1}"#.utf8)).text == "x")
    }

    @Test func everyKnownKeyIsRead() throws {
        let testCase = try read(#"""
            {"id": "all", "text": "x", "fonts": ["a.ttf"], "embeddedFallback": false, "size": 15, "width": 100,
             "lineHeight": "1.5x", "rules": "uax14", "insets": [1, 2, 3, 4], "padding": 5, "maxLines": 2,
             "lineBreakMode": "truncate-tail", "emptyLines": "label"}
            """#)
        #expect(testCase == MeasurementCase(id: "all", text: "x", fonts: ["a.ttf"], embeddedFallback: false, size: 15,
                                            width: 100, lineHeight: .multiple(1.5), rules: .uax14, insets: [1, 2, 3, 4],
                                            padding: 5, maxLines: 2, lineBreakMode: .byTruncatingTail, emptyLines: .label))
    }
}

/// A case made in Swift with a width of 0 says what a width must be (issue 17).
@Test func aZeroWidthCaseSaysGreaterThanZero() {
    #expect(throws: TextMeasureError.invalidWidth(0)) { try MeasurementCase(text: "x", width: 0).measure(fonts: FontCache()) }
    #expect(TextMeasureError.invalidWidth(0).description.contains("must be greater than 0"))
    #expect(TextMeasureError.invalidWidth(-1).description.contains("not negative"))
}
