/// The version of TextMeasure, spelled `TextMeasure.version` by callers.
///
/// Golden-height files record it beside every expected height, so that a height
/// that moves can be traced to the release that moved it.
public let version = "0.1.0"
