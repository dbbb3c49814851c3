import Foundation
import TextMeasure

/// One line of a JSONL input: decoding it, and the `{"id", "error"}` object
/// printed in its place when it cannot be handled.
enum JSONLine {
    /// What a JSONL command prints for a line it could not handle. The id is the
    /// line's own when it is a JSON object with a string or integer `"id"`, and
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

    /// The line decoded as a `T`, or why it is not one (with the line's id when
    /// that much can be read).
    static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) -> Result<T, Failure> {
        guard String(validating: line, as: UTF8.self) != nil else {
            return .failure(Failure(id: nil, error: "not valid UTF-8"))
        }
        guard line.contains(where: { !isJSONWhitespace($0) }) else {
            return .failure(Failure(id: nil, error: "empty line: expected a JSON object"))
        }
        let data = Data(line)
        do {
            return .success(try JSONDecoder().decode(T.self, from: data))
        } catch let error as DecodingError {
            let id = (try? JSONDecoder().decode(IDProbe.self, from: data))?.id
            return .failure(Failure(id: id, error: describe(error)))
        } catch {
            return .failure(Failure(id: nil, error: String(describing: error)))
        }
    }

    /// A decoding error in a few words naming the field: `missing "width"`,
    /// `"fonts[1]" must be a string`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "not valid JSON"
                : "\(name(context.codingPath)) has an invalid value (\(context.debugDescription))"
        case .keyNotFound(let key, let context):
            "missing \(name(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            context.codingPath.isEmpty ? "not a JSON object" : "\(name(context.codingPath)) must be \(expected(type, at: context.codingPath))"
        case .valueNotFound(let type, let context):
            "\(name(context.codingPath)) must be \(expected(type, at: context.codingPath)), not null"
        @unknown default:
            String(describing: error)
        }
    }

    private static func name(_ path: [any CodingKey]) -> String {
        var name = ""
        for key in path {
            if let index = key.intValue { name += "[\(index)]" } else { name += (name.isEmpty ? "" : ".") + key.stringValue }
        }
        return "\"\(name)\""
    }

    private static func expected(_ type: Any.Type, at path: [any CodingKey]) -> String {
        if path.count == 1, path[0].stringValue == "id" { return "a string or an integer" }   // CaseID tries both
        switch type {
        case is String.Type: return "a string"
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is [Any].Type: return "an array"
        case is [String: Any].Type: return "an object"
        default: return "a \(type)"
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Just the id of a line that did not decode as a whole; a wrong-typed id is none.
    private struct IDProbe: Decodable {
        var id: CaseID?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decodeIfPresent(CaseID.self, forKey: .id)
        }
        private enum CodingKeys: CodingKey { case id }
    }
}
