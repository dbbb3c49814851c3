/// Shaping runs cut where the bidi level changes, as browsers shape: a run's
/// direction is then its level's (odd: right to left), not its script's, so digits
/// and Latin words inside right-to-left text shape left to right, and neutrals
/// (spaces, brackets) shape in the direction they are drawn in; HarfBuzz mirrors
/// brackets in right-to-left runs.
package enum BidiRuns {
    /// Cuts `runs[first...]` (in text order, covering the clusters ending at
    /// `clusterEnds`, the first starting at `start`) at level changes between
    /// clusters, each cluster taking its first code unit's level from `levels`,
    /// and sets each run's `bidiLevel`.
    package static func split(_ runs: inout [FontRun], from first: Int, clusterEnds: UnsafeBufferPointer<Int32>,
                      start: Int, levels: UnsafePointer<UInt8>) {
        guard first < runs.count else { return }
        var split: [FontRun] = []
        split.reserveCapacity(runs.count - first + 4)
        var runIndex = first
        var clusterStart = start
        for boundary in clusterEnds {
            let end = Int(boundary)
            while runIndex < runs.count, runs[runIndex].end <= clusterStart { runIndex += 1 }
            guard runIndex < runs.count else { break }
            let level = levels[clusterStart]
            if let last = split.last, last.end == clusterStart, last.bidiLevel == level,
               clusterStart != runs[runIndex].start {
                split[split.count - 1].end = end
            } else {
                var piece = runs[runIndex]
                piece.start = clusterStart
                piece.end = end
                piece.bidiLevel = level
                split.append(piece)
            }
            clusterStart = end
        }
        runs.replaceSubrange(first..., with: split)
    }
}
