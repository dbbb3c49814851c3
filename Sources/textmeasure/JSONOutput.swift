import Foundation

/// JSON written the way the CLI promises it: keys sorted, no escaped slashes,
/// one document per line for `--jsonl`.
enum JSONOutput {
    static func line<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
