import Testing
import TextMeasure

/// Many tasks measuring at once get exactly the serial answers: fonts, font sets,
/// prepared texts and the per-thread ICU iterators are shared or isolated as
/// documented. `scripts/test-sanitizers` runs this suite under ThreadSanitizer.
@Suite struct ConcurrencyTests {
    static let widths: [Double] = [150, 390, 700]

    /// Paragraphs of each fixture text (about `budget` UTF-16 units of each script, or
    /// all of it), then paragraphs that mix every script, so that one text uses many
    /// fallback fonts.
    static func paragraphs(budget: Int = 6000) throws -> [String] {
        var perScript: [[String]] = []
        for name in FixtureTexts.names {
            var taken: [String] = [], units = 0
            for paragraph in try FixtureTexts.paragraphs(name) where units < budget {
                taken.append(paragraph)
                units += paragraph.utf16.count
            }
            perScript.append(taken)
        }
        let mixed = (0..<8).map { i in perScript.map { $0[i % $0.count].prefix(80) }.joined(separator: " ") }
        return perScript.flatMap { $0 } + mixed
    }

    struct Result: Equatable, Sendable {
        var lineStarts: [Int]
        var lineWidths: [Double]
        var height: Double
        var size: Size?
    }

    static func measure(_ text: String, fonts: FontSet = .default) throws -> [Result] {
        let measurer = try TextMeasurer(text: text, fonts: fonts, container: .textView)
        return try widths.map { width in
            let layout = try measurer.layout(width: width)
            return Result(lineStarts: layout.lines.map(\.utf16Range.lowerBound), lineWidths: layout.lines.map(\.width),
                          height: layout.height, size: measurer.sizeThatFits(ProposedSize(width: width)))
        }
    }

    @Test func concurrentPreparationEqualsSerial() async throws {
        let texts = try Self.paragraphs()
        let serial = try texts.map { try Self.measure($0) }
        let taskCount = 8
        // Each task measures every text, starting at a different one, so that the same
        // texts are in flight on different threads at the same moment.
        let concurrent = try await withThrowingTaskGroup(of: (Int, [[Result]]).self) { group in
            for task in 0..<taskCount {
                group.addTask {
                    var results = [[Result]](repeating: [], count: texts.count)
                    for step in texts.indices {
                        let index = (step + task * texts.count / taskCount) % texts.count
                        results[index] = try Self.measure(texts[index])
                    }
                    return (task, results)
                }
            }
            var all: [[[Result]]] = Array(repeating: [], count: taskCount)
            for try await (task, results) in group { all[task] = results }
            return all
        }
        #expect(concurrent.count == taskCount)
        for (task, results) in concurrent.enumerated() {
            for index in texts.indices where results[index] != serial[index] {
                Issue.record("task \(task): text \(index) differs from the serial result")
            }
        }
        #expect(serial.contains { $0[1].lineStarts.count > 3 })   // real paragraphs, wrapped
    }

    @Test func sharedPreparedTextLaysOutConcurrently() async throws {
        let texts = try Self.paragraphs(budget: 2000)
        let prepared = try PreparedText(texts.joined(separator: "\n"))
        let widths = stride(from: 40.0, through: 800, by: 7.5).map { $0 }
        let serial = try widths.map { try prepared.layout(width: $0).lines.map(\.utf16Range) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for (i, width) in widths.enumerated().reversed() where i % 8 != task {
                        let lines = try prepared.layout(width: width).lines.map(\.utf16Range)
                        #expect(lines == serial[i], "width \(width)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Fonts loaded at the same time, through one cache and from bytes, measure alike.
    @Test func concurrentFontLoading() async throws {
        let root = packageRoot + "/Fonts/"
        let paths = ["NotoSans-Regular.ttf", "NotoSansHebrew-Regular.ttf", "NotoSansThai-Regular.ttf",
                     "NotoSansArabic-Regular.ttf"].map { root + $0 }
        let text = "Hello שלום สวัสดี مرحبا"
        let expected = try Self.measure(text, fonts: FontSet(contentsOfFiles: paths))
        let cache = FontCache()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let fonts = task.isMultiple(of: 2)
                        ? try cache.fontSet(paths: paths)
                        : try FontSet(paths.map { try Font(bytes: #require(readBytes($0))) })
                    #expect(try Self.measure(text, fonts: fonts) == expected)
                }
            }
            try await group.waitForAll()
        }
        // The cache loaded each file once: every task got the same instances.
        let first = try cache.fontSet(paths: paths).fonts
        #expect(zip(first, try cache.fontSet(paths: paths).fonts).allSatisfy { $0 === $1 })
    }
}
