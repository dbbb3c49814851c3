/// Walks a string's UTF-8 forward to ascending UTF-16 offsets, each step costing the
/// distance from the last, a byte at a time: the UTF-16 view's `index(_:offsetBy:)`
/// steps a code unit at a time through its generic path, and indexing a new string's
/// UTF-16 view builds its breadcrumbs, at several times the cost.
@usableFromInline
package struct UTF16Cursor {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var position = 0
    /// Where the cursor stands, in UTF-16 code units: past the offset last asked for
    /// when that fell inside a surrogate pair.
    @usableFromInline package private(set) var utf16Offset = 0

    /// `bytes`: a string's UTF-8.
    @inlinable
    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The UTF-8 offset of the first scalar at or after UTF-16 `target` (the end, past
    /// it), `target` no earlier than the last asked for.
    @inlinable
    package mutating func utf8Offset(reaching target: Int) -> Int {
        while utf16Offset < target, position < bytes.count {
            let lead = bytes[position]
            utf16Offset += lead >= 0xF0 ? 2 : 1   // four UTF-8 bytes are a surrogate pair in UTF-16
            position += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        }
        return position
    }
}
