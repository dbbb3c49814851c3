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
    private let measured = Mutex<[(style: TextStyle, measures: any Sendable)]>([])

    /// The measures for `style`, made with `measure` the first time. A set's
    /// measures are all of one type.
    package func measures<Measures: Sendable>(for style: TextStyle, measure: () -> Measures) -> Measures {
        if let found = measured.withLock({ $0.last { $0.style == style }?.measures }) as? Measures { return found }
        let measures = measure()
        measured.withLock { measured in
            if measured.count >= Self.capacity { measured.removeFirst() }
            measured.append((style, measures))
        }
        return measures
    }
}
