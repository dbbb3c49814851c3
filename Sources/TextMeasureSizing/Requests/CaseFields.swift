extension FontReference {
    /// Reads a font from a case's JSON: a path string or `{"path", "index", "variations"}`.
    init(json value: JSONValue, key: String) throws(JSONFieldError) {
        switch value {
        case .string(let path):
            self.init(path: try Self.checkedPath(path, key: key))
        case .object(let object):
            try JSONField.checkKeys(object, known: ["path", "index", "variations"], path: key + ".")
            guard let pathValue = object["path"] else { throw JSONFieldError(missing: key + ".path") }
            let path = try Self.checkedPath(try JSONField.string(pathValue, key: key + ".path"), key: key + ".path")
            let index = try object["index"].map { value throws(JSONFieldError) in
                try JSONField.integer(value, key: key + ".index", in: 0...0xFFFF)
            } ?? 0
            var variations: [String: Double] = [:]
            if let value = object["variations"] {
                for member in try JSONField.object(value, key: key + ".variations").members {
                    let name = key + ".variations." + member.key
                    guard FontVariation.isValidTag(member.key) else {
                        throw JSONFieldError(key: name, problem: "is not an axis tag: a tag is 1 to 4 ASCII letters, digits or spaces (\"wght\")")
                    }
                    variations[member.key] = try JSONField.number(member.value, key: name)
                }
            }
            self.init(path: path, index: index, variations: variations)
        default:
            throw JSONFieldError(key: key, problem: "must be a path or an object {\"path\", \"index\", \"variations\"}, got \(value.kind)")
        }
    }

    /// A path as a file system can take it: not empty, and no NUL (which C would end it at).
    private static func checkedPath(_ path: String, key: String) throws(JSONFieldError) -> String {
        guard !path.isEmpty else { throw JSONFieldError(key: key, problem: "is an empty path") }
        guard !path.utf8.contains(0) else {
            throw JSONFieldError(key: key, problem: "contains a NUL character, which no file path can hold")
        }
        return path
    }
}

extension LineHeight: Codable {
    /// JSON: a number of px, or a string: `"normal"`, `"20px"`, `"1.2x"` (a multiple of the normal height).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let pixels = try? container.decode(Double.self) {
            self = .fixed(pixels)
        } else if let parsed = LineHeight(parsing: try container.decode(String.self)) {
            self = parsed
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \"normal\", \"20px\" or \"1.2x\"")
        }
    }

    /// A fixed height as a number (as files written before multiples had it), the others as strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .normal: try container.encode("normal")
        case .fixed(let pixels): try container.encode(pixels)
        case .multiple(let multiple):
            // "2x" rather than "2.0x", as a person writes it.
            let whole = multiple.rounded() == multiple && abs(multiple) < 1e15
            try container.encode(whole ? "\(Int(multiple))x" : "\(multiple)x")
        }
    }

    /// `normal`, `<number>px` (fixed) or `<number>x` (a multiple of the normal height),
    /// the number decimal and finite; nil for anything else. A bare number is none of
    /// them: CSS reads it as a multiple of the font size, TextKit's `lineHeightMultiple`
    /// as one of the normal height, and a height in px needs its unit.
    public init?(parsing text: String) {
        if text == "normal" { self = .normal; return }
        if text.hasSuffix("px"), let pixels = DecimalNumber.parse(text.dropLast(2)) { self = .fixed(pixels); return }
        if text.hasSuffix("x"), let multiple = DecimalNumber.parse(text.dropLast()) { self = .multiple(multiple); return }
        return nil
    }

    /// A case's `"lineHeight"`: null, a number of px, or a string `LineHeight(parsing:)` reads.
    init?(json value: JSONValue, key: String) throws(JSONFieldError) {
        switch value {
        case .null: return nil
        case .number: self = .fixed(try JSONField.number(value, key: key))
        case .string(let text):
            guard let parsed = LineHeight(parsing: text) else {
                throw JSONFieldError(key: key, problem: "must be a number of px, \"normal\", \"20px\" or \"1.2x\" (a multiple of the normal line height), got \(value.text)")
            }
            self = parsed
        default:
            throw JSONFieldError(key: key, problem: "must be a number of px or a string such as \"1.2x\", got \(value.kind)")
        }
    }
}

/// Plain decimal numbers as a user types them (`12`, `-3.5`, `1e3`), nothing else:
/// Swift's `Double("0x64")` reads hex, `Double("nan")` and `Double("inf")` non-numbers,
/// none of which a width or a size given on a command line should be.
package enum DecimalNumber {
    /// The finite number `text` spells in decimal, or nil.
    package static func parse(_ text: some StringProtocol) -> Double? {
        var sawDigit = false
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        func skipDigits() {
            while index < utf8.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[index]) {
                sawDigit = true
                index = utf8.index(after: index)
            }
        }
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index = utf8.index(after: index) }
        skipDigits()
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: ".") { index = utf8.index(after: index); skipDigits() }
        guard sawDigit else { return nil }
        if index < utf8.endIndex, utf8[index] | 0x20 == UInt8(ascii: "e") {
            index = utf8.index(after: index)
            if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index = utf8.index(after: index) }
            sawDigit = false
            skipDigits()
            guard sawDigit else { return nil }
        }
        guard index == utf8.endIndex, let number = Double(String(text)), number.isFinite else { return nil }
        return number
    }
}

extension EmptyLineConvention: CaseIterable {
    public static var allCases: [EmptyLineConvention] { [.textView, .label] }
}

extension MeasurementCase {
    /// A case whose fonts are plain paths, as `String` values (`fonts: [directory + "/Brand.ttf"]`);
    /// literals work with the main initializer too, each becoming a `FontReference`.
    public init(id: CaseID? = nil, text: String, fonts paths: [String], embeddedFallback: Bool? = nil,
                size: Double? = nil, width: Double, lineHeight: LineHeight? = nil, rules: LineBreakRules? = nil,
                insets: [Double]? = nil, padding: Double? = nil, maxLines: Int? = nil,
                lineBreakMode: LineBreakMode? = nil, emptyLines: EmptyLineConvention? = nil) {
        self.init(id: id, text: text, fonts: paths.map { FontReference(path: $0) }, embeddedFallback: embeddedFallback,
                  size: size, width: width, lineHeight: lineHeight, rules: rules, insets: insets, padding: padding,
                  maxLines: maxLines, lineBreakMode: lineBreakMode, emptyLines: emptyLines)
    }
}
