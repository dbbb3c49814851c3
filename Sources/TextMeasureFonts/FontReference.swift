/// A font file as a case names it: a path, and optionally which face of a collection
/// and the axis values of a variable font.
///
/// In JSON a plain path is a string, anything more an object:
///
/// ```json
/// "fonts": ["Fonts/Brand.ttf", {"path": "Fonts/Inter.ttf", "variations": {"wght": 700}},
///           {"path": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "index": 2}]
/// ```
public struct FontReference: Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The font file; a relative path starts where the case's reader says.
    public var path: String
    /// The face within a collection (`.ttc`); 0 for a single font.
    public var index: Int
    /// Axis values of a variable font by tag (`["wght": 700]`); empty for the default instance.
    public var variations: [String: Double]

    public init(path: String, index: Int = 0, variations: [String: Double] = [:]) {
        self.path = path
        self.index = index
        self.variations = variations
    }

    public init(stringLiteral path: String) { self.init(path: path) }

    /// The path, with `#index` and the variations when they are not the defaults.
    public var description: String {
        var text = path
        if index != 0 { text += "#\(index)" }
        if !variations.isEmpty { text += " " + variations.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
        return text
    }

    private enum Keys: String, CodingKey { case path, index, variations }

    /// A string, or an object with `"path"` and optional `"index"` and `"variations"`.
    public init(from decoder: any Decoder) throws {
        if let path = try? decoder.singleValueContainer().decode(String.self) {
            self.init(path: path)
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(path: try container.decode(String.self, forKey: .path),
                  index: try container.decodeIfPresent(Int.self, forKey: .index) ?? 0,
                  variations: try container.decodeIfPresent([String: Double].self, forKey: .variations) ?? [:])
    }

    /// A plain path as a string, so that files naming only paths stay as they were.
    public func encode(to encoder: any Encoder) throws {
        guard index != 0 || !variations.isEmpty else {
            var container = encoder.singleValueContainer()
            try container.encode(path)
            return
        }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(path, forKey: .path)
        if index != 0 { try container.encode(index, forKey: .index) }
        if !variations.isEmpty { try container.encode(variations, forKey: .variations) }
    }
}
