/// Shaping runs cut where the bidi level changes, as browsers shape: a run's
/// direction is then its level's (odd: right to left), not its script's, so digits
/// and Latin words inside right-to-left text shape left to right, and neutrals
/// (spaces, brackets) shape in the direction they are drawn in; HarfBuzz mirrors
/// brackets in right-to-left runs.
package enum BidiRuns {
    /// Cuts `runs[first...]` (in text order, covering the clusters ending at
    /// `clusterEnds`, the first starting at `start`) at level changes between
    /// clusters, each cluster taking its first code unit's level from `levels`,
    /// and sets each run's `bidiLevel`. With `uniformLevel` (every code unit's level,
    /// when they are all the same: `BidiLevels.uniformLevel`) no run is cut: each takes it.
    package static func split(_ runs: inout [FontRun], from first: Int, clusterEnds: UnsafeBufferPointer<Int32>,
                      start: Int, levels: UnsafePointer<UInt8>, uniformLevel: UInt8? = nil) {
        guard first < runs.count else { return }
        if let uniformLevel {
            for index in first..<runs.count { runs[index].bidiLevel = uniformLevel }
            return
        }
        if isOneLevelPerRun(runs, from: first, clusterEnds: clusterEnds, start: start, levels: levels) {
            for index in first..<runs.count { runs[index].bidiLevel = levels[runs[index].start] }
            return
        }
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

    /// Whether `split` would cut none of `runs[first...]`: they lie end to end over the
    /// clusters, each starting at one, and each cluster has its run's first level. Most
    /// runs are of one level (a right-to-left paragraph, a left-to-right word): they then
    /// only take their level, with no array built.
    private static func isOneLevelPerRun(_ runs: [FontRun], from first: Int, clusterEnds: UnsafeBufferPointer<Int32>,
                                         start: Int, levels: UnsafePointer<UInt8>) -> Bool {
        guard runs[first].start == start else { return false }
        var runIndex = first
        var level = levels[start]
        var clusterStart = start
        for boundary in clusterEnds {
            if clusterStart == runs[runIndex].end {
                runIndex += 1
                guard runIndex < runs.count, runs[runIndex].start == clusterStart else { return false }
                level = levels[clusterStart]
            } else if levels[clusterStart] != level {
                return false
            }
            clusterStart = Int(boundary)
        }
        return runIndex == runs.count - 1 && clusterStart == runs[runIndex].end
    }
}
