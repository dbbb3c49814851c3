/// A stretch of one line drawn in one style: a run of the `AttributedText`, or the
/// base style between runs.
public struct LineRun: Sendable {
    /// The part of the line in this style, in UTF-16 code units.
    public var utf16Range: Range<Int>
    /// The index of the run in `AttributedText.runs`; `nil` for the base style.
    public var runIndex: Int?
    /// The style the text is drawn in: the base style with the run's overrides.
    public var style: TextStyle
    /// The fonts it is drawn with.
    public var fonts: FontSet
    /// The run's placeholder, when this is one.
    public var placeholder: InlinePlaceholder?
}

extension PreparedText {
    /// The styles on `line`, in text order: each run of the styled text the line
    /// holds (clipped to the line) and the base style between them. Plain text has
    /// one, in `style`.
    ///
    /// ```swift
    /// var text = AttributedText("Hi @ana")
    /// try text.setAttributes(TextAttributes(fontSize: 22), utf16Range: 3..<7)
    /// let prepared = try PreparedText(text)
    /// let line = try prepared.layout(width: 300).lines[0]
    /// let sizes = prepared.runs(on: line).map(\.style.fontSize)   // [17, 22]
    /// ```
    public func runs(on line: TextLayout.Line) -> [LineRun] {
        let range = line.utf16Range
        guard let attributed else {
            return [LineRun(utf16Range: range, runIndex: nil, style: style, fonts: fonts, placeholder: nil)]
        }
        var runs: [LineRun] = []
        func appendBase(_ part: Range<Int>) {
            guard !part.isEmpty else { return }
            runs.append(LineRun(utf16Range: part, runIndex: nil, style: style, fonts: fonts, placeholder: nil))
        }
        var position = range.lowerBound
        let first = attributed.runs.partitioningIndex { $0.utf16Range.upperBound > range.lowerBound }
        for index in first..<attributed.runs.count {
            let run = attributed.runs[index]
            guard run.utf16Range.lowerBound < range.upperBound else { break }
            let part = max(run.utf16Range.lowerBound, range.lowerBound)..<min(run.utf16Range.upperBound, range.upperBound)
            appendBase(position..<part.lowerBound)
            let (style, fonts) = attributed.style(of: run)
            runs.append(LineRun(utf16Range: part, runIndex: index, style: style, fonts: fonts,
                                placeholder: run.attributes.placeholder))
            position = part.upperBound
        }
        appendBase(position..<range.upperBound)
        return runs
    }
}
