import TextMeasure

/// What fuzz-text checks: an input is an 8-byte header of options followed by
/// the text as bytes (UTF-8, or not). Every option can take values outside its
/// valid range; the library must throw the documented error for exactly those,
/// and otherwise give a layout that satisfies `LayoutInvariants`.
///
/// Header: [0] flags: bit 0 uax14 rules, 1 label empty lines, 2 hug, 3 replace invalid
///             UTF-8 (else reject), 4-5 line height (normal, fixed, multiple, normal),
///             6 primary font only (else the default set), 7 UITextView's container
///         [1-2] width, big-endian: 1/16 px, or one of `specialWidths` at the top
///         [3] font size: one of `specialSizes` below 8, else byte / 4 px
///         [4] line height value: byte / 4 px (fixed) or byte / 64 (multiple)
///         [5] tab size: byte - 8
///         [6] height limits: minimum (low nibble) × 10 px, maximum (high nibble) × 20 px;
///             15 is NaN, and a maximum of 0 is none
///         [7] line-break mode (low 3 bits: `LineBreakMode.allCases`, word wrapping past
///             them), maximum number of lines (high 5 bits, 0 for none)

public enum TextFuzzing {
    static let specialWidths: [Double] = [.nan, .infinity, -.infinity, -1, 0, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
    static let specialSizes: [Double] = [0, -1, .nan, .infinity, 100_000, 10_000, 0.01, 0.005]
    static let primaryOnly = try! FontSet([FontSet.default.primary])

    /// Checks one input: the header of options, then the text's bytes.
    public static func check(_ input: some RandomAccessCollection<UInt8>) throws(InvariantViolation) {
        let input = Array(input)
        guard input.count >= 8 else { return }
        let flags = input[0]
        let rawWidth = Int(input[1]) << 8 | Int(input[2])
        let width = rawWidth >= 0xFFF8 ? specialWidths[rawWidth - 0xFFF8] : Double(rawWidth) / 16
        let size = input[3] < 8 ? specialSizes[Int(input[3])] : Double(input[3]) / 4
        let lineHeight: LineHeight = switch (flags >> 4) & 3 {
        case 1: .fixed(Double(input[4]) / 4)
        case 2: .multiple(Double(input[4]) / 64)
        default: .normal
        }
        let tabSize = Int(input[5]) - 8
        let minimum = input[6] & 0x0F == 15 ? Double.nan : Double(input[6] & 0x0F) * 10
        let maximum = input[6] >> 4 == 15 ? Double.nan : input[6] >> 4 == 0 ? .infinity : Double(input[6] >> 4) * 20
        let modes = LineBreakMode.allCases
        let lineBreakMode = Int(input[7] & 7) < modes.count ? modes[Int(input[7] & 7)] : .byWordWrapping
        let maximumNumberOfLines = Int(input[7] >> 3)
        let bytes = input[8...]

        // Direction and alignment from bytes that also mean something else, so every header keeps its meaning.
        let direction = WritingDirection.allCases[Int(input[3]) % WritingDirection.allCases.count]
        let alignment = TextAlignment.allCases[Int(input[1]) % TextAlignment.allCases.count]
        let style = TextStyle(fontSize: size, lineHeight: lineHeight, lineBreakRules: flags & 1 != 0 ? .uax14 : .browser,
                              tabSize: tabSize, baseWritingDirection: direction, alignment: alignment)
        let fonts = flags & 0x40 != 0 ? primaryOnly : FontSet.default
        let invalidUTF8: InvalidUTF8Handling = flags & 8 != 0 ? .replace : .reject

        // The oracle for which inputs are errors, written independently of the library.
        let validText = String(validating: bytes, as: UTF8.self) != nil
        let validSize = size.isFinite && size >= 0.01 && size <= 10_000
        let validTabSize = (0...1000).contains(tabSize)
        let validLineHeight: Bool = switch lineHeight {
        case .normal: true
        case .fixed(let value), .multiple(let value): value > 0 && value <= 1_000_000
        }
        let prepared: PreparedText
        do {
            prepared = try PreparedText(utf8: bytes, invalidUTF8: invalidUTF8, fonts: fonts, style: style)
        } catch {
            switch error {
            case .invalidUTF8(let offset):
                try LayoutInvariants.require(!validText && invalidUTF8 == .reject, "invalidUTF8 thrown for valid text")
                // Valid before the offset, and no scalar (1 to 4 bytes) starts at it.
                let start = bytes.startIndex + offset
                try LayoutInvariants.require(String(validating: bytes.prefix(offset), as: UTF8.self) != nil
                                             && (1...4).allSatisfy { length in
                                                 start + length > bytes.endIndex
                                                     || String(validating: bytes[start..<(start + length)], as: UTF8.self) == nil
                                             }, "the offset \(offset) is the first bad byte")
            case .invalidFontSize: try LayoutInvariants.require(!validSize, "valid size \(size) refused")
            case .invalidTabSize: try LayoutInvariants.require(validSize && !validTabSize, "valid tab size refused")
            case .invalidLineHeight: try LayoutInvariants.require(validSize && validTabSize && !validLineHeight, "valid line height refused")
            default: try LayoutInvariants.require(false, "unexpected error \(error)")
            }
            return
        }
        try LayoutInvariants.require(validText || invalidUTF8 == .replace, "invalid UTF-8 accepted with .reject")
        try LayoutInvariants.require(validSize && validLineHeight && validTabSize, "invalid style accepted")

        let emptyLines: EmptyLineConvention = flags & 2 != 0 ? .label : .textView
        // Only an unusable width is refused (the error itself is the library's to type).
        if let layout = try? prepared.layout(width: width, emptyLines: emptyLines, lineBreakMode: lineBreakMode,
                                             maximumNumberOfLines: maximumNumberOfLines) {
            try LayoutInvariants.require(width.isFinite && width >= 0, "layout at an unusable width \(width)")
            try LayoutInvariants.check(layout, of: prepared, width: width, emptyLines: emptyLines,
                                       lineBreakMode: lineBreakMode, maximumNumberOfLines: maximumNumberOfLines)
            try PlacementInvariants.check(prepared.placement(of: layout), of: layout)
        } else {
            try LayoutInvariants.require(!(width.isFinite && width >= 0), "layout refused width \(width)")
        }
        // Unwrapped, the text needs no soft or emergency breaks (at its width rounded up to
        // the 1/64 px that layout floors a width to; widths themselves are finer).
        let unwrappedWidth = (prepared.unwrappedWidth * 64).rounded(.up) / 64
        let unwrapped = try? prepared.layout(width: unwrappedWidth, emptyLines: emptyLines)
        try LayoutInvariants.require(unwrapped != nil, "layout refused the unwrapped width \(unwrappedWidth)")
        try LayoutInvariants.require(unwrapped?.lines.allSatisfy { $0.lineEnd == .mandatoryBreak || $0.lineEnd == .endOfText } == true,
                                     "a break at the unwrapped width \(prepared.unwrappedWidth)")

        var container = flags & 0x80 != 0 ? TextContainer.textView : TextContainer()
        container.emptyLines = emptyLines
        container.lineBreakMode = lineBreakMode
        container.maximumNumberOfLines = maximumNumberOfLines
        guard var measurer = try? TextMeasurer(prepared: prepared, container: container) else {
            try LayoutInvariants.require(false, "a valid container refused")
            return
        }
        measurer.minimumHeight = minimum
        measurer.maximumHeight = maximum
        measurer.widthSizing = flags & 4 != 0 ? .hug : .fill
        try LayoutInvariants.checkSize(measurer, proposedWidth: width)
    }
}
