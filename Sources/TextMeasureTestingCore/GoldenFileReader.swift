import TextMeasure

extension GoldenFile {
    /// Reads a golden file's JSON strictly, as batch cases are read: an unknown key
    /// (a misspelt `"max_lines"` would otherwise be dropped and never checked), a key
    /// twice, a wrong type, a format other than this one and a file with no cases are
    /// errors naming the case and the key.
    init(json bytes: [UInt8], path: String) throws(GoldenError) {
        let value: JSONValue
        do { value = try StrictJSON.parse(bytes) } catch { throw .malformed(path: path, reason: error.description) }
        guard case .object(let top) = value else {
            throw .malformed(path: path, reason: "expected a JSON object with \"format\" and \"cases\", got \(value.kind)")
        }
        // A newer format's cases may have keys this version does not know: say so first.
        if case .number(let text)? = top["format"], let format = Int(text), format > Self.currentFormat {
            throw .unsupportedFormat(path: path, format: format)
        }
        let cases: [GoldenCase]
        do throws(JSONFieldError) {
            try JSONField.checkKeys(top, known: ["cases", "format"])
            guard let formatValue = top["format"] else { throw JSONFieldError(missing: "format") }
            guard try JSONField.integer(formatValue, key: "format", in: Int.min...Int.max) == Self.currentFormat else {
                throw JSONFieldError(key: "format", problem: "must be \(Self.currentFormat), got \(formatValue.text)")
            }
            guard let casesValue = top["cases"] else { throw JSONFieldError(missing: "cases") }
            let elements = try JSONField.array(casesValue, key: "cases")
            guard !elements.isEmpty else {
                throw JSONFieldError(key: "cases", problem: "is empty: a golden file that checks nothing is an error")
            }
            var read: [GoldenCase] = []
            for (index, element) in elements.enumerated() {
                read.append(try GoldenCase(json: element, number: index + 1))
            }
            cases = read
        } catch {
            throw .malformed(path: path, reason: error.description)
        }
        self.init(cases: cases)
    }
}

extension GoldenCase {
    /// Case `number` (from 1) of a golden file: a batch case and its `"expected"` block.
    init(json value: JSONValue, number: Int) throws(JSONFieldError) {
        let position = "case \(number)"
        guard case .object(let object) = value else {
            throw JSONFieldError(key: "", problem: "\(position) must be an object, got \(value.kind)")
        }
        let input: MeasurementCase
        do { input = try MeasurementCase(object: object, extraKeys: ["expected"]) } catch {
            throw JSONFieldError(key: "", problem: "\(Self.name(error.id, position)): \(error.message)")
        }
        let name = Self.name(input.id, position)
        guard let expectedValue = object["expected"] else {
            throw JSONFieldError(key: "", problem: "\(name): \"expected\" is missing")
        }
        do {
            self.init(input: input, expected: try GoldenExpectation(json: expectedValue))
        } catch {
            throw JSONFieldError(key: "", problem: "\(name): \(error.description)")
        }
    }

    private static func name(_ id: CaseID?, _ fallback: String) -> String {
        id.map { "case \"\($0)\"" } ?? fallback
    }
}

extension GoldenExpectation {
    /// An `"expected"` block: every key known, each of its type.
    init(json value: JSONValue) throws(JSONFieldError) {
        let object = try JSONField.object(value, key: "expected")
        try JSONField.checkKeys(object, known: ["height", "lineCount", "lineRuns", "lineStarts", "lines", "recordedWith",
                                                  "truncated"],
                                path: "expected.")
        func required(_ key: String) throws(JSONFieldError) -> JSONValue {
            guard let value = object[key] else { throw JSONFieldError(missing: "expected." + key) }
            return value
        }
        let starts = try JSONField.array(try required("lineStarts"), key: "expected.lineStarts")
        let lines = try JSONField.array(try required("lines"), key: "expected.lines")
        var truncated: Bool?
        if let value = object["truncated"], value != .null { truncated = try JSONField.bool(value, key: "expected.truncated") }
        let lineRuns = try object["lineRuns"].map { value throws(JSONFieldError) in
            try JSONField.array(value, key: "expected.lineRuns").enumerated().map { line, runs throws(JSONFieldError) in
                try JSONField.array(runs, key: "expected.lineRuns[\(line)]").enumerated().map { index, run throws(JSONFieldError) in
                    try JSONField.integer(run, key: "expected.lineRuns[\(line)][\(index)]", in: 0...Int(Int32.max))
                }
            }
        }
        self.init(height: try JSONField.number(try required("height"), key: "expected.height"),
                  lineCount: try JSONField.integer(try required("lineCount"), key: "expected.lineCount", in: 0...Int(Int32.max)),
                  lineStarts: try starts.enumerated().map { index, start throws(JSONFieldError) in
                      try JSONField.integer(start, key: "expected.lineStarts[\(index)]", in: 0...Int(Int32.max))
                  },
                  lines: try lines.enumerated().map { index, line throws(JSONFieldError) in
                      try JSONField.string(line, key: "expected.lines[\(index)]")
                  },
                  truncated: truncated, lineRuns: lineRuns,
                  recordedWith: try JSONField.string(try required("recordedWith"), key: "expected.recordedWith"))
    }
}
