// The library users import: the public API of every stage (each re-exports those
// above it), so that `import TextMeasure` is all an app writes.
@_exported import TextMeasureSizing
