/// UIKit's "no intrinsic metric": the dimension has no size of its own.
public let noIntrinsicMetric: Double = -1

/// A width and a height, in pixels (points at display scale 1).
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width) × \(height)" }
}

/// A size proposal, as SwiftUI's `ProposedViewSize` makes one: a dimension may be
/// unspecified (`nil`), zero or infinite.
public struct ProposedSize: Sendable, Hashable {
    public var width: Double?
    public var height: Double?
    public init(width: Double?, height: Double? = nil) {
        self.width = width
        self.height = height
    }
}

/// Distances inset from each edge, like `UIEdgeInsets`.
public struct EdgeInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public static let zero = EdgeInsets()
}
