import TextMeasure

/// What must hold of any placement of a layout, whatever the text, direction and alignment.
public enum PlacementInvariants {
    public static func check(_ placement: TextPlacement, of layout: TextLayout) throws(InvariantViolation) {
        try LayoutInvariants.require(placement.lines.count == layout.lines.count, "one placed line per line")
        var seen = [Bool](repeating: false, count: placement.clusters.count)
        for (index, line) in placement.lines.enumerated() {
            try LayoutInvariants.require(line.utf16Range == layout.lines[index].utf16Range, "line \(index) keeps its range")
            var x = line.left
            for cluster in placement.visualOrder[line.visualClusters] {
                let box = placement.clusters[cluster]
                try LayoutInvariants.require(!seen[cluster] && box.line == index, "cluster \(cluster) placed once, on its line")
                seen[cluster] = true
                // Boxes follow one another left to right, with no gap and no overlap.
                try LayoutInvariants.require(box.left.isFinite && box.right >= box.left && abs(box.left - x) < 1e-6,
                                         "line \(index): box \(box.left)…\(box.right) after \(x)")
                x = box.right
                // Lines of no height (a tiny font) are all at one y: a point there names none of them.
                if box.right - box.left > 1e-3, !box.isLineBreak, line.height > 0 {
                    let hit = placement.clusterIndex(atX: (box.left + box.right) / 2, y: line.y + line.height / 2)
                    try LayoutInvariants.require(hit.map { placement.clusters[$0].left == box.left } ?? false,
                                             "hit testing the middle of cluster \(cluster) finds it")
                }
            }
        }
        try LayoutInvariants.require(seen.allSatisfy { $0 }, "every cluster is on a line")
    }
}
