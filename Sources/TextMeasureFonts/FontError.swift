/// Why a font could not be loaded or used.
public enum FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file exists at the path.
    case fileNotFound(path: String)
    /// The file exists but could not be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file or byte buffer is empty.
    case empty
    /// FreeType could not parse the data as a font (truncated, corrupt or not a font).
    /// `code` is FreeType's error code.
    case invalidFont(code: Int32, reason: String)
    /// Part of the font (`part`: "table 'GPOS'", "table directory", ...) lies past the
    /// end of the data: the file was cut short.
    case truncated(part: String)
    /// The face index does not exist in this font file or collection.
    case faceIndexOutOfRange(index: Int, faceCount: Int)
    /// The font has no outlines and no bitmap strikes, or no Unicode character map.
    case unsupportedFont(reason: String)
    /// A variation axis value the font cannot take: no axis with that tag, or a value
    /// outside the axis's range.
    case invalidVariation(tag: String, reason: String)
    /// A font set needs at least one font.
    case emptyFontSet
    /// A font set can hold at most `FontSet.maximumCount` fonts.
    case tooManyFonts(count: Int)
    /// What is wrong with the font file at `path` (`error` is about its data: empty,
    /// not a font, truncated, too large...), so that a message names the file.
    indirect case inFile(path: String, error: FontError)

    public var description: String {
        switch self {
        case .fileNotFound(let path): "font file not found: \(path)"
        case .unreadable(let path, let reason): "font file unreadable: \(path): \(reason)"
        case .empty: "font data is empty"
        case .invalidFont(let code, let reason): "not a valid font (FreeType error \(code): \(reason))"
        case .truncated(let part): "truncated font: \(part) extends past the end of the data"
        case .faceIndexOutOfRange(let index, let count): "face index \(index) out of range: the font has \(count) face(s)"
        case .unsupportedFont(let reason): "unsupported font: \(reason)"
        case .invalidVariation(let tag, let reason): "font variation '\(tag)': \(reason)"
        case .emptyFontSet: "a font set needs at least one font"
        case .tooManyFonts(let count): "a font set holds at most \(FontSet.maximumCount) fonts, got \(count)"
        case .inFile(let path, let error): "font file \(path): \(error)"
        }
    }
}
