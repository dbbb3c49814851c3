/// Whether empty text and a trailing newline make a line.
public enum EmptyLineConvention: String, Sendable, Hashable, Codable {
    /// A text view's: the caret needs a line, so empty text is one line tall and a
    /// final newline starts an empty last line.
    case textView
    /// A label's (and a CSS block's): empty text has no lines and a final newline
    /// adds none.
    case label
}
