/// An opaque RGB colour.
public struct Color: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = Color(red: 255, green: 255, blue: 255)
}

/// An opaque RGB image in memory, origin at the top left: what the renderer draws
/// into and `writePNG(to:)` writes out.
public struct Canvas: Sendable {
    /// The largest width or height accepted, in pixels (a 16384 × 16384 canvas is 768 MiB).
    public static let maximumDimension = 16_384

    public let width: Int
    public let height: Int
    /// The pixels row by row, top row first, 3 bytes (red, green, blue) each.
    public private(set) var pixels: [UInt8]

    /// A canvas filled with `background`.
    public init(width: Int, height: Int, background: Color = .white) throws(RenderError) {
        guard (1...Self.maximumDimension).contains(width), (1...Self.maximumDimension).contains(height) else {
            throw .imageTooLarge(width: width, height: height)
        }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = background.red
            pixels[i + 1] = background.green
            pixels[i + 2] = background.blue
        }
    }

    /// The colour of the pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 3
        return Color(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2])
    }

    /// Paints `color` over the pixel at (`x`, `y`) with coverage `alpha` (0...255);
    /// pixels outside the canvas are ignored.
    mutating func blend(x: Int, y: Int, _ color: Color, alpha: Int) {
        blendPremultiplied(x: x, y: y, red: Int(color.red) * alpha, green: Int(color.green) * alpha,
                           blue: Int(color.blue) * alpha, alpha: alpha)
    }

    /// Composites a premultiplied colour (components already × `alpha`, so 0...255²)
    /// over the pixel at (`x`, `y`).
    mutating func blendPremultiplied(x: Int, y: Int, red: Int, green: Int, blue: Int, alpha: Int) {
        guard x >= 0, x < width, y >= 0, y < height, alpha > 0 else { return }
        let i = (y * width + x) * 3
        let keep = 255 - min(alpha, 255)
        pixels[i] = UInt8(clamping: (red + Int(pixels[i]) * keep + 127) / 255)
        pixels[i + 1] = UInt8(clamping: (green + Int(pixels[i + 1]) * keep + 127) / 255)
        pixels[i + 2] = UInt8(clamping: (blue + Int(pixels[i + 2]) * keep + 127) / 255)
    }

    /// Paints the pixels whose centres fall inside the rectangle (in pixels) with
    /// `color` at `alpha`; a rectangle thinner than a pixel still paints one.
    mutating func fill(x: Double, y: Double, width w: Double, height h: Double, _ color: Color, alpha: Int = 255) {
        let x0 = Self.pixel(x), y0 = Self.pixel(y)
        let x1 = max(x0 + 1, Self.pixel(x + w)), y1 = max(y0 + 1, Self.pixel(y + h))
        let rows = max(0, y0)..<max(max(0, y0), min(height, y1))
        let columns = max(0, x0)..<max(max(0, x0), min(width, x1))
        for row in rows {
            for column in columns { blend(x: column, y: row, color, alpha: alpha) }
        }
    }

    /// Outlines the rectangle with a one-pixel line.
    mutating func stroke(x: Double, y: Double, width w: Double, height h: Double, _ color: Color, alpha: Int = 255) {
        fill(x: x, y: y, width: w, height: 1, color, alpha: alpha)
        fill(x: x, y: y + h - 1, width: w, height: 1, color, alpha: alpha)
        fill(x: x, y: y + 1, width: 1, height: h - 2, color, alpha: alpha)
        fill(x: x + w - 1, y: y + 1, width: 1, height: h - 2, color, alpha: alpha)
    }

    /// `value` rounded to a pixel index; non-finite and huge values land far outside
    /// any canvas instead of trapping.
    static func pixel(_ value: Double) -> Int {
        guard value.isFinite else { return -1_000_000_000 }
        return Int(min(max(value.rounded(), -1e9), 1e9))
    }
}
