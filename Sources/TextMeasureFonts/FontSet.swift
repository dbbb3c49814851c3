import CTextMeasureFonts
import Synchronization

/// An ordered fallback list of fonts: the first is the primary font, and each
/// grapheme cluster is drawn with the first font in the list that covers it.
///
/// ```swift
/// let fonts = try FontSet([Font(contentsOfFile: "Inter.ttf")] + FontSet.default.fonts)
/// ```
public struct FontSet: Sendable {
    /// The most fonts one set may hold: fonts used on a line are tracked in a 64-bit mask.
    public static let maximumCount = 64

    /// The fonts in fallback order; `fonts[0]` is the primary font.
    @inlinable public var fonts: [Font] { storage.fonts }

    /// The primary font: its metrics set the line height of every line.
    @inlinable public var primary: Font { storage.fonts[0] }

    /// Tells this set apart from every other in `ShapeCache` keys (copies share it).
    @inlinable package var identity: UInt64 { storage.identity }
    /// For each BMP code point, the index of the first font of the set that draws it
    /// without .notdef (`Font.drawsWithoutNotdef`), or 0 when none does: the font of
    /// a one-code-point cluster, in one load.
    package var bmpFonts: [UInt8] { storage.bmpFonts }
    /// True when the font that draws spaces uses the space glyph in none of its
    /// OpenType lookups: text on either side of a space then shapes the same alone
    /// as together, so words between spaces can be cached (see `ShapeCache`).
    @inlinable package var spacesSeparateShaping: Bool { storage.spacesSeparateShaping }
    /// For each BMP code point, `ClusterContext` bits: whether it is a letter this set
    /// shapes the same whatever its neighbours, whether it joins its neighbours'
    /// clusters, and the font tag of a letter shaped without context. A break between
    /// two context-free letters, or two letters of different font tags, is as safe as one
    /// after a space (`Stretch.isSafeBreak`), so Chinese, Japanese and Korean can be cached.
    @inlinable package var clusterContexts: [UInt8] { storage.clusterContexts }
    /// For each BMP code point, the glyph and advance HarfBuzz gives it in horizontal
    /// text whatever its neighbours, when it is a grapheme cluster by itself
    /// (`NominalGlyph`; 0 for the others, and empty when no code point has one): its
    /// nominal glyph in the font the set draws it with, which no lookup (but vertical
    /// ones) and no kerning pair names. Shaping writes those directly and calls
    /// HarfBuzz only for the text between them (`Shaper.shape(_:of:clusterEnds:…)`).
    @inlinable package var nominalGlyphs: [UInt32] { storage.nominalGlyphs }
    /// The ellipsis and line boxes of each style the set is used with.
    package var styleMeasures: StyleMeasures { storage.styleMeasures }
    /// Whether some font of the set has `halt`: only then can punctuation be trimmed
    /// (`TextStyle.textSpacingTrim`), and preparation looks for it.
    package var trimsPunctuation: Bool { storage.trimsPunctuation }
    /// `isDrawnOrIgnorable` for the ASCII code points, bit v of the 128: the answer
    /// for most of most texts in one test.
    @inlinable package var drawnASCII: (low: UInt64, high: UInt64) { storage.drawnASCII }

    /// Whether some font of the set draws `scalar` without .notdef, or it draws
    /// nothing (a tab, a control, a joiner or another default-ignorable).
    package func isDrawnOrIgnorable(_ scalar: UInt32) -> Bool {
        // The storage's arrays, borrowed: the getters would retain each.
        Self.isDrawnOrIgnorable(scalar, fonts: storage.fonts, bmpFonts: storage.bmpFonts)
    }

    private static func isDrawnOrIgnorable(_ scalar: UInt32, fonts: [Font], bmpFonts: [UInt8]) -> Bool {
        // Cheapest answers first. The table gives 0 both for the primary font and for
        // no font: the primary's map tells.
        if scalar < 0x10000, bmpFonts[Int(scalar)] != 0 { return true }
        if fonts[0].coverage.contains(scalar) { return true }
        if scalar == 0x09 || Scalars.isCoverageIgnorable(scalar) { return true }   // controls included
        // Every font's map before any font's other ways (a decomposition asks HarfBuzz,
        // per font): an emoji is in the last font's map, and the answer is the same.
        return fonts.contains { $0.coverage.contains(scalar) } || fonts.contains { $0.drawsWithoutNotdef(scalar) }
    }

    /// What a set holds, behind one reference: a set is copied into each text
    /// prepared with it and into the stages preparing it, and a copy then retains one
    /// object rather than each of its arrays (a share of preparing a short text).
    /// The accessors above are inlined so that the stages after Fonts, which read
    /// them per stretch and per run, read the fields in place: through a call, each
    /// array read was retained and released again.
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let fonts: [Font]
        @usableFromInline let identity: UInt64
        @usableFromInline let bmpFonts: [UInt8]
        @usableFromInline let spacesSeparateShaping: Bool
        @usableFromInline let clusterContexts: [UInt8]
        @usableFromInline let nominalGlyphs: [UInt32]
        let styleMeasures = StyleMeasures()
        @usableFromInline let drawnASCII: (low: UInt64, high: UInt64)
        /// Whether a font of the set has an `opsz` axis that follows the font size.
        let followsFontSize: Bool
        let trimsPunctuation: Bool
        /// For a set of instances at a font size, the set they are instances of.
        let origin: FontSet?
        /// For a set others are instances of, their identity at each size (its bit
        /// pattern): a set of instances made again, after the table of them was emptied,
        /// is then the same set to the shape cache and to whoever compares identities.
        let instanceIdentities = Mutex<[UInt64: UInt64]>([:])

        init(fonts: [Font], identity: UInt64, bmpFonts: [UInt8], spacesSeparateShaping: Bool, origin: FontSet? = nil) {
            self.fonts = fonts
            self.identity = identity
            self.bmpFonts = bmpFonts
            self.spacesSeparateShaping = spacesSeparateShaping
            self.origin = origin
            followsFontSize = fonts.contains { $0.opticalSizeAxis != nil }
            trimsPunctuation = fonts.contains { $0.halfWidthPunctuation != nil }
            (clusterContexts, nominalGlyphs) = fonts.isEmpty ? ([], []) : ClusterContext.tables(fonts: fonts, bmpFonts: bmpFonts)
            var drawn: (low: UInt64, high: UInt64) = (0, 0)
            for scalar in UInt32(0)..<128 where !fonts.isEmpty
                && FontSet.isDrawnOrIgnorable(scalar, fonts: fonts, bmpFonts: bmpFonts) {
                if scalar < 64 { drawn.low |= 1 << UInt64(scalar) } else { drawn.high |= 1 << UInt64(scalar - 64) }
            }
            drawnASCII = drawn
        }
    }

    @usableFromInline let storage: Storage

    private static let identities = Atomic<UInt64>(0)

    /// The set text in `style` is drawn with: its fonts as Chromium instances them for
    /// the style. A variable font whose `opsz` axis it was not loaded with follows the
    /// font size (CSS `font-optical-sizing: auto`, `TextStyle.opticalSizing`): `opsz`
    /// is the size in px, clamped to the axis. The set itself when none of its fonts
    /// has such an axis, or with `.none`; each set of instances is made once per set
    /// and size, then shared, like the set (the shape cache is keyed by set).
    public func instances(for style: TextStyle) -> FontSet {
        guard storage.followsFontSize else { return self }
        return Self.instances(of: storage.origin ?? self, opticalSizing: style.opticalSizing, size: style.fontSize)
    }

    private struct InstanceKey: Hashable {
        var origin: UInt64
        var size: UInt64
    }

    /// Sets of instances by origin and size; emptied when full (an origin's sets are
    /// made again, the same, with the same identities). Room for a few hundred: a page
    /// of sizes times a few font sets.
    private static let instanced = Mutex<[InstanceKey: FontSet]>([:])
    private static let instanceLimit = 256

    private static func instances(of origin: FontSet, opticalSizing: OpticalSizing, size: Double) -> FontSet {
        guard opticalSizing == .auto else { return origin }
        let key = InstanceKey(origin: origin.identity, size: size.bitPattern)
        if let set = instanced.withLock({ $0[key] }) { return set }
        let fonts = origin.fonts.map { $0.instance(opticalSize: size) }
        let set = zip(fonts, origin.fonts).contains { $0 !== $1 }
            ? FontSet(instances: fonts, of: origin, size: size) : origin
        return instanced.withLock { table in
            if let kept = table[key] { return kept }   // another thread made it first
            if table.count >= instanceLimit { table.removeAll() }
            table[key] = set
            return set
        }
    }

    /// Instances of `origin`'s fonts: the same faces, so which font draws what (and
    /// whether spaces take part in lookups) is the origin's; advances are their own.
    private init(instances fonts: [Font], of origin: FontSet, size: Double) {
        let identity = origin.storage.instanceIdentities.withLock { identities in
            if let known = identities[size.bitPattern] { return known }
            let made = Self.identities.wrappingAdd(1, ordering: .relaxed).newValue
            identities[size.bitPattern] = made
            return made
        }
        storage = Storage(fonts: fonts, identity: identity,
                          bmpFonts: origin.bmpFonts, spacesSeparateShaping: origin.spacesSeparateShaping,
                          origin: origin)
    }

    /// Creates a set from fonts in fallback order.
    ///
    /// Creating a set costs well under a millisecond (a table of which font
    /// draws each BMP code point, and a scan of one font's OpenType lookups): create
    /// a set once and reuse it (it is also what the shape cache is keyed by).
    public init(_ fonts: [Font]) throws(FontError) {
        guard !fonts.isEmpty else { throw .emptyFontSet }
        guard fonts.count <= Self.maximumCount else { throw .tooManyFonts(count: fonts.count) }
        self.init(validated: fonts)
    }

    /// Loads a set from font files, primary first.
    public init(contentsOfFiles paths: [String]) throws(FontError) {
        var fonts: [Font] = []
        for path in paths { fonts.append(try Font(contentsOfFile: path)) }
        try self.init(fonts)
    }

    /// The embedded default set, compiled into the library: Noto Sans, then Noto Sans
    /// Arabic, Hebrew, Devanagari and Thai, Droid Sans Fallback (CJK), NanumSquare
    /// (Hangul) and Noto Color Emoji. It needs no font configuration on the machine.
    ///
    /// Loaded once, on first use, and shared. Built without the `EmbeddedFonts` trait,
    /// the library has no fonts of its own: this set is then empty, and preparing text
    /// with it throws `TextMeasureError.noFonts`.
    public static var `default`: FontSet { embedded }

    /// The file names of the embedded fonts, in fallback order.
    public static var embeddedFontNames: [String] {
        (0..<ctmf_font_count()).map { String(cString: ctmf_font_at($0).name) }
    }

    private static let embedded: FontSet = {
        var fonts: [Font] = []
        for index in 0..<ctmf_font_count() {
            let entry = ctmf_font_at(index)
            let data = UnsafeRawBufferPointer(start: entry.bytes, count: entry.size)
            // The embedded fonts are fixed at build time and checked by the tests;
            // one that failed to load would be a build defect, not a user error.
            if let font = try? Font(staticData: data, name: String(cString: entry.name)) {
                fonts.append(font)
            }
        }
        return fonts.isEmpty ? FontSet(empty: ()) : FontSet(validated: fonts)
    }()

    /// The set of a build without embedded fonts; nothing can be measured with it.
    private init(empty: Void) {
        storage = Storage(fonts: [], identity: 0, bmpFonts: [], spacesSeparateShaping: false)
    }

    private static func firstCoveringFonts(_ fonts: [Font]) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 0x10000)
        table.withUnsafeMutableBufferPointer { table in
            for block in 0..<(0x10000 / 64) {
                // Code points no earlier font covers; font 0's are already 0.
                var open = ~fonts[0].coverage.word(block)
                for index in 1..<fonts.count where open != 0 {
                    var first = fonts[index].coverage.word(block) & open
                    open &= ~first
                    while first != 0 {
                        table[block * 64 + first.trailingZeroBitCount] = UInt8(index)
                        first &= first - 1
                    }
                }
            }
            includeDrawnBeyondCharacterMaps(table, fonts: fonts)
        }
        return table
    }

    private init(validated fonts: [Font]) {
        // A space is drawn by the first font that covers it (see FontItemizer).
        let spaceFont = fonts.first { $0.coverage.contains(0x20) } ?? fonts[0]
        storage = Storage(fonts: fonts, identity: Self.identities.wrappingAdd(1, ordering: .relaxed).newValue,
                          bmpFonts: Self.firstCoveringFonts(fonts), spacesSeparateShaping: !spaceFont.usesSpaceInLookups)
    }
}
