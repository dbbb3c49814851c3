import Synchronization

/// What a font set measures once per style rather than once per text: "…" as
/// truncation draws it (shaping it costs as much as shaping a short word) and the
/// line boxes. Like the fonts' metrics, they depend on nothing but the fonts and
/// the style. Holds the `capacity` styles used last.
///
/// What is measured is preparation's business (`PreparedText.StyleMeasures`): fonts
/// come before preparation, so the set holds it without knowing its type.
package final class StyleMeasures: Sendable {
    static let capacity = 32
    private let measured = Mutex<[Entry]>([])

    /// A struct, not a tuple: the runtime copied and destroyed each tuple the lookup
    /// read, style and all, through its generic value witnesses.
    private struct Entry: Sendable {
        let style: TextStyle
        let measures: AnyMeasures
    }

    /// An entry's measures, of a type the set does not know. A class tagged with that
    /// type rather than `any Sendable`: every preparation looks its style up, and a cast
    /// out of an existential (with the `Optional` metadata `as?` needs) cost more than the
    /// rest of the lookup.
    private class AnyMeasures: @unchecked Sendable {
        let type: ObjectIdentifier
        init(type: ObjectIdentifier) { self.type = type }
    }

    private final class Measured<Measures: Sendable>: AnyMeasures, @unchecked Sendable {
        let value: Measures
        init(_ value: Measures) {
            self.value = value
            super.init(type: ObjectIdentifier(Measures.self))
        }
    }

    /// The measures for `style`, made with `measure` the first time. A set's
    /// measures are all of one type.
    package func measures<Measures: Sendable>(for style: TextStyle, measure: () -> Measures) -> Measures {
        // By index, newest first, each style compared in place: `last(where:)` would copy
        // out each entry it reads.
        let found = measured.withLock { entries -> AnyMeasures? in
            // Through the buffer: the array's subscript copied the entry's style out (a
            // retain and a release of each of its references).
            entries.withUnsafeBufferPointer { entries -> AnyMeasures? in
                var index = entries.count
                while index > 0 {
                    index -= 1
                    if entries[index].style == style { return entries[index].measures }
                }
                return nil
            }
        }
        if let found, found.type == ObjectIdentifier(Measures.self) {
            // The tag says what it holds: the unchecked cast is the checked one, without its cost.
            return unsafeDowncast(found, to: Measured<Measures>.self).value
        }
        let measures = measure()
        measured.withLock { measured in
            if measured.count >= Self.capacity { measured.removeFirst() }
            measured.append(Entry(style: style, measures: Measured(measures)))
        }
        return measures
    }
}
