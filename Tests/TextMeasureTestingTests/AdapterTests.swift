import Testing
import TextMeasureTesting

/// The Swift Testing adapters record an issue exactly when the check fails.
@Suite(.temporaryFiles) struct AdapterTests {
    @Test func expectWrapsRecordsAnIssueOnlyWhenASideFails() throws {
        let composer = try TextMeasurer(text: gatsby, container: .textView)
        let wrapping = try WrapCheck(measurer: composer, containerWidth: 390)
        expectWraps(wrapping)
        withKnownIssue("a field that clips") {
            expectWraps(WrapCheck(fieldMaxX: 390, fieldHeight: wrapping.oneLineHeight, containerMaxX: 390,
                                  oneLineHeight: wrapping.oneLineHeight))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("does not grow past one line") }
        }
    }

    /// Paths start beside the calling test file; here that "file" is in a temporary
    /// directory, so the test writes nothing into the source tree.
    @Test func expectGoldenHeightsRecordsThenPassesThenFailsNamingTheCase() throws {
        let testFile = try temporaryDirectory() + "/ComposerTests.swift"
        var cases = [MeasurementCase(id: "composer", text: gatsby, width: 390, insets: [8, 0, 8, 0], padding: 5)]

        withKnownIssue("the first run records") {
            expectGoldenHeights(cases, file: "Golden/composer.json", mode: .verify, filePath: testFile)
        } matching: { $0.comments.contains { $0.rawValue.contains("no golden file") } }

        let report = expectGoldenHeights(cases, file: "Golden/composer.json", mode: .verify, filePath: testFile)
        #expect(report?.passed == true)
        #expect(report?.path.hasSuffix("/Golden/composer.json") == true)

        cases[0].padding = 0
        withKnownIssue("a changed case") {
            expectGoldenHeights(cases, file: "Golden/composer.json", mode: .verify, filePath: testFile)
        } matching: { $0.comments.contains { $0.rawValue.contains("✗ composer") } }
    }
}
