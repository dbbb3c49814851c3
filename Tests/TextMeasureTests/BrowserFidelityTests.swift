// Foundation only for JSONDecoder: the recorded cases are the JSONL that
// `scripts/browser-check` writes. This module sees no ICU headers, so the
// Foundation/ICU clash of the platform notes cannot happen here.
import Foundation
import Testing
import TextMeasure

/// TextMeasure against Chromium's recorded answers for the browser corpus
/// (`Tests/Fixtures/browser/chromium.jsonl`, re-recorded by
/// `scripts/browser-check --record`): line starts must be identical and heights
/// within half a pixel, except for the cases in the ledger of known differences,
/// which must still differ (so a fix updates the ledger).
@Suite struct BrowserFidelityTests {
    struct Answer: Decodable {
        var lineStarts: [Int]
        var height: Double
    }

    struct Recorded: Decodable {
        var id: String
        var script: String
        var chromium: Answer
    }

    static let directory = packageRoot + "/Tests/Fixtures/browser/"

    static func recordedCases() throws -> [(MeasurementCase, Recorded)] {
        let contents = try #require(readTextFile(directory + "chromium.jsonl"))
        let decoder = JSONDecoder()
        return try contents.split(separator: "\n").map { line in
            let data = Data(line.utf8)
            var measurement = try decoder.decode(MeasurementCase.self, from: data)
            // Font paths in the corpus are relative to the package.
            let resolve = { (font: FontReference) in
                var font = font
                if !font.path.hasPrefix("/") { font.path = packageRoot + "/" + font.path }
                return font
            }
            measurement.fonts = measurement.fonts?.map(resolve)
            measurement.spans = measurement.spans?.map { span in
                var span = span
                span.fonts = span.fonts?.map(resolve)
                return span
            }
            // Chromium had only the listed fonts, as `scripts/browser-check` runs it.
            if measurement.fonts != nil { measurement.embeddedFallback = false }
            return (measurement, try decoder.decode(Recorded.self, from: data))
        }
    }

    /// Ids of the cases where TextMeasure is known to differ from Chromium (the
    /// README's ledger says why), one per line.
    static func knownDifferences() -> Set<String> { Set(knownDifferenceBounds().keys) }

    /// How far each known difference may go: the line starts found in only one of the
    /// two answers, and the difference of the heights in px (the columns after each id).
    static func knownDifferenceBounds() -> [String: (starts: Int, height: Double)] {
        let contents = readTextFile(directory + "known-differences.txt") ?? ""
        var bounds: [String: (starts: Int, height: Double)] = [:]
        for line in contents.split(separator: "\n") {
            let fields = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .split(separator: " ", omittingEmptySubsequences: true)
            guard let id = fields.first else { continue }
            // A line without bounds allows no difference at all: the test then names it.
            bounds[String(id)] = (fields.count > 1 ? Int(fields[1]) ?? 0 : 0, fields.count > 2 ? Double(fields[2]) ?? 0 : 0)
        }
        return bounds
    }

    @Test func lineStartsAndHeightsAgreeWithRecordedChromium() throws {
        let cases = try Self.recordedCases()
        #expect(cases.count > 6000)
        #expect(cases.filter { $0.1.script.hasPrefix("styled-") }.count > 500)
        let fonts = FontCache()
        var differing: Set<String> = []
        let bounds = Self.knownDifferenceBounds()
        for (measurement, recorded) in cases {
            let result = try measurement.measure(fonts: fonts)
            if result.lineStarts != recorded.chromium.lineStarts || abs(result.height - recorded.chromium.height) > 0.5 {
                differing.insert(recorded.id)
                // A known difference must not grow (a fix that shrinks it should update its bounds).
                if let bound = bounds[recorded.id] {
                    let starts = Set(result.lineStarts).symmetricDifference(recorded.chromium.lineStarts).count
                    #expect(starts <= bound.starts && abs(result.height - recorded.chromium.height) <= bound.height,
                            "\(recorded.id) differs more than known: \(starts) line starts, \(result.height) px tall, Chromium \(recorded.chromium.height)")
                }
            }
        }
        let known = Self.knownDifferences()
        #expect(differing.subtracting(known).sorted() == [], "new differences from Chromium: run scripts/browser-check --recorded")
        #expect(known.subtracting(differing).sorted() == [], "fixed: remove these from known-differences.txt")
        #expect(Double(cases.count - differing.count) / Double(cases.count) >= 0.995)
        // Each group of paragraph options (options.json) agrees on 99.5% of its cases on its own,
        // and so does the styled group (styled.json) as a whole.
        func group(_ script: String) -> String { script.hasPrefix("styled-") ? "styled" : script }
        let optionGroups = Set(cases.map { group($0.1.script) }).subtracting(Self.scripts)
        #expect(optionGroups.isSuperset(of: ["shy", "wordbreak-breakall", "wordbreak-keepall", "styled"]))
        for name in optionGroups.sorted() {
            let ids = cases.filter { group($0.1.script) == name }.map(\.1.id)
            let agreeing = ids.filter { !differing.contains($0) }.count
            #expect(Double(agreeing) / Double(ids.count) >= 0.995, "group \(name): \(agreeing) of \(ids.count) agree")
        }
    }

    /// The scripts of the plain corpus (texts.json); every other group has paragraph options.
    static let scripts: Set<String> = ["en", "de", "fr", "zh", "ja", "ko", "th", "ar", "he", "hi", "bidi", "emoji",
                                       "mixed"]
}
