/// The differences between a browser's line breaking and plain ICU, applied on top
/// of ICU's opportunities for `LineBreakRules.browser`.
///
/// Each tailoring is a small, named rule with its own test. None yet: with no
/// tailoring the browser rules equal `uax14`.
enum BrowserTailoring {
    static func apply(to breaks: inout [BreakOpportunity], in text: UnsafeBufferPointer<UInt16>) {}
}
