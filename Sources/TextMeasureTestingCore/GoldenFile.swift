import Foundation
import TextMeasure

/// A golden-heights file: measurement cases and what each measured when recorded.
///
/// The file is JSON written for people and diffs: keys sorted, pretty-printed, one
/// block per case. A case is a `textmeasure batch` case (its font paths relative to
/// the golden file; no `fonts` means the embedded set) plus an `expected` block:
///
/// ```json
/// {
///   "cases" : [
///     {
///       "expected" : {
///         "height" : 69,
///         "lineCount" : 3,
///         "lineStarts" : [0, 7, 16],
///         "lines" : [
///           "Hello, ",
///           "wrapping ",
///           "world"
///         ],
///         "recordedWith" : "0.1.0"
///       },
///       "id" : "greeting",
///       "text" : "Hello, wrapping world",
///       "width" : 120
///     }
///   ],
///   "format" : 1
/// }
/// ```
public struct GoldenFile: Sendable, Hashable, Codable {
    /// The format version this library writes and reads.
    public static let currentFormat = 1

    /// The file's format version.
    public var format: Int
    /// The cases in the order they were recorded.
    public var cases: [GoldenCase]

    public init(cases: [GoldenCase]) {
        format = Self.currentFormat
        self.cases = cases
    }

    /// Reads and checks a golden file: a known format, at least one case, every key known
    /// (see `init(json:path:)`), and every case with an id of its own.
    public init(contentsOfFile path: String) throws(GoldenError) {
        try self.init(json: Array(GoldenFileAccess.read(path)), path: path)
        try GoldenError.checkIDs(cases.map(\.input))
    }

    /// The file's text: sorted keys, pretty-printed, arrays of numbers on one line
    /// (so a moved line break is a one-line diff), ending in a newline.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every member is a plain value; encoding cannot fail. Numeric ids are kept as written.
        let json = (try? VerbatimJSON.encode(self, with: encoder)) ?? ""
        return Self.joiningNumberArrays(json) + "\n"
    }

    /// Puts each pretty-printed array of numbers on its opening line. Only whole
    /// lines are joined, and a JSON string never spans lines, so no string changes.
    static func joiningNumberArrays(_ json: String) -> String {
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false)
        var joined: [String] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            var numbers: [Substring] = []
            var j = i + 1
            if line.hasSuffix("[") {
                while j < lines.count {
                    let item = lines[j].drop { $0 == " " }
                    let number = item.hasSuffix(",") ? item.dropLast() : item
                    guard Double(number) != nil else { break }
                    numbers.append(number)
                    j += 1
                }
            }
            let closing = j < lines.count ? lines[j].drop { $0 == " " } : ""
            if !numbers.isEmpty, closing == "]" || closing == "]," {
                joined.append(line + numbers.joined(separator: ", ") + closing)
                i = j + 1
            } else {
                joined.append(String(line))
                i += 1
            }
        }
        return joined.joined(separator: "\n")
    }

    /// Writes the file, creating its directory if needed: atomically, through a symlink
    /// to the file it leads to; a path that leads to other than a regular file is refused.
    public func write(to path: String) throws(GoldenError) {
        try GoldenFileAccess.replace(path, with: Data(json().utf8))
    }
}

/// One golden case: a measurement and what it measured when recorded.
///
/// In the file the input's fields and `expected` sit side by side in one object,
/// so a golden case is a batch case with one key more.
public struct GoldenCase: Sendable, Hashable, Codable {
    /// The measurement, with font paths relative to the golden file.
    public var input: MeasurementCase
    public var expected: GoldenExpectation

    public init(input: MeasurementCase, expected: GoldenExpectation) {
        self.input = input
        self.expected = expected
    }

    /// The case's id (golden cases always have one).
    public var id: CaseID { input.id ?? .string("") }

    private enum Keys: String, CodingKey { case expected }

    public init(from decoder: any Decoder) throws {
        input = try MeasurementCase(from: decoder)
        expected = try decoder.container(keyedBy: Keys.self).decode(GoldenExpectation.self, forKey: .expected)
    }

    public func encode(to encoder: any Encoder) throws {
        try input.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(expected, forKey: .expected)
    }
}

/// What a golden case measures: recorded in the file as what is expected, and
/// measured again as what is actual.
public struct GoldenExpectation: Sendable, Hashable, Codable {
    /// The height `sizeThatFits` gives, in px.
    public var height: Double
    public var lineCount: Int
    /// UTF-16 offset at which each line starts.
    public var lineStarts: [Int]
    /// Each line as shown: the text from its start to the next, a truncated line
    /// with "…" in place of what it elides.
    public var lines: [String]
    /// For a case with `maxLines` or `lineBreakMode`, whether any text is hidden or
    /// elided; absent otherwise.
    public var truncated: Bool?
    /// For a case with `spans`, the spans (by index) each line holds text of, in text
    /// order, so that a span moving to another line fails the case even where the line
    /// starts do not move; absent for a case without spans, and in files recorded
    /// before it was kept (then not compared).
    public var lineRuns: [[Int]]?
    /// The TextMeasure version that measured it (`TextMeasure.version`).
    public var recordedWith: String

    public init(height: Double, lineCount: Int, lineStarts: [Int], lines: [String], truncated: Bool? = nil,
                lineRuns: [[Int]]? = nil, recordedWith: String = TextMeasure.version) {
        self.height = height
        self.lineCount = lineCount
        self.lineStarts = lineStarts
        self.lines = lines
        self.truncated = truncated
        self.lineRuns = lineRuns
        self.recordedWith = recordedWith
    }

    /// Whether `actual` measured what this expects: the same height, line starts,
    /// lines as shown, truncation and (when recorded) spans on each line, whichever
    /// version measured it.
    public func matches(_ actual: GoldenExpectation) -> Bool {
        height == actual.height && lineCount == actual.lineCount && lineStarts == actual.lineStarts
            && lines == actual.lines && truncated == actual.truncated && (lineRuns == nil || lineRuns == actual.lineRuns)
    }

    /// `text` cut at the UTF-16 offsets `starts`; offsets out of order or out of the
    /// text (a hand-edited file) give empty lines rather than a crash.
    static func lines(of text: String, startingAt starts: [Int]) -> [String] {
        let utf16 = Array(text.utf16)
        return starts.indices.map { i in
            let start = starts[i], end = i + 1 < starts.count ? starts[i + 1] : utf16.count
            guard start >= 0, start <= end, end <= utf16.count else { return "" }
            return String(decoding: utf16[start..<end], as: UTF16.self)
        }
    }
}
