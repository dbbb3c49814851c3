import FuzzSupport

// Fuzzes font bytes: see `FontFuzzing` (in FuzzSupport, so that `swift test`
// replays the corpus through the same checks).
runFuzzer { data, count in
    guard let data else { return 0 }
    do { try FontFuzzing.check(Array(UnsafeBufferPointer(start: data, count: count))) } catch { fatalError("\(error)") }
    return 0
}
