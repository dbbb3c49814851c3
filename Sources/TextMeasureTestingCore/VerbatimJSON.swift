import Foundation
import TextMeasure

/// JSON encoding that writes a numeric case id exactly as it was read (`1.0`, `1e2`,
/// `-0.0`), which `JSONEncoder` alone cannot: it writes a number's value, not its text.
///
/// The encoder is given a marker (`CaseID.verbatimNumberKey`) that no text holds: a
/// private-use character and a per-process UUID. A `.number` id is encoded as the string
/// "marker + text", and each such string is then replaced by the bare text.
package enum VerbatimJSON {
    private static let marker = "\u{E000}" + UUID().uuidString + ":"

    /// `value` encoded by `encoder`, numeric ids written verbatim.
    package static func encode<T: Encodable>(_ value: T, with encoder: JSONEncoder) throws -> String {
        if let key = CaseID.verbatimNumberKey { encoder.userInfo[key] = marker }
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        let opening = "\"" + marker
        guard json.contains(opening) else { return json }
        var pieces = json.components(separatedBy: opening)
        for index in pieces.indices.dropFirst() {
            // The piece starts with the number's text (checked JSON grammar, so no quote in
            // it) and its closing quote.
            guard let quote = pieces[index].firstIndex(of: "\"") else { continue }
            pieces[index].remove(at: quote)
        }
        return pieces.joined()
    }
}
