import Foundation
import Testing
import TextMeasureTesting

/// Golden files and their case files are read strictly (issues 15, 17): nothing is
/// dropped or checked for nothing.
@Suite(.temporaryFiles) struct GoldenStrictTests {
    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func recordRefusesAnUnknownKeyRatherThanDroppingIt() throws {
        let directory = try temporaryDirectory()
        try write(#"{"id": "a", "text": "hello there", "width": 50, "max_lines": 1}"#, to: directory + "/cases.jsonl")
        let run = try GoldenCommandTests.textmeasure(["golden", "record", "cases.jsonl", "-o", "golden.json"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains(#"cases.jsonl:1: unknown key "max_lines"; did you mean "maxLines"?"#), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/golden.json"))
    }

    @Test("a golden file that checks nothing, or of an unknown format, is an error", arguments: [
        (#"{"format": 1, "cases": []}"#, #""cases" is empty"#),
        (#"{"format": -7, "cases": []}"#, #""format" must be 1, got -7"#),
        (#"{"format": 1.5, "cases": []}"#, #""format" must be a whole number"#),
        (#"{"format": 9223372036854775808, "cases": []}"#, #""format" must be a whole number"#),
        (#"{"cases": []}"#, #"missing "format""#),
        (#"{"format": 1, "cases": [], "extra": 1}"#, #"unknown key "extra""#),
    ])
    func emptyOrUnknownFormat(_ json: String, _ message: String) throws {
        let directory = try temporaryDirectory()
        try write(json, to: directory + "/golden.json")
        let run = try GoldenCommandTests.textmeasure(["golden", "verify", "golden.json"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aGoldenCaseWithAMistypedKeyIsNamed() throws {
        let directory = try temporaryDirectory()
        let golden = GoldenHeights(path: directory + "/golden.json")
        try golden.record([MeasurementCase(id: "a", text: "hello there", width: 50)])
        let text = try String(contentsOfFile: golden.path, encoding: .utf8)
        try write(text.replacingOccurrences(of: #""width" : 50"#, with: #""width" : 50, "maxline" : 1"#), to: golden.path)
        #expect(throws: GoldenError.malformed(path: golden.path, reason: #"case "a": unknown key "maxline"; did you mean "maxLines"?"#)) {
            try golden.verify()
        }
        try write(text.replacingOccurrences(of: #""recordedWith""#, with: #""recordedwith""#), to: golden.path)
        #expect { try golden.verify() } throws: { error in
            "\(error)".contains(#"unknown key "expected.recordedwith"; did you mean "expected.recordedWith"?"#)
        }
    }

    @Test func numericIDsAndLineHeightMultiplesRoundTrip() throws {
        let directory = try temporaryDirectory()
        try write(#"{"id": 1.0, "text": "hello there", "width": 50, "lineHeight": "1.5x"}"# + "\n"
                  + #"{"id": 2, "text": "hello there", "width": 50, "lineHeight": "2x"}"#, to: directory + "/cases.jsonl")
        let record = try GoldenCommandTests.textmeasure(["golden", "record", "cases.jsonl", "-o", "golden.json"], in: directory)
        #expect(record.status == 0, "\(record.stderr)")
        let text = try String(contentsOfFile: directory + "/golden.json", encoding: .utf8)
        #expect(text.contains(#""id" : 1.0,"#) && text.contains(#""lineHeight" : "1.5x""#), "\(text)")
        #expect(text.contains(#""lineHeight" : "2x""#), "\(text)")
        let verify = try GoldenCommandTests.textmeasure(["golden", "verify", "golden.json"], in: directory)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
