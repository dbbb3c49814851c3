// One import for a test file: the golden-height kit, the wrap check, and the
// TextMeasure types their cases are written in.
@_exported import TextMeasure
@_exported import TextMeasureTestingCore
