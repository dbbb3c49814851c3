import TextMeasure

extension MeasurementCase {
    /// The measurer `measure(fonts:)` measures this case with, for what the result
    /// does not hold: the lines as shown, a picture.
    func measurer(fonts: FontCache) throws -> TextMeasurer {
        try TextMeasurer(text: text, fonts: fonts.fontSet(paths: self.fonts ?? []), style: style(), container: container())
    }
}
