import Synchronization

/// Fonts loaded from files, each file read once and then shared: the font store of
/// a batch, a golden file or a server measuring with customers' fonts.
///
/// Fonts are keyed by the file, not the path: every spelling of a path (`./a.ttf`,
/// `dir/../a.ttf`, a symlink, a hard link) shares one font, and a file rewritten or
/// replaced is read again (`FontFileKey`: device, inode, size and times). A file
/// that is no usable font is remembered too, so it is not read again for every case
/// that names it. The cache is bounded: least recently used fonts go once their files
/// add up to more than `byteLimit`, or once it holds more than `entryLimit` files.
///
/// Safe to use from many threads; the lock is held only to look a file up or to
/// store a loaded font, never while loading or measuring.
public final class FontCache: Sendable {
    /// The default `byteLimit`: 512 MiB of font files (two of the largest fonts accepted).
    public static let defaultByteLimit = 512 << 20
    /// The default `entryLimit`: files held, fonts and failures together.
    public static let defaultEntryLimit = 4096
    /// The most font sets kept (each holds a 64 KiB table); least recently used go first.
    public static let setLimit = 256

    /// Fonts are evicted once their files add up to more than this (one font larger
    /// than it is still loaded and used, then evicted at the next load).
    public let byteLimit: Int
    /// Files remembered at most, fonts and failures together.
    public let entryLimit: Int
    /// Faces other than a file's first, variable-font instances, and sets followed by the
    /// embedded fallback (`fontSet(_:embeddedFallback:)`, in FontReferenceStore.swift).
    package let references = FontReferenceStore()

    private struct Entry {
        var font: Result<Font, FontError>
        var bytes: Int
        var lastUse: UInt64
    }

    private struct SetEntry {
        var set: FontSet
        var lastUse: UInt64
    }

    private struct State {
        var entries: [FontFileKey: Entry] = [:]
        /// Sets by the files of their fonts: the same files give the same set, so the
        /// shape cache, which is keyed by set, serves every case that names them.
        var sets: [[FontFileKey]: SetEntry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var loads = 0

        mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }
    }

    private let state = Mutex(State())

    public init(byteLimit: Int = defaultByteLimit, entryLimit: Int = defaultEntryLimit) {
        self.byteLimit = max(0, byteLimit)
        self.entryLimit = max(1, entryLimit)
    }

    /// What the cache holds: fonts, remembered failures, the bytes of the fonts'
    /// files, and how many files it has read in all.
    public var statistics: (fonts: Int, failures: Int, bytes: Int, loads: Int) {
        state.withLock { state in
            let fonts = state.entries.values.count { if case .success = $0.font { true } else { false } }
            return (fonts, state.entries.count - fonts, state.bytes, state.loads)
        }
    }

    /// The font at `path`, loaded on first use of its file.
    public func font(atPath path: String) throws(FontError) -> Font {
        try loaded(path).font
    }

    /// The set of the fonts at `paths`, primary first; the embedded set for no paths.
    /// Made once per list of files, then shared.
    public func fontSet(paths: [String]) throws(FontError) -> FontSet {
        guard !paths.isEmpty else { return .default }
        let keys = try paths.map { path throws(FontError) in try FontFileKey(path: path) }
        if let set = state.withLock({ state -> FontSet? in
            guard let entry = state.sets[keys] else { return nil }
            let now = state.tick()
            state.sets[keys]?.lastUse = now
            return entry.set
        }) { return set }
        var fonts: [Font] = [], loadedKeys: [FontFileKey] = []
        for path in paths {
            let (font, key) = try loaded(path)
            fonts.append(font)
            loadedKeys.append(key)
        }
        let set = try FontSet(fonts)
        return state.withLock { state in
            // Unless a font was evicted meanwhile, in which case the set would hold it alive unseen.
            guard loadedKeys.allSatisfy({ state.entries[$0] != nil }) else { return set }
            if let existing = state.sets[loadedKeys] { return existing.set }   // another thread won the race
            state.sets[loadedKeys] = SetEntry(set: set, lastUse: state.tick())
            if state.sets.count > Self.setLimit, let oldest = state.sets.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.sets[oldest.key] = nil
            }
            return set
        }
    }

    /// The font of the file at `path` and the file's key: from the cache, or read now.
    private func loaded(_ path: String) throws(FontError) -> (font: Font, key: FontFileKey) {
        let key = try FontFileKey(path: path)
        if let known = state.withLock({ state -> Result<Font, FontError>? in
            guard let entry = state.entries[key] else { return nil }
            let now = state.tick()
            state.entries[key]?.lastUse = now
            return entry.font
        }) { return (try known.get(), key) }

        // Keyed by what was opened, which is what was read, even if the path changed since.
        let file = try FontFile(path: path)
        let fileKey = file.key
        let font: Result<Font, FontError>
        do {
            font = .success(try Font(file: file, faceIndex: 0, variations: [:]))
        } catch {
            switch error {
            // Opening or reading failed: nothing is known about the contents.
            case .fileNotFound, .unreadable: throw error
            default: font = .failure(error)
            }
        }
        let stored = state.withLock { state in
            state.loads += 1
            if let existing = state.entries[fileKey] { return existing.font }   // another thread won the race
            let bytes = if case .success = font { fileKey.size } else { 0 }
            state.entries[fileKey] = Entry(font: font, bytes: bytes, lastUse: state.tick())
            state.bytes += bytes
            evict(&state, keeping: fileKey)
            return font
        }
        return (try stored.get(), fileKey)
    }

    /// Drops least recently used files, and the sets holding their fonts, until the
    /// cache is within its limits; `keeping` (just loaded) stays.
    private func evict(_ state: inout State, keeping: FontFileKey) {
        while state.bytes > byteLimit || state.entries.count > entryLimit {
            guard let oldest = state.entries.lazy.filter({ $0.key != keeping })
                .min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
            state.entries[oldest.key] = nil
            state.bytes -= oldest.value.bytes
            state.sets = state.sets.filter { !$0.key.contains(oldest.key) }
        }
    }
}
