/// The vertical extent of a line box above and below its baseline, in layout units
/// (`Units.layoutPerPixel`, 1/64 px).
@usableFromInline   // `enclosing` is inlined into line fitting, per line
package struct LineBox: Equatable, Sendable {
    /// The furthest a box reaches above or below its baseline, in 1/64 px (16,777,216 px).
    /// Absurd metrics and line heights saturate here, so that the height of a whole
    /// text (at most 2³¹ lines) is a sum that cannot overflow.
    static let maximumExtent = 1 << 30

    @usableFromInline package var above: Int
    @usableFromInline package var below: Int
    @inlinable package var height: Int { above + below }

    init(above: Int, below: Int) {
        self.above = min(max(above, -Self.maximumExtent), Self.maximumExtent)
        self.below = min(max(below, -Self.maximumExtent), Self.maximumExtent)
    }

    /// The box one font contributes to a line at `size` under `line-height: normal`.
    static func normal(_ metrics: FontMetrics, size: Double) -> LineBox {
        let rounded = metrics.roundedPixels(at: size)
        let gapAbove = rounded.lineGap / 2
        return LineBox(above: (rounded.ascent + gapAbove) * Units.layoutPerPixel,
                       below: (rounded.descent + rounded.lineGap - gapAbove) * Units.layoutPerPixel)
    }

    /// The primary font's box stretched or shrunk to `height` (1/64 px), the
    /// difference split evenly above and below as CSS half-leading does.
    static func fixed(_ metrics: FontMetrics, size: Double, height: Int) -> LineBox {
        let rounded = metrics.roundedPixels(at: size)
        let ascent = rounded.ascent * Units.layoutPerPixel
        let content = (rounded.ascent + rounded.descent) * Units.layoutPerPixel
        let halfLeading = (height - content) / 2
        return LineBox(above: ascent + halfLeading, below: height - ascent - halfLeading)
    }

    /// The box of a line whose content uses the fonts `fontMask` (bit i: font i), given
    /// each font's box in `boxes`, or one box for every line. The primary font always counts.
    @inlinable @inline(__always)   // per line, from line fitting
    package static func enclosing(fonts fontMask: UInt64, in boxes: [LineBox]) -> LineBox {
        guard boxes.count > 1 else { return boxes[0] }
        var box = boxes[0]
        var mask = fontMask & ~1
        while mask != 0 {
            let index = mask.trailingZeroBitCount
            box.above = max(box.above, boxes[index].above)
            box.below = max(box.below, boxes[index].below)
            mask &= mask - 1
        }
        return box
    }
}
