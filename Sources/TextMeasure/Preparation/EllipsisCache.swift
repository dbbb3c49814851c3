import Synchronization

/// "…" as measured for each font size and feature list of one font set: shaping it
/// costs as much as shaping a short word, and every preparation needs it, so a
/// font set measures it once per style (like its line boxes, it depends on nothing
/// but the fonts and the style). Holds at most `capacity` styles.
final class EllipsisCache: Sendable {
    private struct Key: Hashable {
        var size: Double
        var features: [String]
    }

    static let capacity = 256
    private let measured = Mutex<[Key: Ellipsis]>([:])

    /// The ellipsis for `style`, measured with `measure` the first time.
    func ellipsis(for style: TextStyle, measure: () -> Ellipsis) -> Ellipsis {
        let key = Key(size: style.fontSize, features: style.fontFeatures)
        if let ellipsis = measured.withLock({ $0[key] }) { return ellipsis }
        let ellipsis = measure()
        measured.withLock { measured in
            if measured.count >= Self.capacity { measured.removeAll() }
            measured[key] = ellipsis
        }
        return ellipsis
    }
}
