import Foundation
@_spi(Benchmarking) import TextMeasure

/// `textmeasure bench`: what measuring costs per case, cold and warm, what
/// re-measuring a prepared text at other widths costs, and the floor of ICU and
/// HarfBuzz calls under it, all in one run so that the ratios are fair.
enum BenchCommand {
    static let help = """
        usage: textmeasure bench CASES.jsonl [--reps N] [--verbose]

        Times measuring the cases of a batch file (one JSON case per line, as for
        'textmeasure batch'), after loading their fonts (not timed). Prints:

          textmeasure cold cases=N us_per_case=X            prepare + layout, caches emptied before each case
          textmeasure warm cases=N us_per_case=X            the same, caches kept across cases and passes
          textmeasure relayout cases=N widths=5 us_per_case=X   a prepared text at 5 other widths, per width
          floor icu_linebreak ns_per_char=X                 ICU line-break iteration over the same texts
          floor hb_shape_runs ns_per_char=X                 one hb_shape per font/script run of them
          ratio cold/floor=R warm/cold=R
          cache warm_lookups=N warm_hits=N entries=N floor_us_per_case=X   (with --verbose)

        Times are medians over N passes (default 5) for each case, averaged over
        the cases. Characters are UTF-16 code units. Build in
        release mode (scripts/bench does) for figures worth quoting.
        """

    /// The widths a prepared case is re-measured at, as multiples of its own width:
    /// narrower and wider, as on rotation and window resizes.
    static let relayoutScales = [0.6, 0.8, 1.25, 1.5, 2.0]

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let reps = try arguments.number("--reps").map(Int.init) ?? 5
        let verbose = arguments.flag("--verbose")
        guard reps >= 1 else { throw .usage("--reps needs a count of at least 1") }
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else { throw .usage("bench needs one CASES.jsonl file") }
        let cases = try readCases(positionals[0])
        guard !cases.isEmpty else { throw .input("\(positionals[0]) holds no cases") }

        // Fonts loaded once, outside the timings; each case's measure then finds them in the cache.
        let fonts = FontCache()
        let floor: PreparationFloor
        do {
            for testCase in cases { _ = try testCase.measurer(fonts: fonts) }
            floor = try PreparationFloor(try cases.map { testCase throws in
                (testCase.text, try fonts.fontSet(paths: testCase.fonts ?? []), testCase.style())
            })
        } catch {
            throw .input("\(error)")
        }

        let cold = try timePerCase(cases, reps: reps) { testCase throws(CLIError) in
            ShapeCache.shared.removeAll()
            return try measure(testCase, fonts: fonts)
        }
        let measureWarm = { (testCase: MeasurementCase) throws(CLIError) in try measure(testCase, fonts: fonts) }
        _ = try timePerCase(cases, reps: 1, measureWarm)   // fills the caches
        let beforeWarm = ShapeCache.shared.statistics
        let warm = try timePerCase(cases, reps: reps, measureWarm)
        let afterWarm = ShapeCache.shared.statistics
        let relayout = try timeRelayout(cases, reps: reps, fonts: fonts)
        let icu = timeFloor(floor, reps: reps, floor.breakLines)
        let shaping = timeFloor(floor, reps: reps, floor.shapeRuns)
        let characters = Double((0..<floor.count).reduce(0) { $0 + floor.utf16Count(of: $1) })
        let floorPerCase = (icu + shaping) * characters / Double(cases.count) / 1000
        print("textmeasure cold cases=\(cases.count) us_per_case=\(format(cold))")
        print("textmeasure warm cases=\(cases.count) us_per_case=\(format(warm))")
        print("textmeasure relayout cases=\(cases.count) widths=\(relayoutScales.count) us_per_case=\(format(relayout))")
        print("floor icu_linebreak ns_per_char=\(format(icu))")
        print("floor hb_shape_runs ns_per_char=\(format(shaping))")
        print("ratio cold/floor=\(format(cold / floorPerCase)) warm/cold=\(format(warm / cold))")
        if verbose {
            let lookups = (afterWarm.hits - beforeWarm.hits) + (afterWarm.misses - beforeWarm.misses)
            print("cache warm_lookups=\(lookups) warm_hits=\(afterWarm.hits - beforeWarm.hits) entries=\(afterWarm.count)"
                  + " floor_us_per_case=\(format(floorPerCase))")
        }
    }

    private static func measure(_ testCase: MeasurementCase, fonts: FontCache) throws(CLIError) -> Int {
        do { return try testCase.measure(fonts: fonts).lines } catch { throw .input("case \(testCase.id?.description ?? "?"): \(error)") }
    }

    /// Mean over cases of each case's median time, in µs.
    private static func timePerCase(_ cases: [MeasurementCase], reps: Int,
                                    _ body: (MeasurementCase) throws(CLIError) -> Int) throws(CLIError) -> Double {
        var times = [[Double]](repeating: [], count: cases.count)
        var sink = 0
        for _ in 0..<reps {
            for (index, testCase) in cases.enumerated() {
                let start = now()
                sink &+= try body(testCase)
                times[index].append(now() - start)
            }
        }
        blackHole(sink)
        return times.reduce(0) { $0 + median($1) } / Double(cases.count) / 1000
    }

    /// Mean over cases of the median time to re-measure a prepared case at one of
    /// `relayoutScales` times its width, in µs.
    private static func timeRelayout(_ cases: [MeasurementCase], reps: Int, fonts: FontCache) throws(CLIError) -> Double {
        let measurers: [TextMeasurer]
        do { measurers = try cases.map { try $0.measurer(fonts: fonts) } } catch { throw .input("\(error)") }
        var times = [[Double]](repeating: [], count: cases.count)
        var sink = 0
        for _ in 0..<reps {
            for (index, testCase) in cases.enumerated() {
                let start = now()
                for scale in relayoutScales {
                    do { sink &+= try testCase.result(of: measurers[index], width: testCase.width * scale).lines } catch {
                        throw .input("case \(testCase.id?.description ?? "?"): \(error)")
                    }
                }
                times[index].append((now() - start) / Double(relayoutScales.count))
            }
        }
        blackHole(sink)
        return times.reduce(0) { $0 + median($1) } / Double(cases.count) / 1000
    }

    /// The sum over texts of each text's median time for `pass`, in ns per UTF-16 unit.
    private static func timeFloor(_ floor: PreparationFloor, reps: Int, _ pass: (Int) -> Int) -> Double {
        var times = [[Double]](repeating: [], count: floor.count)
        var sink = 0
        for _ in 0..<reps {
            for index in 0..<floor.count {
                let start = now()
                sink &+= pass(index)
                times[index].append(now() - start)
            }
        }
        blackHole(sink)
        let characters = (0..<floor.count).reduce(0) { $0 + floor.utf16Count(of: $1) }
        return times.reduce(0) { $0 + median($1) } / Double(characters)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Monotonic time in ns.
    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    /// Keeps a result alive so that the optimizer cannot drop the work that made it.
    @inline(never) private static func blackHole(_ value: Int) {
        if value == Int.min { print("") }
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    private static func readCases(_ path: String) throws(CLIError) -> [MeasurementCase] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .input("cannot read \(path)") }
        let decoder = JSONDecoder()
        var cases: [MeasurementCase] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.allSatisfy({ $0 == 32 }) {
            do { cases.append(try decoder.decode(MeasurementCase.self, from: Data(line))) } catch {
                throw .input("\(path):\(number + 1): not a case: \(error)")
            }
        }
        return cases
    }
}
