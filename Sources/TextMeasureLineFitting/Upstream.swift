// Every stage sees the stages above it, and only those (docs/architecture.md).
@_exported import TextMeasurePreparation
