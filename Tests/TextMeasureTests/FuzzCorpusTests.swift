#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TextMeasure

/// The fuzz targets' checks (`Fuzz/Sources/FuzzSupport`, linked into this test target
/// as `Fuzz*.swift`) over the checked-in corpus `Fuzz/Corpus`, so that `swift test`
/// runs them without libFuzzer: every seed, and every text seed again in each
/// line-break mode at a few widths (byte 7 of the header is the mode, bytes 1-2 the width).
@Suite struct FuzzCorpusTests {
    static let corpus = packageRoot + "/Fuzz/Corpus/"

    /// The files of a corpus folder, by name.
    static func inputs(_ folder: String) -> [(name: String, bytes: [UInt8])] {
        guard let directory = opendir(corpus + folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().compactMap { name in readBytes(corpus + folder + "/" + name).map { (name, $0) } }
    }

    @Test func textSeedsSatisfyTheInvariantsInEveryMode() throws {
        let seeds = Self.inputs("text")
        #expect(seeds.count >= 20, "the corpus is missing: \(Self.corpus)")
        for (name, bytes) in seeds {
            try #require(bytes.count >= 8, "\(name) has no header")
            do {
                try TextFuzzing.check(bytes)
                for mode in 0..<LineBreakMode.allCases.count {
                    for width: UInt16 in [4 * 16, 57 * 16 + 5, 180 * 16] {
                        var variant = bytes
                        variant[1] = UInt8(width >> 8)
                        variant[2] = UInt8(width & 0xFF)
                        variant[7] = variant[7] & 0b1111_1000 | UInt8(mode)
                        try TextFuzzing.check(variant)
                    }
                }
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }

    @Test func fontSeedsSatisfyTheInvariants() throws {
        let seeds = Self.inputs("font")
        #expect(seeds.count >= 5, "the corpus is missing: \(Self.corpus)")
        for (name, bytes) in seeds {
            do { try FontFuzzing.check(bytes) } catch { Issue.record("\(name): \(error)") }
        }
    }
}
