import Foundation
import Testing
import TextMeasure
@testable import textmeasure

/// `batch` writes its lines with `JSONWriter`, by hand; these must be byte for byte what the
/// encoder it replaced (`JSONOutput.line`: JSONEncoder, sorted keys, slashes unescaped) writes,
/// and valid JSON that reads back to the same values.
@Suite struct JSONWriterTests {
    /// Every control character, the characters JSON escapes, and those it may but need not:
    /// DEL, U+2028/U+2029 (line and paragraph separators, which JavaScript once refused),
    /// non-BMP characters (one surrogate pair in UTF-16), a lone combining mark, a BOM.
    static let awkwardStrings: [String] = {
        let controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        let others = ["", "\"", "\\", "/", "\\\"", "\"\\/\"", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}",
                      "😀", "𝄞 clef", "\u{10FFFF}", "e\u{301}", "\u{E000}", "a\u{0}b", "\r\n", "</script>",
                      "unknown key \"maxlines\"; did you mean \"maxLines\"?", "مرحبا \u{200F}", "\u{1F469}\u{200D}\u{1F4BB}"]
        return controls + [controls.joined()] + others + [others.joined()]
    }()

    private static func encoded<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("a string is escaped exactly as JSONEncoder escapes it, and reads back", arguments: awkwardStrings)
    func stringsMatchTheEncoder(_ value: String) throws {
        var writer = JSONWriter()
        writer.string(value)
        #expect(writer.text == (try Self.encoded([value])).dropFirst().dropLast())
        // Read back by the batch's own strict reader (JSONSerialization drops a BOM even inside a string).
        #expect(try StrictJSON.parse(Array(writer.text.utf8)) == .string(value))
    }

    @Test func numbersMatchTheEncoder() throws {
        let numbers: [Double] = [0, -0.0, 1, -1, 17, 39, 95.73, 0.01, 0.1, 1.0 / 3, 390.5, 1e15, 1e16, 1e17, 123456789.25,
                                 1e-5, 1e-7, 2.5e-4, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 4_294_967_296]
        for number in numbers {
            var writer = JSONWriter()
            writer.array([number]) { $0.number($1) }
            #expect(writer.text == (try Self.encoded([number])), "\(number)")
        }
        var integers = JSONWriter()
        integers.array([0, -1, 7, .max, .min]) { $0.integer($1) }
        #expect(integers.text == (try Self.encoded([0, -1, 7, Int.max, Int.min])))
    }

    static let ids: [CaseID?] = [nil, .string("a1"), .string("\"/\\\u{2028}😀\u{1}"), .integer(0), .integer(-7),
                                 .number("1.0"), .number("-0.0"), .number("1e400"), .number("2.50E-3")]

    @Test("an error line is the encoder's, whatever its id and message")
    func failuresMatchTheEncoder() {
        for id in Self.ids {
            for message in Self.awkwardStrings {
                let failure = JSONLine.Failure(id: id, error: message)
                #expect(failure.jsonLine == JSONOutput.line(failure), "\(String(describing: id)) \(message.debugDescription)")
            }
        }
    }

    @Test("a result line is the encoder's, with and without each optional field")
    func resultsMatchTheEncoder() {
        var checked = 0
        for id in Self.ids {
            for (truncated, missing) in [(nil, nil), (true, nil), (false, 3), (nil, 1)] as [(Bool?, Int?)] {
                for boxes in [nil, [], [[0, 1, 0, 8.5, 17.25], [1, 3, 1, 0, 1e-4]]] as [[[Double]]?] {
                    let result = MeasurementResult(id: id, lines: 2, height: 39, width: 390, usedWidth: 95.73,
                                                   lineStarts: [0, 12], truncated: truncated, missingGlyphs: missing,
                                                   boxes: boxes)
                    let output = BatchCommand.Output.result(result)
                    #expect(result.jsonLine == JSONOutput.line(output))
                    #expect(output.jsonLine == JSONOutput.line(output))
                    checked += 1
                }
            }
        }
        #expect(checked == Self.ids.count * 4 * 3)
    }

    @Test("a number JSON cannot hold is left to the encoder")
    func nonFiniteNumbersFallBackToTheEncoder() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let result = MeasurementResult(id: .integer(1), lines: 1, height: 20, width: 390, usedWidth: bad, lineStarts: [0])
            #expect(result.jsonLine == nil)
            let output = BatchCommand.Output.result(result)
            #expect(output.jsonLine == JSONOutput.line(output))
        }
        let finite = MeasurementResult(id: .integer(1), lines: 1, height: 20, width: 390, usedWidth: 3, lineStarts: [0])
        #expect(finite.jsonLine != nil)
    }
}
