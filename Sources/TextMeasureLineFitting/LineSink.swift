/// Where line fitting puts the lines it ends, in order.
package protocol LineSink {
    /// Takes the next line of `prepared` (whose line boxes give the line its height).
    mutating func add(_ line: LineFragment, of prepared: PreparedText)
    /// Whether the sink reads more of a line than its extent, width and fonts (whether
    /// it shows a hyphen): fitting works that out only for a sink that reads it.
    static var keepsLineDetails: Bool { get }
}

extension LineSink {
    package static var keepsLineDetails: Bool { false }
}

/// Layout keeps every line.
extension Array: LineSink where Element == LineFragment {
    package mutating func add(_ line: LineFragment, of prepared: PreparedText) { append(line) }
    package static var keepsLineDetails: Bool { true }
}

/// Sizing keeps only what a size needs of the lines: their stacked height and the
/// widest, so that measuring at a new width allocates nothing. (The line boxes are
/// read from the prepared text each line is given with, not kept: keeping the array
/// cost every measurement a retain and a release.)
package struct LineStack: LineSink {
    /// Height of the lines stacked, in layout units (`Units.layoutPerPixel`).
    package private(set) var height = 0
    /// Width of the widest line, in width units.
    package private(set) var widest = 0

    package init() {}

    @inline(__always)
    package mutating func add(_ line: LineFragment, of prepared: PreparedText) {
        height += LineBox.enclosing(fonts: line.fonts, in: prepared.lineBoxes).height
        widest = max(widest, line.width)
    }
}
