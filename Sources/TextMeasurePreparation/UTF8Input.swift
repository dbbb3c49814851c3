/// What `PreparedText(utf8:)` does with bytes that are not valid UTF-8: stray
/// continuation bytes, overlong forms, encoded surrogates (a lone surrogate from
/// CESU-8 or WTF-8 text), code points past U+10FFFF, a sequence cut short.
public enum InvalidUTF8Handling: Sendable, Hashable {
    /// Throw `TextMeasureError.invalidUTF8(byteOffset:)` at the first invalid byte. The default.
    case reject
    /// Replace each maximal invalid subsequence with U+FFFD, Unicode's recommended
    /// practice (the WHATWG decoder's too), and measure the replacement characters.
    case replace
}

extension PreparedText {
    /// Prepares text given as UTF-8 bytes: a request body, a file, standard input.
    ///
    /// A `String` cannot hold invalid UTF-8 or a lone surrogate; bytes can. They are
    /// rejected with the offset of the first bad byte, or replaced with U+FFFD.
    ///
    /// ```swift
    /// let prepared = try PreparedText(utf8: body, invalidUTF8: .replace)
    /// let height = try TextMeasurer(prepared: prepared).sizeThatFits(ProposedSize(width: 390))?.height
    /// ```
    ///
    /// - Throws: `TextMeasureError.invalidUTF8` (with `.reject`), or what `init(_:fonts:style:)` throws.
    public init(utf8 bytes: some Collection<UInt8>, invalidUTF8: InvalidUTF8Handling = .reject,
                fonts: FontSet = .default, style: TextStyle = TextStyle()) throws(TextMeasureError) {
        let text: String
        if let valid = String(validating: bytes, as: UTF8.self) {
            text = valid
        } else {
            switch invalidUTF8 {
            case .reject: throw .invalidUTF8(byteOffset: Self.firstInvalidByte(in: bytes))
            case .replace: text = String(decoding: bytes, as: UTF8.self)
            }
        }
        try self.init(text, fonts: fonts, style: style)
    }

    /// The offset of the first byte of the first invalid sequence (the end if none).
    private static func firstInvalidByte(in bytes: some Collection<UInt8>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
        return offset
    }
}
