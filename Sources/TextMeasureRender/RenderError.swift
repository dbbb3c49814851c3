/// Why a picture could not be drawn or written.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The picture would be empty or larger than `Canvas.maximumDimension` on a side.
    case imageTooLarge(width: Int, height: Int)
    /// The scale is not a finite number in `PanelRenderer.scaleRange`.
    case invalidScale(Double)
    /// FreeType could not open a font the text was measured with.
    case unusableFont(name: String, code: Int32)
    /// libpng could not write the file.
    case pngWriteFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .imageTooLarge(let width, let height):
            "image of \(width) × \(height) pixels: each side must be 1...\(Canvas.maximumDimension)"
        case .invalidScale(let scale): "invalid scale \(scale): must be within \(PanelRenderer.scaleRange)"
        case .unusableFont(let name, let code): "FreeType cannot open \(name) for drawing (error \(code))"
        case .pngWriteFailed(let path, let reason): "cannot write PNG \(path): \(reason)"
        }
    }
}
