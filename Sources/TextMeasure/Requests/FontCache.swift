import Synchronization

/// Fonts loaded from files, each path read once and then shared: the font store of
/// a batch, a golden file or a server measuring with customers' fonts.
///
/// Safe to use from many threads; the lock is held only to look a path up or to
/// store a loaded font, never while measuring.
public final class FontCache: Sendable {
    private let fonts = Mutex<[String: Font]>([:])

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
    public func fontSet(paths: [String]) throws(FontError) -> FontSet {
        guard !paths.isEmpty else { return .default }
        var set: [Font] = []
        for path in paths { set.append(try font(atPath: path)) }
        return try FontSet(set)
    }
}
