import FuzzSupport

// Fuzzes text and options: see `TextFuzzing` (in FuzzSupport, so that `swift test`
// replays the corpus through the same checks).
runFuzzer { data, count in
    guard let data else { return 0 }
    do { try TextFuzzing.check(UnsafeBufferPointer(start: data, count: count)) } catch { fatalError("\(error)") }
    return 0
}
