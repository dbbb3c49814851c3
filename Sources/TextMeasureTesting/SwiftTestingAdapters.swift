#if canImport(Testing)
import Testing

/// Checks `cases` against the golden file at `path`, or records it (when `mode` is
/// `.record`, by default when `TEXTMEASURE_RECORD` is set, or when the file does
/// not exist yet), and records a
/// Swift Testing issue that names every case that does not match, with expected and
/// actual heights and lines side by side. Recording is an issue too, so record mode
/// never passes unnoticed.
///
/// `path` and the cases' relative font paths start at the calling test file's directory.
///
/// ```swift
/// @Test func composerHeights() {
///     expectGoldenHeights([
///         MeasurementCase(id: "greeting", text: "Hello, wrapping world", width: 120),
///     ], file: "Golden/composer.json")
/// }
/// ```
@discardableResult
public func expectGoldenHeights(_ cases: [MeasurementCase], file path: String,
                                mode: GoldenHeights.Mode = GoldenHeights.environmentMode, filePath: String = #filePath,
                                sourceLocation: SourceLocation = #_sourceLocation) -> GoldenReport? {
    do {
        let report = try GoldenHeights(path: path, besideTestFile: filePath).check(cases, mode: mode)
        if !report.passed { Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation) }
        return report
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return nil
    }
}

/// Records a Swift Testing issue unless `check` passes; the issue names the side
/// that failed and why that side matters.
///
/// ```swift
/// expectWraps(try WrapCheck(measurer: composer, containerWidth: 390))
/// ```
public func expectWraps(_ check: WrapCheck, sourceLocation: SourceLocation = #_sourceLocation) {
    if !check.passed { Issue.record(Comment(rawValue: check.description), sourceLocation: sourceLocation) }
}

// So that `#expect(report.passed)` and `#expect(check.passed)` show the whole story
// when they fail.
extension GoldenReport: CustomTestStringConvertible {
    public var testDescription: String { description }
}

extension WrapCheck: CustomTestStringConvertible {
    public var testDescription: String { description }
}
#endif
