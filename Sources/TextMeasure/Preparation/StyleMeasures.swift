import CHarfBuzz
import Synchronization

/// What a font set measures once per style rather than once per text: "…" as
/// truncation draws it (shaping it costs as much as shaping a short word) and the
/// line boxes. Like the fonts' metrics, they depend on nothing but the fonts and
/// the style. Holds the `capacity` styles used last.
final class StyleMeasures: Sendable {
    struct Measures: Sendable {
        var ellipsis: Ellipsis
        var hyphen: Hyphen
        var spaceWidth: Int
        var lineBoxes: [LineBox]
    }

    static let capacity = 32
    private let measured = Mutex<[(style: TextStyle, measures: Measures)]>([])

    /// The measures for `style`, made with `measure` the first time.
    func measures(for style: TextStyle, measure: () -> Measures) -> Measures {
        if let found = measured.withLock({ $0.last { $0.style == style }?.measures }) { return found }
        let measures = measure()
        measured.withLock { measured in
            if measured.count >= Self.capacity { measured.removeFirst() }
            measured.append((style, measures))
        }
        return measures
    }
}

extension Ellipsis {
    /// The ellipsis that truncation draws: U+2026 shaped on its own in the first
    /// font of `fonts` that covers it, as TextKit measures its truncation token.
    static func measure(fonts: FontSet, style: TextStyle) -> Ellipsis {
        let (width, fontIndex) = StyleMeasures.shapeAlone(UInt16(LineBreakMode.ellipsis.value), fonts: fonts, style: style)
        return Ellipsis(width: roundedToInt(width), fontIndex: fontIndex)
    }
}

extension StyleMeasures {
    /// A BMP character shaped on its own in the first font of `fonts` that covers it:
    /// its advance in width units (unrounded) and that font.
    static func shapeAlone(_ character: UInt16, fonts: FontSet, style: TextStyle) -> (width: Double, fontIndex: Int) {
        let text = [character]
        var advance: Int32 = 0, edges: UInt8 = 0
        let fontIndex = text.withUnsafeBufferPointer { text in
            let fontIndex = FontItemizer(fontSet: fonts).fontIndex(for: text, start: 0, end: 1)
            let run = FontRun(start: 0, end: 1, fontIndex: fontIndex, script: HB_SCRIPT_COMMON)
            Shaper(features: style.fontFeatures).shape(run, of: text, with: fonts.fonts[fontIndex], advances: &advance,
                                                        edges: &edges)
            return fontIndex
        }
        let scale = style.fontSize * Double(Segment.unitsPerPixel) / Double(fonts.fonts[fontIndex].advanceUnitsPerEm)
        return (Double(advance) * scale, fontIndex)
    }
}
