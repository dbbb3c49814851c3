import TextMeasure

/// The two-sided check that a self-sizing text field wraps: its frame stays inside
/// the container (right edge ≤ the container's + 1) **and** it grew past one line
/// (height > one line + 1).
///
/// Either side alone passes for the wrong reason. A field that clips or scrolls its
/// text stays inside the container; a field that took the width of its unwrapped
/// text runs off the edge and can still grow taller, at every newline. Only a field
/// that wraps satisfies both. (This is the assertion that caught the composer that
/// asked for the whole screen; see the README.)
///
/// ```swift
/// let check = WrapCheck(fieldMaxX: field.frame.maxX, fieldHeight: field.frame.height,
///                       containerMaxX: window.bounds.maxX, oneLineHeight: emptyField.frame.height)
/// #expect(check.passed, "\(check)")
/// ```
public struct WrapCheck: Sendable, Hashable, CustomStringConvertible {
    /// The field's right edge, in the container's coordinates.
    public var fieldMaxX: Double
    /// The field's height.
    public var fieldHeight: Double
    /// The container's right edge.
    public var containerMaxX: Double
    /// The height of the field holding one line of text.
    public var oneLineHeight: Double
    /// Slack on both sides for rounding to pixels. Default 1, as in the original assertion.
    public var tolerance: Double

    public init(fieldMaxX: Double, fieldHeight: Double, containerMaxX: Double, oneLineHeight: Double,
                tolerance: Double = 1) {
        self.fieldMaxX = fieldMaxX
        self.fieldHeight = fieldHeight
        self.containerMaxX = containerMaxX
        self.oneLineHeight = oneLineHeight
        self.tolerance = tolerance
    }

    /// The check for `measurer`'s answer to a proposed `containerWidth`: the frame
    /// `sizeThatFits` gives, placed at the container's left edge, against the frame
    /// the same measurer (fonts, style, container, height limits) gives one line.
    public init(measurer: TextMeasurer, containerWidth: Double, tolerance: Double = 1) throws(TextMeasureError) {
        guard let frame = measurer.sizeThatFits(ProposedSize(width: containerWidth)) else {
            throw .invalidWidth(containerWidth)
        }
        var oneLine = try TextMeasurer(prepared: PreparedText(" ", fonts: measurer.prepared.fonts, style: measurer.prepared.style),
                                       container: measurer.container)
        oneLine.minimumHeight = measurer.minimumHeight
        oneLine.maximumHeight = measurer.maximumHeight
        oneLine.displayScale = measurer.displayScale
        let oneLineHeight = oneLine.sizeThatFits(ProposedSize(width: containerWidth))?.height ?? frame.height
        self.init(fieldMaxX: frame.width, fieldHeight: frame.height, containerMaxX: containerWidth,
                  oneLineHeight: oneLineHeight, tolerance: tolerance)
    }

    /// The field's right edge is within the container (+ tolerance).
    public var staysInside: Bool { fieldMaxX <= containerMaxX + tolerance }
    /// The field is taller than one line (+ tolerance).
    public var growsPastOneLine: Bool { fieldHeight > oneLineHeight + tolerance }
    /// Both sides hold: the field wraps.
    public var passed: Bool { staysInside && growsPastOneLine }

    /// Which side failed and why that matters; or, when it passes, both sides' numbers.
    public var description: String {
        let inside = "right edge \(formatNumber(fieldMaxX)) ≤ container \(formatNumber(containerMaxX)) + \(formatNumber(tolerance))"
        let taller = "height \(formatNumber(fieldHeight)) > one line \(formatNumber(oneLineHeight)) + \(formatNumber(tolerance))"
        if passed { return "wraps: \(inside), and \(taller)" }
        var failures: [String] = []
        if !staysInside {
            failures.append("runs off the edge: the field's right edge is at \(formatNumber(fieldMaxX)), past the container's "
                + "\(formatNumber(containerMaxX)) + \(formatNumber(tolerance)). It did not wrap to the width it was offered: it was "
                + "given the width of its unwrapped text (an intrinsic width, or a width that was never proposed). "
                + "Staying inside is the side that proves the field took the container's width.")
        }
        if !growsPastOneLine {
            failures.append("does not grow past one line: the field is \(formatNumber(fieldHeight)) tall, not more than one "
                + "line's \(formatNumber(oneLineHeight)) + \(formatNumber(tolerance)). It shows one line, so it clips or scrolls its "
                + "text instead of wrapping (or was measured before it had a width). Growing taller is the side that "
                + "proves the text wrapped.")
        }
        if staysInside { failures.append("It does stay inside the container, which a field that clips does too.") }
        if growsPastOneLine { failures.append("It does grow past one line, which a field that runs off does too.") }
        return failures.joined(separator: " ")
    }
}
