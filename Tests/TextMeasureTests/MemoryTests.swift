#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TextMeasure

/// Long runs keep a flat memory profile: nothing a measurement allocates (ICU,
/// HarfBuzz and FreeType objects included) outlives it. LeakSanitizer checks the same
/// object by object under `scripts/test-sanitizers address`.
@Suite(.serialized) struct MemoryTests {
    /// Under AddressSanitizer the resident set is not a measure of leaks (freed memory
    /// waits in a quarantine): the runs are shorter and LeakSanitizer does the checking.
    static let underAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// Resident set size of this process, from /proc (nil where there is none).
    static func residentBytes() -> Int? {
        guard let statm = readTextFile("/proc/self/statm") else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Runs `count` iterations of `body`, and returns how much the resident set grew
    /// between the end of the first tenth (caches, allocator pools and the like are
    /// warm by then) and the end.
    static func growthAfterWarmUp(count: Int, _ body: (Int) throws -> Void) rethrows -> (growth: Int, warm: Int)? {
        var warm: Int?
        for i in 0..<count {
            try body(i)
            if i == count / 10 { warm = residentBytes() }
        }
        guard let warm, let end = residentBytes() else { return nil }
        return (end - warm, warm)
    }

    /// The number of batch cases: 20,000 by default, TEXTMEASURE_MEMORY_CASES to change it
    /// (the README's 100,000-case figure is a release run of this test).
    static var caseCount: Int {
        getenv("TEXTMEASURE_MEMORY_CASES").flatMap { Int(String(cString: $0)) } ?? (underAddressSanitizer ? 2000 : 20_000)
    }

    @Test func batchOfManyCasesHasFlatMemory() throws {
        let paragraphs = try ConcurrencyTests.paragraphs(budget: 3000)
        let fontsDirectory = FontFiles.packageRoot + "/Fonts/"
        let fontChoices: [[String]?] = [nil, [fontsDirectory + "NotoSans-Regular.ttf"],
                                        [fontsDirectory + "NotoSansThai-Regular.ttf", fontsDirectory + "NotoSans-Regular.ttf"]]
        let cache = FontCache()
        var generator = SplitMix64(seed: 7)
        var lines = 0
        let count = Self.caseCount
        let result = try Self.growthAfterWarmUp(count: count) { i in
            let paragraph = paragraphs[Int(generator.next() % UInt64(paragraphs.count))]
            let length = 1 + Int(generator.next() % 400)
            let text = String(paragraph.prefix(length))
            let measurementCase = MeasurementCase(id: .integer(i), text: text, fonts: fontChoices[i % fontChoices.count],
                                                  size: [13, 17, 24][i % 3], width: Double(60 + generator.next() % 700))
            lines += try measurementCase.measure(fonts: cache).lines
        }
        let (growth, warm) = try #require(result)
        print("MemoryTests: \(count) cases, \(lines) lines, resident \(warm >> 20) MiB after warm-up, grew \(growth >> 10) KiB")
        #expect(lines > count)
        #expect(growth < 8 << 20 || Self.underAddressSanitizer, "resident set grew \(growth >> 10) KiB over \(count * 9 / 10) cases")
    }

    @Test func loadingAndDroppingFontsHasFlatMemory() throws {
        // Each load copies the file and builds a 136 KiB coverage set: a leak of either
        // over 500 loads would be 80+ MiB.
        let bytes = try #require(FontFiles.bytes("NotoSansThai-Regular.ttf"))
        let result = try Self.growthAfterWarmUp(count: 500) { _ in
            let font = try Font(bytes: bytes, name: "thai")
            _ = try PreparedText("สวัสดี", fonts: FontSet([font])).layout(width: 100)
        }
        let (growth, _) = try #require(result)
        #expect(growth < 8 << 20 || Self.underAddressSanitizer, "resident set grew \(growth >> 10) KiB over 450 font loads")
    }
}
