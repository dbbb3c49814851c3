import Synchronization

extension FontCache {
    /// The font `reference` names, loaded on first use. A plain path (face 0, no
    /// variations) is `font(atPath:)`; other faces and instances are kept apart by
    /// their index and axis values, so two instances of one file never share a font.
    public func font(_ reference: FontReference) throws(FontError) -> Font {
        guard reference.index != 0 || !reference.variations.isEmpty else { return try font(atPath: reference.path) }
        if let font = references.face(reference) { return font }
        return references.store(try Font(contentsOfFile: reference.path, faceIndex: reference.index,
                                         variations: reference.variations), for: reference)
    }

    /// The set of the fonts `references` name, primary first, followed by the embedded
    /// set when `embeddedFallback` is true (as a browser falls back to the system's
    /// fonts: what the named fonts lack is drawn rather than shown as .notdef boxes).
    /// No references give the embedded set. Made once per list, then shared, so the
    /// shape cache (keyed by set) serves every case that names the same fonts.
    public func fontSet(_ references: [FontReference], embeddedFallback: Bool) throws(FontError) -> FontSet {
        guard !references.isEmpty else { return .default }
        let key = FontReferenceStore.SetKey(fonts: references, embeddedFallback: embeddedFallback)
        if let set = self.references.set(key) { return set }
        var fonts: [Font] = []
        for reference in references { fonts.append(try font(reference)) }
        if embeddedFallback { fonts += FontSet.default.fonts }
        return self.references.store(try FontSet(fonts), for: key)
    }
}

/// What a `FontCache` keeps for `FontReference`s: faces and instances by reference, and
/// sets by their references and fallback, each bounded (least recently used go first).
package final class FontReferenceStore: Sendable {
    /// The most faces and instances kept.
    static let faceLimit = 256
    /// The most sets kept (each holds a 64 KiB table).
    static let setLimit = 256

    struct SetKey: Hashable, Sendable {
        var fonts: [FontReference]
        var embeddedFallback: Bool
    }

    /// Entries by key, each with the time of its last use; past `limit`, the least
    /// recently used go. Faces and sets keep one each.
    private struct LRUTable<Key: Hashable, Value> {
        let limit: Int
        private var entries: [Key: (value: Value, lastUse: UInt64)] = [:]
        private var clock: UInt64 = 0

        init(limit: Int) { self.limit = limit }

        var count: Int { entries.count }

        mutating func value(for key: Key) -> Value? {
            guard let value = entries[key]?.value else { return nil }
            clock += 1
            entries[key]?.lastUse = clock
            return value
        }

        /// Keeps `value` unless another thread stored one first, and returns the one kept.
        mutating func keep(_ value: Value, for key: Key) -> Value {
            clock += 1
            if let existing = entries[key] { return existing.value }
            entries[key] = (value, clock)
            while entries.count > limit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries[oldest.key] = nil
            }
            return value
        }
    }

    private struct State {
        var faces = LRUTable<FontReference, Font>(limit: FontReferenceStore.faceLimit)
        var sets = LRUTable<SetKey, FontSet>(limit: FontReferenceStore.setLimit)
    }

    private let state = Mutex(State())

    /// Faces and sets held now.
    var counts: (faces: Int, sets: Int) { state.withLock { ($0.faces.count, $0.sets.count) } }

    func face(_ reference: FontReference) -> Font? {
        state.withLock { $0.faces.value(for: reference) }
    }

    /// Stores `font` unless another thread stored one first, and returns the one kept.
    func store(_ font: Font, for reference: FontReference) -> Font {
        state.withLock { $0.faces.keep(font, for: reference) }
    }

    func set(_ key: SetKey) -> FontSet? {
        state.withLock { $0.sets.value(for: key) }
    }

    /// Stores `set` unless another thread stored one first, and returns the one kept.
    func store(_ set: FontSet, for key: SetKey) -> FontSet {
        state.withLock { $0.sets.keep(set, for: key) }
    }
}
