/// Tab stops as browsers set them (CSS `tab-size`): a tab advances to the next
/// multiple of `interval` from the start of its line, or one interval further when
/// the next stop is less than half a space away.
///
/// Tabs are breakable spaces, so they only ever end a segment's trailing whitespace,
/// which hangs at the end of a line; the stops matter when more follows on the line.
@usableFromInline   // read through PreparedText's inlined accessors
package struct TabStops: Sendable, Equatable {
    /// Distance between stops, in width units: `tabSize` spaces of the primary font.
    var interval: Int
    /// The narrowest a tab may be: half a space.
    var minimum: Int
    /// Indices of the graphemes that are tabs, ascending.
    package var graphemes: [Int32]

    static let none = TabStops(interval: 0, minimum: 0, graphemes: [])

    /// The width of a tab that starts `x` units from the start of its line.
    package func advance(at x: Int) -> Int {
        guard interval > 0 else { return 0 }
        let distance = interval - x % interval
        return distance < minimum ? distance + interval : distance
    }

    /// Where the whitespace graphemes `range` end when laid out from `x`, or nil when
    /// none of them is a tab (their width is then simply their sum).
    package func end(of range: Range<Int>, from x: Int, widths: [Int32]) -> Int? {
        guard !graphemes.isEmpty, !range.isEmpty else { return nil }
        let first = graphemes.partitioningIndex { Int($0) >= range.lowerBound }   // the first tab in range
        guard first < graphemes.count, Int(graphemes[first]) < range.upperBound else { return nil }
        var position = x
        var tab = first
        for grapheme in range {
            if tab < graphemes.count, Int(graphemes[tab]) == grapheme {
                position += advance(at: position)
                tab += 1
            } else {
                position += Int(widths[grapheme])
            }
        }
        return position
    }
}
