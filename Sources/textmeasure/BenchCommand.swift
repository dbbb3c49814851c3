import Foundation
import TextMeasure

/// `textmeasure bench`: what measuring costs per case, cold and warm, what
/// re-measuring a prepared text at other widths costs, and the floor of ICU and
/// HarfBuzz calls under it, all in one run so that the ratios are fair.
enum BenchCommand {
    static let help = """
        usage: textmeasure bench CASES.jsonl [--reps N] [--verbose]
               textmeasure bench CASES.jsonl --edit [--reps N]

        What measuring costs: cold, warm, re-laid-out, and against the ICU/HarfBuzz floor.

        Times the cases of a batch file (one JSON case per line, as for
        'textmeasure batch'), after loading their fonts (not timed). Prints:

          textmeasure cold cases=N us_per_case=X
              each case measured as batch measures it (prepare, then the lines
              and the size from one fitting), with the shape cache emptied before
              each case
          textmeasure warm cases=N us_per_case=X
              the same with the cache kept across cases and passes
          textmeasure relayout cases=N widths=5 us_per_case=X
              sizeThatFits of each prepared case at 5 other widths, per width
          textmeasure layout cases=N lines=L us_per_line=X
              layout(width:) of each prepared case at its own width (the lines
              with their ranges, text and geometry), per line
          textmeasure place cases=N lines=L us_per_line=X
              placement (bidi order, alignment, cluster boxes) of each case's lines, per line
          floor icu_linebreak ns_per_char=X
              ICU's line-break iteration over the same texts, alone
          floor hb_shape_runs ns_per_char=X
              one bare hb_shape per font/script run of them
          ratio cold/floor=R warm/cold=R
              the floor being the two lines above, per case

        With --verbose, a last line adds the characters per case, the floor per
        case, re-measuring with the lines as batch reports them, and the cache's
        warm hits.

        With --edit, instead: what typing in a composer costs. The cases' texts,
        mixed, make a draft of about 10 kB, one paragraph per case, prepared in
        the embedded fonts at 17 px. Prints

          edit draft_utf16=N paragraphs=P cold_us=X warm_us=X edit_us=X edit/cold=R edit/warm=R
              preparing the whole draft with the shape cache emptied (cold) and
              kept (warm), and one keystroke (PreparedText.replacingCharacters,
              a character typed or deleted at a random place, the cache kept)

        Times are medians over N passes (default 5) for each case, averaged over
        the cases. Characters are UTF-16 code units. Build in release mode
        (scripts/bench does) for figures worth quoting.
        """

    /// The widths a prepared case is re-measured at, as multiples of its own width:
    /// narrower and wider, as on rotation and window resizes.
    static let relayoutScales = [0.6, 0.8, 1.25, 1.5, 2.0]

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let reps = try arguments.integer("--reps", in: 1...100_000) ?? 5
        let verbose = arguments.flag("--verbose")
        let edit = arguments.flag("--edit")
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else { throw .usage("bench needs one CASES.jsonl file") }
        let cases = try CaseFile.read(positionals[0])
        guard !cases.isEmpty else { throw .input("\(positionals[0]) holds no cases") }
        if edit { return try benchEdits(cases, reps: reps) }

        // Fonts are loaded and the floor's runs itemized once, outside the timings.
        let fonts = FontCache()
        let measurers: [TextMeasurer], floor: PreparationFloor
        do {
            measurers = try cases.map { try $0.measurer(fonts: fonts) }
            floor = try PreparationFloor(try cases.map { testCase throws in
                (testCase.text, try fonts.fontSet(testCase.fonts ?? [], embeddedFallback: testCase.embeddedFallback ?? true), testCase.style())
            })
        } catch {
            throw .input("\(error)")
        }
        func measure(_ index: Int) throws(CLIError) -> Int {
            do { return try cases[index].measure(fonts: fonts).lines } catch { throw failure(cases[index], error) }
        }

        let cold = try medianPerItem(cases.count, reps: reps, before: { _ in ShapeCache.shared.removeAll() }, measure)
        _ = try medianPerItem(cases.count, reps: 1, measure)   // fills the caches
        let beforeWarm = ShapeCache.shared.statistics
        let warm = try medianPerItem(cases.count, reps: reps, measure)
        let afterWarm = ShapeCache.shared.statistics
        // One copy of a measurer per case, not one per width, as before the prepared text
        // kept its fields behind one reference (a copy then retained each of them).
        let relayout = try measurers.withUnsafeBufferPointer { measurers throws(CLIError) in
            try medianPerItem(cases.count, reps: reps) { index throws(CLIError) in
                var heights = 0
                let measurer = measurers[index]
                for scale in relayoutScales {
                    let width = cases[index].width * scale
                    guard let size = measurer.sizeThatFits(ProposedSize(width: width)) else {
                        throw failure(cases[index], TextMeasureError.invalidWidth(width))
                    }
                    heights &+= Int(size.height)
                }
                return heights
            }
        } / Double(relayoutScales.count)
        // Placing each case's lines at its own width (bidi reordering, alignment, boxes),
        // per line: what drawing adds to a layout, with no ICU or HarfBuzz.
        var layouts: [TextLayout] = []
        for (index, measurer) in measurers.enumerated() {
            do { layouts.append(try measurer.layout(width: cases[index].width)) } catch { throw failure(cases[index], error) }
        }
        let lineCount = layouts.reduce(0) { $0 + $1.lines.count }
        // The same layouts timed, per line: each measurer copied out untimed.
        let layout = try medianPerItem(cases.count, reps: reps, input: { (measurers[$0], cases[$0]) }) {
            input throws(CLIError) in
            do { return try input.0.layout(width: input.1.width).lines.count } catch { throw failure(input.1, error) }
        } * Double(cases.count) / Double(max(1, lineCount))
        // Each case's prepared text and layout copied out untimed and lent to the timed
        // call, so that the row times placement alone.
        let place = try medianPerItem(cases.count, reps: reps, input: { (measurers[$0].prepared, layouts[$0]) }) {
            $0.0.placement(of: $0.1).clusters.count
        } * Double(cases.count) / Double(max(1, lineCount))
        let characters = Double((0..<floor.count).reduce(0) { $0 + floor.utf16Count(of: $1) })
        let icu = try medianPerItem(floor.count, reps: reps, floor.breakLines) * Double(cases.count) / characters
        let shaping = try medianPerItem(floor.count, reps: reps, floor.shapeRuns) * Double(cases.count) / characters
        let floorPerCase = (icu + shaping) * characters / Double(cases.count)

        try StandardOutput.writeLine("textmeasure cold cases=\(cases.count) us_per_case=\(format(cold / 1000))")
        try StandardOutput.writeLine("textmeasure warm cases=\(cases.count) us_per_case=\(format(warm / 1000))")
        try StandardOutput.writeLine("textmeasure relayout cases=\(cases.count) widths=\(relayoutScales.count)"
                                     + " us_per_case=\(format(relayout / 1000))")
        try StandardOutput.writeLine("textmeasure layout cases=\(cases.count) lines=\(lineCount) us_per_line=\(format(layout / 1000))")
        try StandardOutput.writeLine("textmeasure place cases=\(cases.count) lines=\(lineCount) us_per_line=\(format(place / 1000))")
        try StandardOutput.writeLine("floor icu_linebreak ns_per_char=\(format(icu))")
        try StandardOutput.writeLine("floor hb_shape_runs ns_per_char=\(format(shaping))")
        try StandardOutput.writeLine("ratio cold/floor=\(format(cold / floorPerCase)) warm/cold=\(format(warm / cold))")
        guard verbose else { return }
        // The same re-measuring, with the lines as `batch` reports them (String.Index ranges and all).
        let relayoutResult = try measurers.withUnsafeBufferPointer { measurers throws(CLIError) in
            try medianPerItem(cases.count, reps: reps) { index throws(CLIError) in
                var lines = 0
                let measurer = measurers[index]
                for scale in relayoutScales {
                    do {
                        lines &+= try cases[index].result(of: measurer, width: cases[index].width * scale).lines
                    } catch {
                        throw failure(cases[index], error)
                    }
                }
                return lines
            }
        } / Double(relayoutScales.count)
        let lookups = (afterWarm.hits - beforeWarm.hits) + (afterWarm.misses - beforeWarm.misses)
        try StandardOutput.writeLine("detail chars_per_case=\(format(characters / Double(cases.count)))"
                                     + " floor_us_per_case=\(format(floorPerCase / 1000))"
                                     + " relayout_result_us_per_case=\(format(relayoutResult / 1000))"
                                     + " warm_lookups=\(lookups) warm_hits=\(afterWarm.hits - beforeWarm.hits) cache_entries=\(afterWarm.count)")
    }

    /// The size of the draft `--edit` types into, in UTF-8 bytes.
    static let draftBytes = 10_000

    /// `bench --edit`: see `help`.
    private static func benchEdits(_ cases: [MeasurementCase], reps: Int) throws(CLIError) {
        // Cases taken in a scattered order, so that the draft's paragraphs mix the scripts.
        var draft = "", paragraphs = 0
        var index = 0
        while draft.utf8.count < draftBytes {
            draft += cases[index].text.replacing("\n", with: " ") + "\n"
            paragraphs += 1
            index = (index + 7919) % cases.count
        }
        let style = TextStyle(fontSize: 17)
        func prepare(_ text: String) throws(CLIError) -> PreparedText {
            do { return try PreparedText(text, style: style) } catch { throw .input("\(error)") }
        }
        let cold = try medianPerItem(1, reps: reps, before: { _ in ShapeCache.shared.removeAll() }) { _ throws(CLIError) in
            try prepare(draft).utf16Count
        }
        let warm = try medianPerItem(1, reps: reps) { _ throws(CLIError) in try prepare(draft).utf16Count }

        // Keystrokes at seeded random places: a letter typed, then deleted again, so
        // that the draft stays the same size.
        var prepared = try prepare(draft)
        var state: UInt64 = 42
        let keystrokes = 200
        let offsets: [Int] = (0..<keystrokes).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            var offset = Int((state >> 33) % UInt64(draft.utf16.count))
            let utf16 = draft.utf16
            while utf16.index(utf16.startIndex, offsetBy: offset).samePosition(in: draft.unicodeScalars) == nil {
                offset -= 1
            }
            return offset
        }
        let edit = try medianPerItem(keystrokes * 2, reps: reps) { index throws(CLIError) in
            let offset = offsets[index / 2]
            let range = index % 2 == 0 ? offset..<offset : offset..<offset + 1
            do {
                prepared = try prepared.replacingCharacters(inUTF16: range, with: index % 2 == 0 ? "e" : "")
            } catch {
                throw .input("\(error)")
            }
            return prepared.utf16Count
        }
        try StandardOutput.writeLine("edit draft_utf16=\(draft.utf16.count) paragraphs=\(paragraphs)"
                                     + " cold_us=\(format(cold / 1000)) warm_us=\(format(warm / 1000))"
                                     + " edit_us=\(format(edit / 1000)) edit/cold=\(format(edit / cold))"
                                     + " edit/warm=\(format(edit / warm))")
    }

    private static func failure(_ testCase: MeasurementCase, _ error: any Error) -> CLIError {
        .input("case \(testCase.id?.description ?? "?"): \(error)")
    }

    /// The mean over `count` items of each item's median time for `body(item)` over
    /// `reps` passes, in ns; `before` runs untimed before each timing.
    private static func medianPerItem(_ count: Int, reps: Int, before: (Int) -> Void = { _ in },
                                      _ body: (Int) throws(CLIError) -> Int) throws(CLIError) -> Double {
        try medianPerItem(count, reps: reps, input: { before($0); return $0 }, body)
    }

    /// The same with `body` given `input(item)`, made untimed and released after the
    /// timing, so that only the work on it is timed.
    private static func medianPerItem<Input>(_ count: Int, reps: Int, input: (Int) -> Input,
                                             _ body: (Input) throws(CLIError) -> Int) throws(CLIError) -> Double {
        var times = [[Double]](repeating: [], count: count)
        var sink = 0
        for _ in 0..<reps {
            for index in 0..<count {
                let value = input(index)
                let start = now()
                sink &+= try body(value)
                times[index].append(now() - start)
                withExtendedLifetime(value) {}
            }
        }
        blackHole(sink)
        return times.reduce(0) { $0 + median($1) } / Double(count)
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
        if value == Int.min { try? StandardOutput.write("") }
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
