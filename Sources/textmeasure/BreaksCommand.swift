import Foundation
import TextMeasure

/// `textmeasure breaks`: the line-break opportunities of a text.
enum BreaksCommand {
    static let help = """
        usage: textmeasure breaks [--rules browser|uax14] [--jsonl] [TEXT | -]

        Lists every UTF-16 offset at which a line may end (0 excluded, the end of
        the text included). Human output marks them in the text with ÷ (soft) and
        ⏎ (mandatory).

        options:
          --rules R   browser (default: ICU plus the browser tailorings) or uax14 (exactly ICU)
          --jsonl     read JSON lines {"id", "text"} from standard input and print
                      {"id", "breaks": [offsets]} for each, in order
        """

    struct Output: Encodable {
        var id: JSONValue
        var breaks: [Int]?
        var error: String?
    }

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        var rules = LineBreakRules.browser
        if let name = try arguments.value("--rules") {
            guard let parsed = LineBreakRules(rawValue: name) else { throw .usage("--rules must be browser or uax14") }
            rules = parsed
        }
        if arguments.flag("--jsonl") {
            _ = try arguments.positionals()
            while let line = readLine(strippingNewline: true) {
                if line.isEmpty { continue }
                print(JSONOutput.line(jsonlResult(line, rules: rules)))
            }
            return
        }
        let text = try TextInput.read(try arguments.positionals())
        let breaks: [BreakOpportunity]
        do { breaks = try rules.breakOpportunities(in: text) } catch { throw .input(error.description) }
        var marked = ""
        var units = Array(text.utf16)[...]
        var offset = 0
        for opportunity in breaks {
            marked += String(decoding: units.prefix(opportunity.utf16Offset - offset), as: UTF16.self).replacingNewlines()
            units = units.dropFirst(opportunity.utf16Offset - offset)
            offset = opportunity.utf16Offset
            marked += opportunity.isMandatory ? "⏎" : "÷"
        }
        print(marked)
        print(breaks.map { String($0.utf16Offset) }.joined(separator: " "))
    }

    private static func jsonlResult(_ line: String, rules: LineBreakRules) -> Output {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return Output(id: .null, error: "not a JSON object")
        }
        let id = JSONValue(object["id"])
        guard let text = object["text"] as? String else { return Output(id: id, error: "\"text\" must be a string") }
        do {
            return Output(id: id, breaks: try rules.breakOpportunities(in: text).map(\.utf16Offset))
        } catch {
            return Output(id: id, error: error.description)
        }
    }
}

/// A JSON id echoed back as it came: a string, a number, or null.
enum JSONValue: Encodable {
    case string(String), number(Double), integer(Int), null

    init(_ any: Any?) {
        switch any {
        case let value as String: self = .string(value)
        case let value as NSNumber:
            self = Double(value.intValue) == value.doubleValue ? .integer(value.intValue) : .number(value.doubleValue)
        default: self = .null
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
