import TextMeasure

/// File names for the pictures of failing golden cases, made from their ids.
enum PictureName {
    /// The longest name kept whole, in UTF-8 bytes: room under a file name's 255 for a
    /// clash number ("-2") and ".png".
    static let maximumBytes = 200

    /// `id` as a file name without extension: letters, digits, '.', '-' and '_' kept,
    /// anything else '_', never hidden (a leading '.'). A name longer than
    /// `maximumBytes` keeps its start and ends in a hash of the whole id, so that long
    /// ids that begin alike still get a picture each.
    static func base(for id: CaseID) -> String {
        var name = String(id.description.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        if name.isEmpty || name.hasPrefix(".") { name = "case" + name }
        guard name.utf8.count > maximumBytes else { return name }
        let hash = "-" + hexadecimalHash(id.description)
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + character.utf8.count + hash.utf8.count <= maximumBytes else { break }
            prefix.append(character)
        }
        return prefix + hash
    }

    /// FNV-1a, 64 bits, in 16 hex digits: the same in every run (Swift's `Hasher` is not).
    private static func hexadecimalHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
