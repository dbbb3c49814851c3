import Foundation
import TextMeasure

/// `textmeasure batch`: many measurements, JSON lines in, JSON lines out.
enum BatchCommand {
    static let help = """
        usage: textmeasure batch [--jobs N] < cases.jsonl > results.jsonl

        Many measurements on all cores: JSON lines in, JSON lines out.

        Reads one JSON object per line on standard input and prints one result per
        line on standard output, in input order, each as soon as it and those
        before it are measured. Memory stays bounded however long the input is.

        input:  {"id": "a1", "text": "Hello, world", "width": 390, "size": 17,
                 "lineHeight": null, "insets": [8, 0, 8, 0], "padding": 5, "rules": "browser",
                 "fonts": ["/path/Primary.ttf", {"path": "/path/Family.ttc", "index": 1,
                           "variations": {"wght": 700}}], "embeddedFallback": true,
                 "maxLines": 2, "lineBreakMode": "truncate-tail", "emptyLines": "textView"}
                only "text" and "width" (> 0) are required; "id" is a string or a number,
                echoed as written (1.0 stays 1.0); no "fonts" means the embedded set,
                which otherwise follows the fonts unless "embeddedFallback" is false;
                "lineHeight" is null or "normal", px (20 or "20px"), or a multiple of
                the normal height ("1.2x").
        output: {"height": 39, "id": "a1", "lineStarts": [0], "lines": 1,
                 "truncated": false, "usedWidth": 95.73, "width": 390}
                (px, widths rounded to 0.01; UTF-16 offsets; "id" is null when the input had none; with
                "maxLines" or "lineBreakMode", also "truncated": true or false; and
                "missingGlyphs": N when N characters are drawn as .notdef boxes)

        Lines are read strictly: an unknown key ("unknown key "maxlines"; did you mean
        "maxLines"?"), a key given twice, a wrong type, a number too large for a double
        is an error naming the key, as are a line that is not JSON, an unreadable font,
        a width of 0 and invalid UTF-8. Such a line yields
        {"id": <its id, or null>, "error": "<why>"} in its place, and the batch goes on.
        Each font file is loaded once and shared by all jobs.

        options:
          --jobs N   measure up to N lines at once, 1 to 1024 (default: the number of
                     active processors, \(ProcessInfo.processInfo.activeProcessorCount) here)

        Exit status: 0 when every line was read (even if some failed); 1 when standard
        input cannot be read or standard output cannot be written; 2 usage error.
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let jobs = try arguments.integer("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        let extra = try arguments.positionals()
        guard extra.isEmpty else { throw .usage("batch reads its cases from standard input, not from arguments") }
        let fonts = FontCache()
        try OrderedLineStream.run(jobs: jobs) { line in
            measure(line, fonts: fonts).jsonLine
        }
    }

    /// One output line: a result, or the error that took its place.
    enum Output: Encodable {
        case result(MeasurementResult)
        case failure(JSONLine.Failure)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .failure(let failure):
                try failure.encode(to: encoder)
            case .result(let result):
                try result.encode(to: encoder)
                if result.id == nil {   // null rather than absent, as in a failure
                    var container = encoder.container(keyedBy: IDKey.self)
                    try container.encodeNil(forKey: .id)
                }
            }
        }

        private enum IDKey: CodingKey { case id }

        /// The output line: written by hand (`JSONWriter`), or by `JSONOutput` in the one case
        /// the writer leaves to it (a number JSON cannot hold).
        var jsonLine: String {
            switch self {
            case .failure(let failure): failure.jsonLine
            case .result(let result): result.jsonLine ?? JSONOutput.line(self)
            }
        }
    }

    static func measure(_ line: [UInt8], fonts: FontCache) -> Output {
        switch JSONLine.measurementCase(from: line) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let measurementCase):
            do {
                var result = try measurementCase.measure(fonts: fonts)
                result.usedWidth = result.usedWidth.printedWidth
                return .result(result)
            } catch TextMeasureError.invalidWidth(let width) {
                return .failure(JSONLine.Failure(id: measurementCase.id, error: Measurement.unusable(width: width)))
            } catch {
                return .failure(JSONLine.Failure(id: measurementCase.id, error: String(describing: error)))
            }
        }
    }
}
