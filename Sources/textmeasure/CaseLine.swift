import TextMeasure

extension JSONLine {
    /// A line of batch-format input read strictly as a `MeasurementCase`
    /// (`MeasurementCase(json:)`: unknown keys, duplicates and wrong types are errors
    /// naming the key), or the failure to print in its place, with the line's id
    /// when that much could be read.
    static func measurementCase(from line: [UInt8]) -> Result<MeasurementCase, Failure> {
        if let failure = precheck(line) { return .failure(failure) }
        do {
            return .success(try MeasurementCase(json: line))
        } catch {
            return .failure(Failure(id: error.id, error: error.message))
        }
    }
}

extension BreaksCommand.Case {
    /// A line of `breaks --jsonl` input, `{"id", "text"}`, read as strictly as a batch case.
    static func read(_ line: [UInt8]) -> Result<BreaksCommand.Case, JSONLine.Failure> {
        if let failure = JSONLine.precheck(line) { return .failure(failure) }
        let object: JSONObject
        do {
            guard case .object(let parsed) = try StrictJSON.parse(line) else {
                return .failure(JSONLine.Failure(id: nil, error: "not a JSON object"))
            }
            object = parsed
        } catch {
            return .failure(JSONLine.Failure(id: error.caseID, error: error.description))
        }
        let id = try? JSONField.caseID(object["id"])
        do throws(JSONFieldError) {
            try JSONField.checkKeys(object, known: ["id", "text"])
            let id = try JSONField.caseID(object["id"])
            guard let text = object["text"] else { throw JSONFieldError(missing: "text") }
            return .success(BreaksCommand.Case(id: id, text: try JSONField.string(text, key: "text")))
        } catch {
            return .failure(JSONLine.Failure(id: id ?? nil, error: error.description))
        }
    }
}
