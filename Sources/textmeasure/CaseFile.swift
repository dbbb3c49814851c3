import Foundation
import TextMeasure

/// A file of batch-format cases, one JSON object per line, as `golden` and `bench` read it.
enum CaseFile {
    /// The cases of the file at `path`; blank lines are skipped, and a case without
    /// an id gets its line number.
    static func read(_ path: String) throws(CLIError) -> [MeasurementCase] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .input("cannot read \(path)") }
        var cases: [MeasurementCase] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            switch JSONLine.measurementCase(from: Array(line)) {
            case .success(var testCase):
                if testCase.id == nil { testCase.id = .integer(index + 1) }
                cases.append(testCase)
            case .failure(let failure):
                throw .input("\(path):\(index + 1): \(failure.error)")
            }
        }
        return cases
    }
}
