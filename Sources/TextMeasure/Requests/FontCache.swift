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

    /// Faces other than a file's default instance (a collection's other faces, a
    /// variable font's instances), by reference: each loaded once.
    private let faces = Mutex<[FontReference: Font]>([:])
    /// Sets by their references and whether the embedded set follows.
    private let referenceSets = Mutex<[ReferenceSetKey: FontSet]>([:])

    private struct ReferenceSetKey: Hashable {
        var fonts: [FontReference]
        var embeddedFallback: Bool
    }

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

    /// The font `reference` names, loaded on first use; a plain path shares `font(atPath:)`'s cache.
    public func font(_ reference: FontReference) throws(FontError) -> Font {
        guard reference.index != 0 || !reference.variations.isEmpty else { return try font(atPath: reference.path) }
        if let font = faces.withLock({ $0[reference] }) { return font }
        let font = try Font(contentsOfFile: reference.path, faceIndex: reference.index, variations: reference.variations)
        return faces.withLock { cache in
            if let existing = cache[reference] { return existing }   // another thread won the race
            cache[reference] = font
            return font
        }
    }

    /// The set of the fonts `references` name, primary first, followed by the embedded
    /// set when `embeddedFallback` is true (as a browser falls back to the system's
    /// fonts: what the named fonts lack is drawn rather than shown as .notdef boxes).
    /// No references give the embedded set. Made once per list, then shared.
    public func fontSet(_ references: [FontReference], embeddedFallback: Bool) throws(FontError) -> FontSet {
        guard !references.isEmpty else { return .default }
        let key = ReferenceSetKey(fonts: references, embeddedFallback: embeddedFallback)
        if let set = referenceSets.withLock({ $0[key] }) { return set }
        var fonts: [Font] = []
        for reference in references { fonts.append(try font(reference)) }
        if embeddedFallback { fonts += FontSet.default.fonts }
        let set = try FontSet(fonts)
        return referenceSets.withLock { sets in
            if let existing = sets[key] { return existing }   // another thread won the race
            sets[key] = set
            return set
        }
    }
}
