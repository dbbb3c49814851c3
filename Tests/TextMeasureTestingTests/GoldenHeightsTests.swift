import Foundation
import Testing
import TextMeasureTesting
@testable import TextMeasureTestingCore

@Suite(.temporaryFiles) struct GoldenHeightsTests {
    /// A composer, a chat bubble in CJK with a fixed line height, and a label in a
    /// font file: three kinds of case, one of each option.
    static func cases(fontPath: String = notoSansPath) -> [MeasurementCase] {
        [
            MeasurementCase(id: "composer", text: gatsby, width: 390, insets: [8, 0, 8, 0], padding: 5),
            MeasurementCase(id: .integer(2), text: "今天天气很好，我们去公园散步吧。晚上一起吃饭？", size: 15, width: 160, lineHeight: .fixed(20)),
            MeasurementCase(id: "label", text: "Hello, wrapping world", fonts: [fontPath], width: 120),
        ]
    }

    /// Records `cases()` into a fresh directory, then edits the recorded file as a
    /// regression would look from the other side; returns the golden heights and the
    /// edited file.
    static func recorded(editedBy edit: (inout GoldenFile) -> Void) throws -> (GoldenHeights, GoldenFile) {
        let golden = GoldenHeights(path: try temporaryDirectory() + "/golden.json")
        try golden.record(cases())
        var file = try GoldenFile(contentsOfFile: golden.path)
        edit(&file)
        try file.write(to: golden.path)
        return (golden, file)
    }

    /// What `testCase` measures, as a golden file records it.
    static func expectation(of testCase: MeasurementCase) throws -> GoldenExpectation {
        let golden = GoldenHeights(path: try temporaryDirectory() + "/one.json")
        try golden.record([testCase])
        return try #require(try GoldenFile(contentsOfFile: golden.path).cases.first?.expected)
    }

    /// A recorded case edited as if its second line had started three code units earlier.
    static func moveSecondBreak(of golden: inout GoldenCase) {
        golden.expected.lineStarts[1] -= 3
        golden.expected.lines = GoldenExpectation.lines(of: golden.input.text, startingAt: golden.expected.lineStarts)
    }

    @Test func recordThenVerifyPasses() throws {
        let directory = try temporaryDirectory()
        let golden = GoldenHeights(path: directory + "/golden.json")
        let recorded = try golden.record(Self.cases())
        #expect(recorded.outcome == .recorded(.requested))
        #expect(!recorded.passed, "recording verifies nothing")

        let report = try golden.verify()
        #expect(report.passed, "\(report)")
        #expect(report.caseCount == 3 && report.mismatches.isEmpty)
        #expect(report.description.contains("all 3 cases match"))

        // What was recorded is what TextMeasure measures, taken apart independently.
        let file = try GoldenFile(contentsOfFile: golden.path)
        for (golden, input) in zip(file.cases, Self.cases()) {
            let measurer = try TextMeasurer(text: input.text, fonts: FontCache().fontSet(input.fonts ?? [], embeddedFallback: true),
                                            style: input.style(), container: input.container())
            #expect(golden.expected.height == measurer.sizeThatFits(ProposedSize(width: input.width))?.height)
            #expect(golden.expected.lineCount == golden.expected.lineStarts.count)
            #expect(golden.expected.lines.joined() == input.text, "the lines are the text, cut at the line starts")
            #expect(golden.expected.lineCount > 1, "each case wraps, so a moved break would show")
            #expect(golden.expected.recordedWith == TextMeasure.version)
        }
    }

    @Test func aChangedHeightFailsAndNamesOnlyThatCase() throws {
        // As if TextMeasure had measured case 2 as it measures it at a narrower width.
        var narrower = Self.cases()[1]
        narrower.width -= 70
        let expected = try Self.expectation(of: narrower)
        var recorded: GoldenExpectation?
        let (golden, _) = try Self.recorded { file in
            recorded = file.cases[1].expected
            file.cases[1].expected = expected
        }
        let actual = try #require(recorded)
        #expect(expected.lineCount > actual.lineCount && expected.height > actual.height)

        let report = try golden.verify()
        #expect(!report.passed)
        #expect(report.mismatches.map(\.id) == [.integer(2)])
        let mismatch = try #require(report.mismatches.first)
        #expect(mismatch.problem == .changed)
        let text = report.description
        #expect(text.contains("1 of 3 cases do not match"))
        #expect(text.contains("✗ 2: height expected \(Int(expected.height)), actual \(Int(actual.height))"))
        #expect(text.contains("lines expected \(expected.lineCount), actual \(actual.lineCount)"))
        #expect(!text.contains("✗ composer") && !text.contains("✗ label"))
        // The lines side by side: every line of both is shown, and the rows that differ are marked.
        for line in actual.lines + expected.lines { #expect(text.contains(line.debugDescription)) }
        #expect(text.contains("≠ \(expected.lineCount)"))
    }

    @Test func aMovedBreakAtTheSameHeightFails() throws {
        let (golden, file) = try Self.recorded { Self.moveSecondBreak(of: &$0.cases[0]) }
        let report = try golden.verify()
        #expect(report.mismatches.map(\.id) == [.string("composer")])
        #expect(report.description.contains("✗ composer: height \(Int(file.cases[0].expected.height)) as expected; line breaks moved"))
        // The first line lost its last word to the second; the third is the same.
        #expect(report.description.contains("≠ 1") && report.description.contains("≠ 2"))
        #expect(!report.description.contains("≠ 3"))
    }

    /// A styled case records the spans on each line: a span moving to another line fails
    /// it even where the line starts do not move; a file recorded before (no `lineRuns`)
    /// still verifies, and plain cases record none.
    @Test func styledCasesRecordTheSpansOnEachLine() throws {
        var styled = MeasurementCase(id: "styled", text: "Hi @ana, see parseHeaders() before lunch today", width: 120)
        styled.spans = [CaseSpan(start: 3, end: 7, size: 22), CaseSpan(start: 13, end: 27, letterSpacing: 1)]
        let golden = GoldenHeights(path: try temporaryDirectory() + "/styled.json")
        try golden.record([styled])
        var file = try GoldenFile(contentsOfFile: golden.path)
        let expected = file.cases[0].expected
        let runs = try #require(expected.lineRuns)
        #expect(runs.count == expected.lineCount && runs.count > 1)
        #expect(runs.joined().contains(0) && runs.joined().contains(1))
        #expect(try golden.verify().passed)
        #expect(try String(contentsOfFile: golden.path, encoding: .utf8).contains("\"lineRuns\""))

        // As if the code span had moved to the line after the one it is on.
        let line = try #require(runs.firstIndex { $0.contains(1) })
        var moved = runs
        moved[line].removeAll { $0 == 1 }
        moved[(line + 1) % runs.count].append(1)
        file.cases[0].expected.lineRuns = moved
        try file.write(to: golden.path)
        let report = try golden.verify()
        #expect(!report.passed)
        #expect(report.description.contains("spans moved to other lines"), "\(report)")

        // A file recorded before the spans on each line were kept: not compared.
        file.cases[0].expected.lineRuns = nil
        try file.write(to: golden.path)
        #expect(try !String(contentsOfFile: golden.path, encoding: .utf8).contains("lineRuns"))
        #expect(try golden.verify().passed)
        #expect(try Self.expectation(of: Self.cases()[0]).lineRuns == nil)
    }

    @Test func theFileIsStableSortedAndReadable() throws {
        let directory = try temporaryDirectory()
        let golden = GoldenHeights(path: directory + "/golden.json")
        try golden.record(Self.cases())
        let first = try readText(golden.path)
        try golden.record(Self.cases())
        #expect(try readText(golden.path) == first, "recording the same cases twice writes the same bytes")

        // Keys sorted within each case; number arrays on one line; one block per case.
        let keys = ["\"expected\"", "\"id\" : \"composer\"", "\"insets\" : [8, 0, 8, 0]", "\"padding\"", "\"text\"", "\"width\""]
        let positions = keys.compactMap { first.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted())
        #expect(first.contains("\"lineStarts\" : [0, "))
        #expect(first.contains("\"recordedWith\" : \"\(TextMeasure.version)\""))
        #expect(first.hasSuffix("}\n"))
        // It is also still JSON that reads back to the same cases.
        #expect(try GoldenFile(contentsOfFile: golden.path).cases.map(\.id) == Self.cases().map { $0.id! })
    }

    @Test func numberArraysAreJoinedButStringsAreNot() {
        let json = """
            {
              "a" : [
                1,
                -2.5
              ],
              "b" : [
                "[",
                "3"
              ],
              "c" : "x ["
            }
            """
        let joined = GoldenFile.joiningNumberArrays(json)
        #expect(joined.contains("\"a\" : [1, -2.5],"))
        #expect(joined.contains("\"b\" : [\n    \"[\",\n    \"3\"\n  ],"))
        #expect(joined.contains("\"c\" : \"x [\""))
    }

    /// A tree of tests, golden files and fonts can move as a whole: font paths are
    /// stored relative to the golden file. Fonts outside the tree stay absolute.
    @Test func fontPathsAreRelativeToTheGoldenFile() throws {
        let tree = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: tree + "/Fonts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: notoSansPath, toPath: tree + "/Fonts/Body.ttf")
        var cases = Self.cases(fontPath: "Fonts/Body.ttf")
        cases.append(MeasurementCase(id: "system", text: "Outside the tree", fonts: [notoSansPath], width: 60))
        try GoldenHeights(path: tree + "/Golden/heights.json", fontDirectory: tree).record(cases)

        let file = try GoldenFile(contentsOfFile: tree + "/Golden/heights.json")
        #expect(file.cases[2].input.fonts == ["../Fonts/Body.ttf"])
        #expect(file.cases[3].input.fonts == [FontReference(path: notoSansPath)])

        let moved = tree + "-moved"
        try FileManager.default.moveItem(atPath: tree, toPath: moved)
        let report = try GoldenHeights(path: moved + "/Golden/heights.json").verify()
        #expect(report.passed, "\(report)")
    }

    @Test func checkRecordsWhenThereIsNoFileOrRecordModeIsOn() throws {
        let directory = try temporaryDirectory()
        let golden = GoldenHeights(path: directory + "/deeper/golden.json")
        let first = try golden.check(Self.cases(), mode: .verify)
        #expect(first.outcome == .recorded(.noGoldenFile))
        #expect(!first.passed && first.description.contains("no golden file"))
        #expect(FileManager.default.fileExists(atPath: golden.path))

        let second = try golden.check(Self.cases(), mode: .verify)
        #expect(second.outcome == .verified && second.passed, "\(second)")

        let recorded = try golden.check(Array(Self.cases().prefix(2)), mode: .record)
        #expect(recorded.outcome == .recorded(.recordMode))
        #expect(recorded.description.contains("TEXTMEASURE_RECORD"))
        #expect(try GoldenFile(contentsOfFile: golden.path).cases.count == 2, "recording replaces the file")
    }

    @Test func theRecordVariableSwitchesTheMode() {
        #expect(GoldenHeights.mode(in: [:]) == .verify)
        for value in ["1", "true", "YES", "please"] {
            #expect(GoldenHeights.mode(in: ["TEXTMEASURE_RECORD": value]) == .record)
        }
        for value in ["", "0", "false", "No"] {
            #expect(GoldenHeights.mode(in: ["TEXTMEASURE_RECORD": value]) == .verify)
        }
    }

    @Test func checkNamesNewChangedAndUncheckedCases() throws {
        let directory = try temporaryDirectory()
        let golden = GoldenHeights(path: directory + "/golden.json")
        try golden.record(Self.cases())
        var given = Array(Self.cases().prefix(2))
        given[0].width = 320
        given.append(MeasurementCase(id: "new", text: "Not recorded yet", width: 100))

        let report = try golden.check(given, mode: .verify)
        #expect(!report.passed)
        #expect(report.mismatches.map(\.id) == [.string("composer"), .string("new")])
        #expect(report.mismatches[0].problem == .inputChanged(fields: ["width: 390 → 320"]))
        #expect(report.mismatches[1].problem == .notRecorded)
        #expect(report.unchecked == [.string("label")])
        #expect(report.description.contains("✗ composer: not the case that was recorded (width: 390 → 320)"))
        #expect(report.description.contains("✗ new: not in the golden file"))
        #expect(report.description.contains("not checked") && report.description.contains("label"))
    }

    @Test func unmeasurableCasesAreMismatchesWhenVerifyingAndErrorsWhenRecording() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: notoSansPath, toPath: directory + "/Body.ttf")
        let golden = GoldenHeights(path: directory + "/golden.json", fontDirectory: directory)
        try golden.record(Self.cases(fontPath: "Body.ttf"))
        try FileManager.default.removeItem(atPath: directory + "/Body.ttf")

        let report = try GoldenHeights(path: golden.path).verify()
        #expect(report.mismatches.map(\.id) == [.string("label")])
        guard case .measurementFailed(let reason) = report.mismatches.first?.problem else {
            Issue.record("expected a measurement failure, got \(report)")
            return
        }
        #expect(reason.contains("Body.ttf"))

        // A fresh font cache: `golden`'s still holds the font it read before.
        let fresh = GoldenHeights(path: golden.path, fontDirectory: directory)
        #expect(throws: GoldenError.self) { try fresh.record(Self.cases(fontPath: "Body.ttf")) }
    }

    @Test func badCasesAndBadFilesAreNamedErrors() throws {
        let directory = try temporaryDirectory()
        let golden = GoldenHeights(path: directory + "/golden.json")
        var twins = Self.cases()
        twins[1].id = .string("composer")
        #expect(throws: GoldenError.duplicateID(.string("composer"))) { try golden.record(twins) }
        var anonymous = Self.cases()
        anonymous[2].id = nil
        #expect(throws: GoldenError.missingID(index: 2)) { try golden.check(anonymous, mode: .record) }

        try Data("{\"cases\": [{\"id\": \"a\", \"text\": \"x\"}], \"format\": 1}".utf8).write(to: URL(fileURLWithPath: golden.path))
        do {
            _ = try golden.verify()
            Issue.record("a case without width or expected was accepted")
        } catch {
            guard case .malformed(_, let reason) = error else { throw error }
            #expect(reason.contains("width") && reason.contains("case \"a\""), "\(reason)")
        }
        try Data("{\"cases\": [], \"format\": 99}".utf8).write(to: URL(fileURLWithPath: golden.path))
        #expect(throws: GoldenError.unsupportedFormat(path: golden.path, format: 99)) { try golden.verify() }
        #expect(throws: GoldenError.self) { try GoldenHeights(path: directory + "/missing.json").verify() }
    }

    /// A preview truncated to two lines records its lines as shown, "…" included,
    /// so an ellipsis that moves fails even where no line start moved.
    @Test func truncatedCasesRecordAndCompareTheLinesAsShown() throws {
        let preview = MeasurementCase(id: "preview", text: gatsby, width: 200, maxLines: 2, lineBreakMode: .byTruncatingTail)
        let golden = GoldenHeights(path: try temporaryDirectory() + "/previews.json")
        try golden.record([preview])
        var file = try GoldenFile(contentsOfFile: golden.path)
        let expected = file.cases[0].expected
        #expect(expected.truncated == true && expected.lineCount == 2)
        #expect(expected.lines[1].hasSuffix("…"))
        #expect(expected.lines[0] == GoldenExpectation.lines(of: gatsby, startingAt: expected.lineStarts)[0])
        #expect(try golden.verify().passed)

        file.cases[0].expected.lines[1] = String(expected.lines[1].dropLast(2)) + "…"
        try file.write(to: golden.path)
        let report = try golden.verify()
        #expect(report.mismatches.map(\.id) == ["preview"])
        #expect(report.description.contains("✗ preview: height \(Int(expected.height)) as expected; lines show other text"))
        #expect(report.description.contains("≠ 2") && !report.description.contains("≠ 1"))
    }

    @Test func aMismatchIsDrawnAsRecordedBesideNow() throws {
        let (golden, file) = try Self.recorded { Self.moveSecondBreak(of: &$0.cases[0]) }
        let mismatch = try #require(try golden.verify().mismatches.first)

        let canvas = try #require(try mismatch.comparisonImage(scale: 1))
        let margin = PanelRenderer.margin
        #expect(canvas.width == Int((margin + 390 + margin + 390 + margin).rounded(.up)))
        #expect(canvas.height == Int((PanelRenderer.captionHeight + margin + file.cases[0].expected.height + margin).rounded(.up)))
        let path = FilePaths.directory(of: golden.path) + "/composer.png"
        #expect(try mismatch.writeComparisonImage(to: path, scale: 1))
        #expect(pngSize(path).map { [$0.width, $0.height] } == [canvas.width, canvas.height])

        // Nothing to set side by side when the input itself changed.
        var given = Self.cases()
        given[0].width = 300
        let changed = try #require(try golden.check(given, mode: .verify).mismatches.first)
        #expect(try changed.comparisonImage() == nil)
    }
}
