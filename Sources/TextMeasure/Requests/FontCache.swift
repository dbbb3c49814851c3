import Synchronization

/// Fonts loaded from files, each path read once and then shared: the font store of
/// a batch, a golden file or a server measuring with customers' fonts.
///
/// Safe to use from many threads; the lock is held only to look a path up or to
/// store a loaded font, never while measuring.
public final class FontCache: Sendable {
    private let fonts = Mutex<[String: Font]>([:])
    /// Sets by their paths: the same paths give the same set, so the shape cache,
    /// which is keyed by set, serves every case that names them.
    private let sets = Mutex<[[String]: FontSet]>([:])

    public init() {}

    /// The font at `path`, loaded on first use.
    public func font(atPath path: String) throws(FontError) -> Font {
        if let font = fonts.withLock({ $0[path] }) { return font }
        let font = try Font(contentsOfFile: path)
        return fonts.withLock { cache in
            if let existing = cache[path] { return existing }   // another thread won the race
            cache[path] = font
            return font
        }
    }

    /// The set of the fonts at `paths`, primary first; the embedded set for no paths.
    /// Made once per list of paths, then shared.
    public func fontSet(paths: [String]) throws(FontError) -> FontSet {
        guard !paths.isEmpty else { return .default }
        if let set = sets.withLock({ $0[paths] }) { return set }
        var fonts: [Font] = []
        for path in paths { fonts.append(try font(atPath: path)) }
        let set = try FontSet(fonts)
        return sets.withLock { sets in
            if let existing = sets[paths] { return existing }   // another thread won the race
            sets[paths] = set
            return set
        }
    }

    /// Faces other than a file's first, variable-font instances, and sets followed by the
    /// embedded fallback (`fontSet(_:embeddedFallback:)`, in FontReferences.swift).
    let references = FontReferenceStore()
}
