/// UITextInput's vocabulary over a placement: carets, hit testing, selection rectangles.
extension TextPlacement {
    /// Which side of an offset a caret belongs to where the two sides are drawn
    /// apart (at a direction boundary or a line end), as UIKit's `UITextStorageDirection`
    /// and browsers choose.
    public enum Affinity: Sendable, Hashable {
        /// With the cluster that ends at the offset: the caret sits at its trailing edge.
        case upstream
        /// With the cluster that starts at the offset: the caret sits at its leading edge.
        case downstream
    }

    /// A caret: a vertical bar at `x`, from `y` down `height` px.
    public struct Caret: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var height: Double
        public var line: Int
    }

    /// A rectangle of a selection on one line: text coordinates in px.
    public struct SelectionRect: Sendable, Hashable {
        public var line: Int
        public var left: Double
        public var right: Double
        public var y: Double
        public var height: Double
    }

    /// The caret at UTF-16 `offset`. Downstream, it is at the leading edge of the
    /// cluster that starts there (its left edge when drawn left to right, its right
    /// edge when right to left); upstream, at the trailing edge of the cluster that
    /// ends there. At a direction boundary the two differ, as in browsers. An offset
    /// inside a cluster takes the cluster's start; with no cluster on the asked side
    /// (the text's ends), the other side answers. Nil for an offset on no line.
    ///
    /// ```swift
    /// let prepared = try PreparedText("שלום John עולם")
    /// let placement = prepared.placement(of: try prepared.layout(width: 300))
    /// placement.caretRect(for: 5, affinity: .upstream)    // after "שלום " ...
    /// placement.caretRect(for: 5, affinity: .downstream)  // ... and before "John"
    /// ```
    public func caretRect(for offset: Int, affinity: Affinity = .downstream) -> Caret? {
        let starting = clusterIndex(startingAt: offset)
        let ending = clusterIndex(endingAt: offset)
        let chosen: (index: Int, atStart: Bool)?
        switch affinity {
        case .downstream: chosen = starting.map { ($0, true) } ?? ending.map { ($0, false) }
        case .upstream: chosen = ending.map { ($0, false) } ?? starting.map { ($0, true) }
        }
        guard let chosen else {
            // A line with no clusters (an empty line) has its caret at its left edge.
            guard let line = lines.firstIndex(where: { $0.utf16Range.lowerBound == offset }) else { return nil }
            return Caret(x: lines[line].left, y: lines[line].y, height: lines[line].height, line: line)
        }
        let cluster = clusters[chosen.index]
        // The leading edge is the left one of a left-to-right cluster.
        let atLeft = chosen.atStart != cluster.isRightToLeft
        let line = lines[cluster.line]
        return Caret(x: atLeft ? cluster.left : cluster.right, y: line.y, height: line.height, line: cluster.line)
    }

    /// The index in `clusters` of the cluster drawn at (`x`, `y`): on the line at
    /// that height (the first or last beyond the text), the cluster whose box holds
    /// `x`, else the nearest one. Nil when no line has a cluster.
    public func clusterIndex(atX x: Double, y: Double) -> Int? {
        guard !lines.isEmpty else { return nil }
        let lineIndex = lines.firstIndex { y < $0.y + $0.height } ?? lines.count - 1
        let visual = visualOrder[lines[lineIndex].visualClusters]
        // Line breaks have no width: they answer only on an otherwise empty line.
        let drawn = visual.filter { !clusters[$0].isLineBreak }
        guard let first = drawn.first ?? visual.first else { return nil }
        if let hit = drawn.first(where: { clusters[$0].left <= x && x < clusters[$0].right }) { return hit }
        return drawn.min { distance(x, clusters[$0]) < distance(x, clusters[$1]) } ?? first
    }

    /// The UTF-16 offset closest to (`x`, `y`): the edge of the cluster drawn there
    /// nearer to `x`, in text order (a right-to-left cluster starts on its right).
    public func closestPosition(toX x: Double, y: Double) -> Int? {
        guard let index = clusterIndex(atX: x, y: y) else { return lines.first?.utf16Range.lowerBound }
        let cluster = clusters[index]
        if cluster.isLineBreak { return cluster.utf16Range.lowerBound }
        let leftHalf = x < (cluster.left + cluster.right) / 2
        return leftHalf != cluster.isRightToLeft ? cluster.utf16Range.lowerBound : cluster.utf16Range.upperBound
    }

    /// The rectangles that cover the UTF-16 `range`: per line, one for each stretch
    /// of adjacent clusters in it, left to right, so a range across a direction
    /// boundary gives more than one.
    public func selectionRects(for range: Range<Int>) -> [SelectionRect] {
        var rects: [SelectionRect] = []
        for (index, line) in lines.enumerated() {
            var open: SelectionRect?
            for cluster in visualOrder[line.visualClusters].map({ clusters[$0] }) {
                let selected = !cluster.isEllipsis && cluster.utf16Range.overlaps(range)
                if selected, open != nil, abs(open!.right - cluster.left) < 1e-6 {
                    open!.right = cluster.right
                } else if selected {
                    if let done = open { rects.append(done) }
                    open = SelectionRect(line: index, left: cluster.left, right: cluster.right, y: line.y,
                                         height: line.height)
                } else if let done = open {
                    rects.append(done)
                    open = nil
                }
            }
            if let done = open { rects.append(done) }
        }
        return rects
    }

    private func distance(_ x: Double, _ cluster: Cluster) -> Double {
        x < cluster.left ? cluster.left - x : max(0, x - cluster.right)
    }

    /// Clusters are in text order, so their starts ascend (the ellipsis shares its offset).
    private func clusterIndex(startingAt offset: Int) -> Int? {
        let index = firstCluster(endingAfter: offset)
        guard index < clusters.count, clusters[index].utf16Range.contains(offset) else { return nil }
        return index
    }

    private func clusterIndex(endingAt offset: Int) -> Int? {
        guard offset > 0 else { return nil }
        let index = firstCluster(endingAfter: offset - 1)
        guard index < clusters.count, clusters[index].utf16Range.contains(offset - 1) else { return nil }
        return index
    }

    /// The first non-ellipsis cluster whose range ends after `offset`.
    private func firstCluster(endingAfter offset: Int) -> Int {
        var low = 0, high = clusters.count
        while low < high {
            let mid = (low + high) / 2
            if clusters[mid].utf16Range.upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        while low < clusters.count, clusters[low].isEllipsis { low += 1 }
        return low
    }
}
