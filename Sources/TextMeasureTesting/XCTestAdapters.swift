#if canImport(XCTest)
import XCTest

/// XCTest's form of `expectGoldenHeights`: checks `cases` against the golden file
/// at `path` (or records it), and fails the test with every case that does not
/// match. `path` and the cases' relative font paths start at the test file's directory.
///
/// ```swift
/// func testComposerHeights() {
///     assertGoldenHeights(composerCases, file: "Golden/composer.json")
/// }
/// ```
@discardableResult
public func assertGoldenHeights(_ cases: [MeasurementCase], file path: String,
                                mode: GoldenHeights.Mode = GoldenHeights.environmentMode,
                                filePath: StaticString = #filePath, line: UInt = #line) -> GoldenReport? {
    do {
        let report = try GoldenHeights(path: path, besideTestFile: "\(filePath)").check(cases, mode: mode)
        if !report.passed { XCTFail(report.description, file: filePath, line: line) }
        return report
    } catch {
        XCTFail(error.description, file: filePath, line: line)
        return nil
    }
}

/// Fails the test unless `check` passes, naming the side that failed and why it matters.
public func assertWraps(_ check: WrapCheck, file: StaticString = #filePath, line: UInt = #line) {
    if !check.passed { XCTFail(check.description, file: file, line: line) }
}
#endif
