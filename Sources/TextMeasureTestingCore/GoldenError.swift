import TextMeasure

/// Why a golden file could not be read, written or recorded.
public enum GoldenError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// The file is not JSON of the golden format; `reason` says where.
    case malformed(path: String, reason: String)
    /// The file was written by a newer TextMeasure, in a format this one cannot read.
    case unsupportedFormat(path: String, format: Int)
    case unwritable(path: String, reason: String)
    /// The case at `index` (0-based) has no id: golden cases are reported by id.
    case missingID(index: Int)
    /// Two cases share an id.
    case duplicateID(CaseID)
    /// A case could not be measured, so it cannot be recorded.
    case measurementFailed(id: CaseID, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read golden file \(path): \(reason)"
        case .malformed(let path, let reason): "\(path) is not a golden file: \(reason)"
        case .unsupportedFormat(let path, let format):
            "\(path) has format \(format); this TextMeasure (\(TextMeasure.version)) reads format \(GoldenFile.currentFormat)"
        case .unwritable(let path, let reason): "cannot write golden file \(path): \(reason)"
        case .missingID(let index): "case \(index + 1) has no \"id\": every golden case needs one"
        case .duplicateID(let id): "two cases have the id \"\(id)\""
        case .measurementFailed(let id, let reason): "case \"\(id)\" cannot be measured: \(reason)"
        }
    }

    /// Throws unless every case has an id and no two share one.
    static func checkIDs(_ cases: [MeasurementCase]) throws(GoldenError) {
        var seen: Set<CaseID> = []
        for (index, testCase) in cases.enumerated() {
            guard let id = testCase.id else { throw .missingID(index: index) }
            guard seen.insert(id).inserted else { throw .duplicateID(id) }
        }
    }
}
