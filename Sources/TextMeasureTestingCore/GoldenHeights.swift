import Foundation
import TextMeasure

/// Golden heights kept in one file: record them, verify them, or let the
/// environment choose (`check`), the way snapshot-testing libraries do.
///
/// ```swift
/// let golden = GoldenHeights(path: "Tests/AppTests/Golden/composer.json")
/// let report = try golden.check([
///     MeasurementCase(id: "empty", text: "", width: 390, insets: [8, 0, 8, 0], padding: 5),
///     MeasurementCase(id: "paragraph", text: gatsby, width: 390, insets: [8, 0, 8, 0], padding: 5),
/// ])
/// // report.passed, report.mismatches, and a description for the failure message
/// ```
///
/// Relative font paths in the cases given to `record` and `check` start at
/// `fontDirectory`; the file stores them relative to itself, so a test tree with
/// its fonts can move. Absolute font paths are stored as they are. No font paths
/// means the embedded default set.
public struct GoldenHeights: Sendable {
    /// Verify against the file, or (re)write it.
    public enum Mode: Sendable, Hashable {
        case verify
        case record
    }

    /// The environment variable that switches `check` to recording: any value but
    /// empty, `0`, `false` or `no`.
    public static let recordVariable = "TEXTMEASURE_RECORD"

    /// The mode this process's environment asks for (see `mode(in:)`).
    public static var environmentMode: Mode { mode(in: ProcessInfo.processInfo.environment) }

    /// `.record` when `environment` sets `TEXTMEASURE_RECORD` to anything but empty,
    /// `0`, `false` or `no`; else `.verify`.
    public static func mode(in environment: [String: String]) -> Mode {
        guard let value = environment[recordVariable]?.lowercased() else { return .verify }
        return ["", "0", "false", "no"].contains(value) ? .verify : .record
    }

    /// The golden file, as an absolute path.
    public let path: String
    /// Where relative font paths of the cases given to `record` and `check` start from.
    public let fontDirectory: String
    /// The fonts loaded so far, each file read once.
    public let fonts: FontCache

    /// - Parameters:
    ///   - path: the golden file; a relative path starts at the current directory.
    ///   - fontDirectory: where the given cases' relative font paths start; default the current directory.
    ///   - fonts: a font cache to share between golden files.
    public init(path: String, fontDirectory: String? = nil, fonts: FontCache = FontCache()) {
        let current = FilePaths.currentDirectory
        self.path = FilePaths.named(path, base: current)
        self.fontDirectory = FilePaths.absolute(fontDirectory ?? current, base: current)
        self.fonts = fonts
    }

    /// Golden heights for a test: `path` and the cases' relative font paths start at
    /// the directory of `testFile` (pass `#filePath`), so a test, its golden files and
    /// its fonts live together whatever directory the tests run in.
    public init(path: String, besideTestFile testFile: String, fonts: FontCache = FontCache()) {
        let directory = FilePaths.directory(of: FilePaths.absolute(testFile, base: FilePaths.currentDirectory))
        self.init(path: FilePaths.named(path, base: directory), fontDirectory: directory, fonts: fonts)
    }

    /// The directory holding the golden file: where the file's font paths start.
    var directory: String { FilePaths.directory(of: path) }

    /// Measures `cases` and writes them, with what they measure, to the golden file,
    /// replacing it.
    ///
    /// - Throws: `GoldenError` when a case has no id, two share one, a case cannot be
    ///   measured, or the file cannot be written.
    @discardableResult
    public func record(_ cases: [MeasurementCase]) throws(GoldenError) -> GoldenReport {
        try record(cases, reason: .requested)
    }

    /// Measures every case in the golden file and compares it with what was recorded.
    ///
    /// - Throws: `GoldenError` when the file cannot be read or is not a golden file;
    ///   a case that cannot be measured is a mismatch, not an error.
    public func verify() throws(GoldenError) -> GoldenReport {
        let file = try GoldenFile(contentsOfFile: path)
        let mismatches = file.cases.compactMap { golden in
            compare(resolved(golden.input, from: directory), with: golden.expected)
        }
        return GoldenReport(path: path, outcome: .verified, caseCount: file.cases.count, mismatches: mismatches)
    }

    /// Checks `cases` against the golden file, or records them: when `mode` is
    /// `.record` (by default, when `TEXTMEASURE_RECORD` is set) or there is no file yet.
    ///
    /// A case is checked when the file holds the same case (same id and the same
    /// inputs); one the file lacks, or holds with other inputs, fails and asks to be
    /// recorded again. Cases in the file that are not given are listed as unchecked.
    ///
    /// - Throws: `GoldenError` for a case without an id, two cases with one id, an
    ///   unreadable golden file, or a failure to record.
    public func check(_ cases: [MeasurementCase], mode: Mode = environmentMode) throws(GoldenError) -> GoldenReport {
        if mode == .record { return try record(cases, reason: .recordMode) }
        guard FileManager.default.fileExists(atPath: path) else { return try record(cases, reason: .noGoldenFile) }
        try GoldenError.checkIDs(cases)
        let file = try GoldenFile(contentsOfFile: path)
        let recorded = Dictionary(file.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var mismatches: [GoldenMismatch] = []
        for testCase in cases {
            let input = resolved(testCase, from: fontDirectory)
            let id = testCase.id ?? .string("")
            guard let golden = recorded[id] else {
                mismatches.append(GoldenMismatch(id: id, problem: .notRecorded, input: input, expected: nil,
                                                 actual: try? measure(input)))
                continue
            }
            let stored = stored(testCase)
            if golden.input != stored {
                mismatches.append(GoldenMismatch(id: id, problem: .inputChanged(fields: Self.differences(golden.input, stored)),
                                                 input: input, expected: golden.expected, actual: nil))
                continue
            }
            if let mismatch = compare(input, with: golden.expected) { mismatches.append(mismatch) }
        }
        let given = Set(cases.compactMap(\.id))
        return GoldenReport(path: path, outcome: .verified, caseCount: cases.count, mismatches: mismatches,
                            unchecked: file.cases.map(\.id).filter { !given.contains($0) })
    }

    private func record(_ cases: [MeasurementCase], reason: GoldenReport.RecordReason) throws(GoldenError) -> GoldenReport {
        try GoldenError.checkIDs(cases)
        var recorded: [GoldenCase] = []
        for testCase in cases {
            let expected: GoldenExpectation
            do { expected = try measure(resolved(testCase, from: fontDirectory)) } catch {
                throw .measurementFailed(id: testCase.id ?? .string(""), reason: "\(error)")
            }
            recorded.append(GoldenCase(input: stored(testCase), expected: expected))
        }
        try GoldenFile(cases: recorded).write(to: path)
        return GoldenReport(path: path, outcome: .recorded(reason), caseCount: cases.count)
    }

    /// What `input` (fonts absolute) measures now, as a golden file records it.
    private func measure(_ input: MeasurementCase) throws -> GoldenExpectation {
        let result = try input.measure(fonts: fonts)
        var lines = GoldenExpectation.lines(of: input.text, startingAt: result.lineStarts)
        var lineRuns: [[Int]]?
        if result.truncated != nil || input.spans?.isEmpty == false {
            let measurer = try input.measurer(fonts: fonts)
            let layout = try measurer.layout(width: input.width)
            // Truncating lines show "…" in place of text: take them as the layout shows them.
            if result.truncated != nil { lines = layout.lines.map(\.displayText) }
            // A run's index is its span's: both are sorted by start.
            if input.spans?.isEmpty == false {
                lineRuns = layout.lines.map { line in measurer.prepared.runs(on: line).compactMap(\.runIndex) }
            }
        }
        return GoldenExpectation(height: result.height, lineCount: result.lines, lineStarts: result.lineStarts,
                                 lines: lines, truncated: result.truncated, lineRuns: lineRuns)
    }

    /// Measures `input` (fonts absolute) and returns the mismatch, if any, with `expected`.
    private func compare(_ input: MeasurementCase, with expected: GoldenExpectation) -> GoldenMismatch? {
        let id = input.id ?? .string("")
        do {
            let actual = try measure(input)
            guard !expected.matches(actual) else { return nil }
            return GoldenMismatch(id: id, problem: .changed, input: input, expected: expected, actual: actual)
        } catch {
            return GoldenMismatch(id: id, problem: .measurementFailed(reason: "\(error)"), input: input,
                                  expected: expected, actual: nil)
        }
    }

    /// The case with its font paths made absolute against `base`.
    private func resolved(_ testCase: MeasurementCase, from base: String) -> MeasurementCase {
        var copy = testCase
        copy.fonts = testCase.fonts.map { $0.map { font in
            var font = font
            font.path = FilePaths.absolute(font.path, base: base)
            return font
        } }
        return copy
    }

    /// The case as the golden file stores it: a relative font path rebased to be
    /// relative to the file (so a tree of tests and fonts can move as a whole); an
    /// absolute one (`/usr/share/fonts/...`) kept as it is.
    private func stored(_ testCase: MeasurementCase) -> MeasurementCase {
        var copy = testCase
        copy.fonts = testCase.fonts.map { fonts in
            fonts.map { font in
                var font = font
                if !font.path.hasPrefix("/") {
                    font.path = FilePaths.relative(FilePaths.absolute(font.path, base: fontDirectory), from: directory)
                }
                return font
            }
        }
        return copy
    }

    /// The fields in which two cases differ, as "name: recorded → given" in JSON.
    static func differences(_ recorded: MeasurementCase, _ given: MeasurementCase) -> [String] {
        func fields(_ testCase: MeasurementCase) -> [String: String] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(testCase),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
            return object.mapValues { value in
                let json = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys,
                                                                                         .withoutEscapingSlashes]))
                    .map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
                return json.count <= 40 ? json : String(json.prefix(38)) + "…"
            }
        }
        let before = fields(recorded), after = fields(given)
        return Set(before.keys).union(after.keys).sorted().compactMap { key in
            before[key] == after[key] ? nil : "\(key): \(before[key] ?? "none") → \(after[key] ?? "none")"
        }
    }
}
