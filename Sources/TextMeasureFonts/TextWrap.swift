/// How lines are chosen among the break opportunities that fit (CSS `text-wrap`).
///
/// ```swift
/// var style = TextStyle(fontSize: 22)
/// style.textWrap = .balance   // a title: lines of about even length
/// let title = try PreparedText("A headline that wraps onto two lines", style: style)
/// ```
public enum TextWrap: String, Sendable, Hashable, Codable, CaseIterable {
    /// Greedy: each line takes as much as fits (CSS `text-wrap: wrap`, the default).
    case wrap
    /// The same number of lines as greedy, evened out (CSS `text-wrap: balance`), as
    /// Chromium 156 does it: for a first paragraph of at most 6 greedy lines, else greedy.
    case balance
    /// Greedy, except that the last up to 4 lines of a paragraph are chosen again when
    /// the last line is one short word (CSS `text-wrap: pretty`, Chromium 156's rules).
    case pretty
}
