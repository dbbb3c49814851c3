import Foundation
import TextMeasure

/// `textmeasure breaks`: the line-break opportunities of a text.
enum BreaksCommand {
    static let help = """
        usage: textmeasure breaks [--rules browser|uax14] [TEXT | -]
               textmeasure breaks [--rules browser|uax14] --jsonl < texts.jsonl

        The line-break opportunities of a text.

        Lists every UTF-16 offset at which a line may end (0 excluded, the end of
        the text included). Human output marks them in the text, ÷ where a line
        may break and ⏎ where it must (a new row starts there), with controls
        shown as pictures (␊ a line feed), then lists the offsets.

        options:
          --rules R   browser (default: ICU plus the browser tailorings) or uax14 (exactly ICU)
          --jsonl     read one JSON object {"id", "text"} per line of standard input and
                      print {"id", "breaks": [offsets]} for each, in input order; a line
                      that is not such an object (or not UTF-8) prints
                      {"id": <id or null>, "error": "..."}

        TEXT from standard input must be UTF-8: invalid UTF-8 is an error, never replaced.
        Exit status: 0 success, 1 bad input, 2 usage error.
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let rules = try MeasureOptions.parseRules(&arguments) ?? .browser
        if arguments.flag("--jsonl") {
            guard try arguments.positionals().isEmpty else { throw .usage("--jsonl reads standard input and takes no TEXT") }
            try OrderedLineStream.run(jobs: ProcessInfo.processInfo.activeProcessorCount) { line in
                switch Case.read(line) {
                case .failure(let failure):
                    JSONOutput.line(failure)
                case .success(let breaksCase):
                    JSONOutput.line(result(for: breaksCase, rules: rules))
                }
            }
            return
        }
        let text = try TextInput.read(try arguments.positionals())
        let breaks: [BreakOpportunity]
        do { breaks = try rules.breakOpportunities(in: text) } catch { throw .input(error.description) }
        try StandardOutput.writeLine(marked(text, breaks: breaks))
        try StandardOutput.writeLine(breaks.map { String($0.utf16Offset) }.joined(separator: " "))
    }

    /// `text` with ÷ at each soft opportunity and ⏎ plus a new row at each mandatory one.
    private static func marked(_ text: String, breaks: [BreakOpportunity]) -> String {
        var marked = ""
        let utf16 = text.utf16
        var start = utf16.startIndex
        var offset = 0
        for opportunity in breaks {
            let end = utf16.index(start, offsetBy: opportunity.utf16Offset - offset)
            marked += TerminalText.visible(String(decoding: utf16[start..<end], as: UTF16.self))
            marked += opportunity.isMandatory ? "⏎\n" : "÷"
            (start, offset) = (end, opportunity.utf16Offset)
        }
        if marked.hasSuffix("\n") { marked.removeLast() }
        return marked
    }

    /// A line of `--jsonl` input.
    struct Case {
        var id: CaseID?
        var text: String
    }

    /// A line of `--jsonl` output.
    struct Output: Encodable {
        var id: CaseID?
        var breaks: [Int]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)   // null, not absent, when the input had none
            try container.encode(breaks, forKey: .breaks)
        }

        private enum CodingKeys: CodingKey { case id, breaks }
    }

    private static func result(for breaksCase: Case, rules: LineBreakRules) -> any Encodable {
        do {
            return Output(id: breaksCase.id, breaks: try rules.breakOpportunities(in: breaksCase.text).map(\.utf16Offset))
        } catch {
            return JSONLine.Failure(id: breaksCase.id, error: error.description)
        }
    }
}
