import TextMeasure

/// What recording or verifying a golden file found: a value any test framework
/// (or none) can act on, and a description written for the person reading a
/// failed test.
public struct GoldenReport: Sendable, Hashable, CustomStringConvertible {
    /// Whether the golden file was checked or (re)written.
    public enum Outcome: Sendable, Hashable {
        /// The cases were measured and compared with the file.
        case verified
        /// The file was written, for this reason; nothing was verified.
        case recorded(RecordReason)
    }

    /// Why a golden file was written.
    public enum RecordReason: Sendable, Hashable {
        /// Recording was asked for (`GoldenHeights.record`, `textmeasure golden record`).
        case requested
        /// `TEXTMEASURE_RECORD` is set.
        case recordMode
        /// There was no golden file yet.
        case noGoldenFile
    }

    /// The golden file, as an absolute path.
    public var path: String
    public var outcome: Outcome
    /// Number of cases measured.
    public var caseCount: Int
    /// Every case that did not match, in case order.
    public var mismatches: [GoldenMismatch]
    /// Cases in the file that `GoldenHeights.check` was not given: still recorded,
    /// no longer checked. Recording again drops them.
    public var unchecked: [CaseID]

    public init(path: String, outcome: Outcome, caseCount: Int, mismatches: [GoldenMismatch] = [],
                unchecked: [CaseID] = []) {
        self.path = path
        self.outcome = outcome
        self.caseCount = caseCount
        self.mismatches = mismatches
        self.unchecked = unchecked
    }

    /// True when every case was verified and matched. A report that recorded is not
    /// a pass: nothing was compared, and record mode must not stay on in CI.
    public var passed: Bool { outcome == .verified && mismatches.isEmpty }

    public var description: String {
        var text: String
        switch outcome {
        case .verified where mismatches.isEmpty:
            text = "golden heights: all \(caseCount) cases match \(path) (TextMeasure \(TextMeasure.version))"
        case .verified:
            text = "golden heights: \(mismatches.count) of \(caseCount) cases do not match \(path)"
                + " (TextMeasure \(TextMeasure.version))\n\n"
                + mismatches.map(\.description).joined(separator: "\n\n")
        case .recorded(.requested):
            text = "golden heights: recorded \(caseCount) cases to \(path)"
        case .recorded(.recordMode):
            text = "golden heights: recorded \(caseCount) cases to \(path) because \(GoldenHeights.recordVariable) is set;"
                + " unset it and run again to verify"
        case .recorded(.noGoldenFile):
            text = "golden heights: there was no golden file at \(path), so \(caseCount) cases were recorded to it;"
                + " check it in and run again to verify"
        }
        if !unchecked.isEmpty {
            text += "\n\nnote: \(unchecked.count) recorded cases were not checked (record again to drop them): "
                + unchecked.map(\.description).joined(separator: ", ")
        }
        return text
    }
}

/// One golden case that did not match, with what was expected and what was measured.
public struct GoldenMismatch: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the case.
    public enum Problem: Sendable, Hashable {
        /// It measures differently from what was recorded.
        case changed
        /// The golden file has no case with this id.
        case notRecorded
        /// The case given is not the one recorded; `fields` name what differs,
        /// as "name: recorded → given".
        case inputChanged(fields: [String])
        /// It could not be measured (a font missing, an invalid width).
        case measurementFailed(reason: String)
    }

    public var id: CaseID
    public var problem: Problem
    /// The case as measured, font paths absolute.
    public var input: MeasurementCase
    /// What was recorded; `nil` for a case not in the file.
    public var expected: GoldenExpectation?
    /// What the case measures now; `nil` when it cannot be measured or its input changed.
    public var actual: GoldenExpectation?

    public init(id: CaseID, problem: Problem, input: MeasurementCase, expected: GoldenExpectation?,
                actual: GoldenExpectation?) {
        self.id = id
        self.problem = problem
        self.input = input
        self.expected = expected
        self.actual = actual
    }

    public var description: String {
        let record = "record it again with \(GoldenHeights.recordVariable)=1"
        switch problem {
        case .measurementFailed(let reason):
            return "✗ \(id): cannot be measured: \(reason)"
        case .notRecorded:
            let measured = actual.map { ": it measures \(formatNumber($0.height)) px, \($0.lineCount) lines" } ?? ""
            return "✗ \(id): not in the golden file\(measured); \(record)"
        case .inputChanged(let fields):
            return "✗ \(id): not the case that was recorded (\(fields.joined(separator: "; "))); \(record)"
        case .changed:
            guard let expected, let actual else { return "✗ \(id)" }
            var heading = "✗ \(id): height expected \(formatNumber(expected.height)), actual \(formatNumber(actual.height))"
            if expected.height == actual.height { heading = "✗ \(id): height \(formatNumber(actual.height)) as expected" }
            if expected.lineCount != actual.lineCount {
                heading += "; lines expected \(expected.lineCount), actual \(actual.lineCount)"
            } else if expected.lineStarts != actual.lineStarts {
                heading += "; line breaks moved"
            } else if expected.truncated != actual.truncated {
                heading += "; text is \(actual.truncated == true ? "now" : "no longer") truncated"
            } else if expected.lines != actual.lines {
                heading += "; lines show other text"
            } else if let runs = expected.lineRuns, runs != actual.lineRuns {
                heading += "; spans moved to other lines (spans by line expected \(runs), actual \(actual.lineRuns ?? []))"
            }
            if expected.recordedWith != TextMeasure.version {
                heading += " (recorded with TextMeasure \(expected.recordedWith), now \(TextMeasure.version))"
            }
            return heading + "\n" + sideBySide(expected: expected, actual: actual)
        }
    }

    /// The expected and actual lines in two columns, rows that differ marked ≠.
    private func sideBySide(expected: GoldenExpectation, actual: GoldenExpectation) -> String {
        let left = expected.lines.map(Self.quoted), right = actual.lines.map(Self.quoted)
        let width = max(left.map(\.count).max() ?? 0, "expected".count)
        let number = String(max(left.count, right.count)).count
        func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
        var rows = ["    " + pad("", number) + " " + pad("expected", width) + "   actual"]
        for row in 0..<max(left.count, right.count) {
            let moved = row >= left.count || row >= right.count || left[row] != right[row]
                || expected.lineStarts.dropFirst(row).first != actual.lineStarts.dropFirst(row).first
            rows.append("  " + (moved ? "≠ " : "  ") + pad(String(row + 1), number) + " "
                        + pad(row < left.count ? left[row] : "", width) + "   " + (row < right.count ? right[row] : ""))
        }
        return rows.joined(separator: "\n")
    }

    /// A line as a quoted Swift literal, so trailing spaces and newlines show; long ones cut.
    private static func quoted(_ line: String) -> String {
        let literal = line.debugDescription
        return literal.count <= 48 ? literal : String(literal.prefix(46)) + "…\""
    }
}
