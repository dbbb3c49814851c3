/// The set of Unicode scalars a font maps to a glyph, as a bitset over the whole
/// code space (136 KiB), so that a fallback decision is one load and one mask.
@usableFromInline
package struct CoverageSet: Sendable {
    @usableFromInline var words: [UInt64]

    init() { words = Array(repeating: 0, count: 0x110000 / 64) }

    mutating func insert(_ scalar: UInt32) {
        guard scalar < 0x110000 else { return }
        words[Int(scalar >> 6)] |= 1 << UInt64(scalar & 63)
    }

    /// The bits of the 64 code points from `index * 64`.
    func word(_ index: Int) -> UInt64 { words[index] }

    /// Inlinable: the stages after Fonts ask it per code point (`missingGlyphClusterCount`).
    @inlinable
    package func contains(_ scalar: UInt32) -> Bool {
        guard scalar < 0x110000 else { return false }
        return words[Int(scalar >> 6)] & (1 << UInt64(scalar & 63)) != 0
    }
}
