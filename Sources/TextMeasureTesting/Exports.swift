// One import for a test file: the golden-height kit, the wrap check, the TextMeasure
// types their cases are written in, and the renderer that draws failed cases.
@_exported import TextMeasure
@_exported import TextMeasureRender
@_exported import TextMeasureTestingCore
