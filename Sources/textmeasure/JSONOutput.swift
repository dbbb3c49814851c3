import Foundation
import TextMeasureTestingCore

/// JSON written the way the CLI promises it: keys sorted, no escaped slashes,
/// one document per line for `--jsonl`.
enum JSONOutput {
    static func line<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Numeric ids are echoed as the input wrote them (`1.0` stays `1.0`).
        return (try? VerbatimJSON.encode(value, with: encoder)) ?? "null"
    }
}
