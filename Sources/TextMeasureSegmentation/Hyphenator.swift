import CHyphen
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Hyphenation points of words in one language, from a libhyphen pattern file
/// (Debian's `hyphen-*` packages, `/usr/share/hyphen/hyph_<lang>_<REGION>.dic`).
/// Loaded once per file and kept: the patterns are read-only after loading, so
/// threads share them.
package final class Hyphenator: @unchecked Sendable {   // the HyphenDict is never written after loading
    /// CSS's default `hyphenate-limit-chars`: a word of at least 5 characters, at least
    /// 2 before a break and 2 after it.
    package static let minimumWord = 5, minimumBefore = 2, minimumAfter = 2
    /// Where Debian installs the patterns.
    package static let directory = "/usr/share/hyphen"

    private let dictionary: UnsafeMutablePointer<HyphenDict>
    /// The patterns' charset (their file's first line): UTF-8, or ISO 8859-1 (German).
    private let isUTF8: Bool

    private init(dictionary: UnsafeMutablePointer<HyphenDict>, isUTF8: Bool) {
        self.dictionary = dictionary
        self.isUTF8 = isUTF8
    }

    deinit { hnj_hyphen_free(dictionary) }

    private static let loaded = Mutex<[String: Hyphenator?]>([:])

    /// The hyphenator for a BCP 47 tag (`en-US`, `de`, `fr-CA`): the region's patterns,
    /// else the language's; nil when none is installed.
    ///
    /// - Throws: `TextMeasureError.invalidLanguage` for a tag that is not BCP 47.
    package static func forLanguage(_ tag: String) throws(TextMeasureError) -> Hyphenator? {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }),
              subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { throw .invalidLanguage(tag) }
        let base = language.lowercased()
        let region = subtags.dropFirst().first { $0.count == 2 && $0.allSatisfy(\.isLetter) }?.uppercased()
        let names = (region.map { ["hyph_\(base)_\($0).dic"] } ?? []) + ["hyph_\(base).dic"]
        return loaded.withLock { loaded in
            for name in names {
                if let known = loaded[name] { return known }
                let path = directory + "/" + name
                guard let dictionary = hnj_hyphen_load(path) else { continue }
                let hyphenator = Hyphenator(dictionary: dictionary, isUTF8: Self.charsetIsUTF8(path))
                loaded[name] = hyphenator
                return hyphenator
            }
            return nil
        }
    }

    private static func charsetIsUTF8(_ path: String) -> Bool {
        guard let file = fopen(path, "r") else { return true }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, Int32(line.count), file) != nil else { return true }
        let charset = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return charset.uppercased().hasPrefix("UTF-8")
    }

    /// The hyphenation points of `word` (lowercase letters), as counts of its scalars
    /// before each, within CSS's default limits.
    package func points(in word: [Unicode.Scalar]) -> [Int] {
        guard word.count >= Self.minimumWord else { return [] }
        var bytes: [CChar] = []
        var scalarOfByte: [Int] = []   // for each byte, the index of the scalar it belongs to
        for (index, scalar) in word.enumerated() {
            if isUTF8 {
                for unit in String(scalar).utf8 {
                    bytes.append(CChar(bitPattern: unit))
                    scalarOfByte.append(index)
                }
            } else {
                guard scalar.value < 0x100 else { return [] }   // no such letter in the patterns
                bytes.append(CChar(bitPattern: UInt8(scalar.value)))
                scalarOfByte.append(index)
            }
        }
        var hyphens = [CChar](repeating: 0, count: bytes.count + 5)
        // libhyphen allocates these for patterns that change the spelling at a break
        // (German "Schiff=fahrt"); such breaks are left out, so only freed here.
        var replacements: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        var positions: UnsafeMutablePointer<Int32>? = nil, cuts: UnsafeMutablePointer<Int32>? = nil
        let status = hnj_hyphen_hyphenate2(dictionary, bytes, Int32(bytes.count), &hyphens, nil, &replacements,
                                           &positions, &cuts)
        defer {
            if let replacements {
                for byte in bytes.indices { free(replacements[byte]) }
                free(replacements)
            }
            free(positions)
            free(cuts)
        }
        guard status == 0 else { return [] }
        var points: [Int] = []
        for byte in bytes.indices where hyphens[byte] & 1 == 1 && replacements?[byte] == nil {
            // An odd value after a byte: a break after the scalar that byte ends.
            guard byte + 1 == bytes.count || scalarOfByte[byte + 1] != scalarOfByte[byte] else { continue }
            let before = scalarOfByte[byte] + 1
            if before >= Self.minimumBefore, word.count - before >= Self.minimumAfter { points.append(before) }
        }
        return points
    }
}

extension Boundaries {
    /// `breaks` with the hyphenation points of each word of `text` (of `range` in it,
    /// the whole text by default) added (marked as such), for words of letters without
    /// a soft hyphen.
    package static func addingHyphenationPoints(to breaks: [BreakOpportunity], in text: UnsafeBufferPointer<UInt16>,
                                        within range: Range<Int>? = nil,
                                        hyphenator: Hyphenator) -> [BreakOpportunity] {
        var points: [Int] = []
        var word: [Unicode.Scalar] = [], offsets: [Int] = []   // the word's scalars and where each ends
        func flush() {
            defer { word.removeAll(keepingCapacity: true); offsets.removeAll(keepingCapacity: true) }
            for point in hyphenator.points(in: word) { points.append(offsets[point - 1]) }
        }
        let range = range ?? 0..<text.count
        var index = range.lowerBound
        var hasSoftHyphen = false
        while index < range.upperBound {
            let (value, length) = Scalars.decode(text, at: index)
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            if value == UInt32(LineBreakOptions.softHyphen) { hasSoftHyphen = true }
            if scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark {
                word.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                while offsets.count < word.count { offsets.append(index + length) }
            } else if value != UInt32(LineBreakOptions.softHyphen) {
                if !hasSoftHyphen { flush() } else { word.removeAll(keepingCapacity: true); offsets.removeAll(keepingCapacity: true) }
                hasSoftHyphen = false
            }
            index += length
        }
        if !hasSoftHyphen { flush() }
        guard !points.isEmpty else { return breaks }
        var merged: [BreakOpportunity] = []
        merged.reserveCapacity(breaks.count + points.count)
        var next = 0
        for point in points {
            while next < breaks.count, breaks[next].utf16Offset < point {
                merged.append(breaks[next])
                next += 1
            }
            if next < breaks.count, breaks[next].utf16Offset == point { continue }
            var opportunity = BreakOpportunity(utf16Offset: point, isMandatory: false)
            opportunity.isHyphenation = true
            merged.append(opportunity)
        }
        merged.append(contentsOf: breaks[next...])
        return merged
    }
}
