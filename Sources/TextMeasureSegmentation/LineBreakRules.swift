/// Which line-break opportunities the text offers.
public enum LineBreakRules: String, Sendable, CaseIterable, Hashable, Codable {
    /// Exactly ICU's answer: UAX #14 with ICU's default tailoring, dictionary
    /// breaking for Thai, Lao, Khmer and Burmese, and CJK.
    case uax14
    /// What a browser does with `white-space: pre-wrap; line-break: auto;
    /// word-break: normal`: ICU's opportunities with Blink's tailorings applied
    /// (see `BrowserTailoring`). The default.
    case browser
}

/// A place where a line may end: after the UTF-16 code unit at `utf16Offset - 1`.
public struct BreakOpportunity: Sendable, Hashable {
    /// The UTF-16 offset at which the next line would start.
    public var utf16Offset: Int
    /// True for a mandatory break (after a newline or paragraph separator):
    /// the line must end here.
    public var isMandatory: Bool
    /// True for a hyphenation point found by `hyphens: auto`: a line ending here shows a hyphen.
    public var isHyphenation = false

    public init(utf16Offset: Int, isMandatory: Bool) {
        self.utf16Offset = utf16Offset
        self.isMandatory = isMandatory
    }
}
