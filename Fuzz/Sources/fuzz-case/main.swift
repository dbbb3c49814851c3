import FuzzSupport
import TextMeasure

// Fuzzes the strict JSON case reader, `MeasurementCase(json:)` (a line of `textmeasure
// batch`, a case of a golden file). Any bytes either throw a `CaseReadError` or give a
// case whose values the reader promised: a width finite and above 0, four insets, font
// paths without NUL, a numeric id whose text is in the input. Oracles written apart
// from the reader:
// - a key added twice is refused: the accepted object with `"width": 1` put in again
//   before its closing brace must fail as a duplicate;
// - cut before its closing brace, an accepted object is no longer JSON;
// - the case measures (with the embedded fonts: paths in fuzzed input would read
//   arbitrary files) into a layout that satisfies `LayoutInvariants`, or throws a
//   documented error for a value the library refuses (a size, a line height, a padding).

func fuzzCase(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard var testCase = try? MeasurementCase(json: bytes) else { return 0 }

    LayoutInvariants.require(testCase.width.isFinite && testCase.width > 0, "an accepted width is finite and > 0")
    LayoutInvariants.require(testCase.insets.map { $0.count == 4 && $0.allSatisfy(\.isFinite) } ?? true, "four finite insets")
    LayoutInvariants.require(testCase.fonts?.allSatisfy { !$0.path.isEmpty && !$0.path.utf8.contains(0) } ?? true,
                             "font paths are not empty and hold no NUL")
    if case .number(let text)? = testCase.id {
        LayoutInvariants.require(bytes.firstRange(of: Array(text.utf8)) != nil, "a numeric id keeps its text")
    }

    // The object closes with its last "}" (only whitespace may follow).
    if let close = bytes.lastIndex(of: UInt8(ascii: "}")) {
        let twice = Array(bytes[..<close]) + Array(#","width":1"#.utf8) + Array(bytes[close...])
        do {
            _ = try MeasurementCase(json: twice)
            LayoutInvariants.require(false, "a second \"width\" was accepted")
        } catch {
            LayoutInvariants.require(error.message.contains("duplicate key \"width\""), "a second width is a duplicate: \(error.message)")
        }
        LayoutInvariants.require((try? MeasurementCase(json: bytes[..<close])) == nil, "an object cut short is not JSON")
    }

    testCase.fonts = nil
    guard let measurer = try? testCase.measurer(fonts: FontCache()) else { return 0 }
    let container = measurer.container
    // The width the lines get: the case's less the insets and padding (`TextMeasurer.layout`).
    let chrome = container.textContainerInset.left + container.textContainerInset.right + 2 * container.lineFragmentPadding
    let textWidth = max(0, testCase.width - chrome)
    guard let layout = try? measurer.prepared.layout(width: textWidth, emptyLines: container.emptyLines,
                                                     lineBreakMode: container.lineBreakMode,
                                                     maximumNumberOfLines: container.maximumNumberOfLines) else {
        LayoutInvariants.require(false, "an accepted width was refused")
        return 0
    }
    LayoutInvariants.check(layout, of: measurer.prepared, width: textWidth, emptyLines: container.emptyLines,
                           lineBreakMode: container.lineBreakMode, maximumNumberOfLines: container.maximumNumberOfLines)
    return 0
}

runFuzzer { data, count in fuzzCase(data, count) }
