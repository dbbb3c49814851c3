import TextMeasure

/// `--font SPEC`: a font file, and optionally its face in a collection and a variable
/// font's axis values, after the last `#`:
///
///     --font Brand.ttf
///     --font NotoSansCJK.ttc#2              face 2 of the collection
///     --font Inter.ttf#wght=700,wdth=90     axis values
///     --font Family.ttc#1,wght=700          both (or index=1)
///
/// The text after the last `#` is read as options only when every comma-separated
/// item is a whole number, `index=N` or `TAG=NUMBER`; otherwise the whole value is the
/// path, so a path with a `#` in it still works.
enum FontOption {
    static func reference(_ spec: String) throws(CLIError) -> FontReference {
        guard let hash = spec.lastIndex(of: "#"), let options = options(spec[spec.index(after: hash)...]) else {
            return FontReference(path: spec)
        }
        let path = String(spec[..<hash])
        guard !path.isEmpty else { throw .usage("--font \(spec) names no file before '#'") }
        return FontReference(path: path, index: options.index, variations: options.variations)
    }

    private static func options(_ text: Substring) -> (index: Int, variations: [String: Double])? {
        var index = 0
        var variations: [String: Double] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            if let number = Int(item), number >= 0 { index = number; continue }
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = DecimalNumber.parse(parts[1]) else { return nil }
            if parts[0] == "index" {
                guard let number = Int(parts[1]), number >= 0 else { return nil }
                index = number
            } else {
                let tag = String(parts[0])
                guard !tag.isEmpty, tag.utf8.count <= 4, tag.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
                variations[tag] = value
            }
        }
        return (index, variations)
    }
}
