/// What line fitting needs besides the width: a container's empty-line convention,
/// line-break mode and line limit, carried as one value through layout and sizing
/// and validated once, when it is made.
package struct FittingOptions: Sendable, Hashable {
    package let emptyLines: EmptyLineConvention
    package let lineBreakMode: LineBreakMode
    /// The most lines to lay out; 0 for no limit. Never negative.
    package let maximumNumberOfLines: Int

    /// - Throws: `TextMeasureError.invalidOption` for a negative line limit.
    package init(emptyLines: EmptyLineConvention, lineBreakMode: LineBreakMode,
                 maximumNumberOfLines: Int) throws(TextMeasureError) {
        guard maximumNumberOfLines >= 0 else {
            throw .invalidOption(name: "maximumNumberOfLines", value: Double(maximumNumberOfLines))
        }
        self.emptyLines = emptyLines
        self.lineBreakMode = lineBreakMode
        self.maximumNumberOfLines = maximumNumberOfLines
    }
}
