import TextMeasure

/// One line of a JSONL input: checking it, and the `{"id", "error"}` object
/// printed in its place when it cannot be handled.
enum JSONLine {
    /// What a JSONL command prints for a line it could not handle. The id is the
    /// line's own when it is a JSON object with a string or numeric `"id"`, and
    /// null otherwise: every output line has one.
    struct Failure: Error, Encodable {
        var id: CaseID?
        var error: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)   // null, not absent, when unknown
            try container.encode(error, forKey: .error)
        }

        private enum CodingKeys: CodingKey { case id, error }
    }

    /// The failure for a line that is not UTF-8 or holds nothing, checked before parsing
    /// so that the message says so rather than where parsing stopped.
    static func precheck(_ line: [UInt8]) -> Failure? {
        guard String(validating: line, as: UTF8.self) != nil else { return Failure(id: nil, error: "not valid UTF-8") }
        guard line.contains(where: { !isJSONWhitespace($0) }) else {
            return Failure(id: nil, error: "empty line: expected a JSON object")
        }
        return nil
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
