/// The direction of a paragraph (NSWritingDirection's names; CSS's values as raw
/// values, as JSON and the command line spell them: `auto`, `ltr`, `rtl`).
public enum WritingDirection: String, Sendable, Hashable, CaseIterable, Codable {
    /// Each paragraph takes the direction of its first strong character (a letter
    /// of a left-to-right or right-to-left script), left to right when it has none:
    /// CSS `unicode-bidi: plaintext`. The default.
    case natural = "auto"
    /// Every paragraph is left to right (CSS `direction: ltr`).
    case leftToRight = "ltr"
    /// Every paragraph is right to left (CSS `direction: rtl`).
    case rightToLeft = "rtl"
}

/// Where a line sits between the content box's edges (NSTextAlignment's and CSS
/// `text-align`'s meanings), relative to its paragraph's direction where it says so.
/// Raw values are CSS's (`start`, `end`, `left`, `right`, `center`). Justified text
/// is not offered (see the README's "What TextMeasure does not do").
public enum TextAlignment: String, Sendable, Hashable, CaseIterable, Codable {
    /// The paragraph's start: left in a left-to-right paragraph, right in a
    /// right-to-left one (CSS `start`). The default.
    case natural = "start"
    /// The paragraph's end: right in a left-to-right paragraph, left in a right-to-left one.
    case end
    case left
    case right
    case center
}
