/// Why a JSON case could not be read: a message naming the key, and the case's id
/// when that much could be read (so a batch can put its error in the case's place).
public struct CaseReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The case's id, when the input is an object with a readable `"id"`.
    public var id: CaseID?
    /// What is wrong, naming the key: `unknown key "maxlines"; did you mean "maxLines"?`.
    public var message: String

    public init(id: CaseID? = nil, message: String) {
        self.id = id
        self.message = message
    }

    public var description: String { message }
}

extension MeasurementCase {
    /// The keys a case may have, in the order the batch help lists them.
    package static let jsonKeys = ["id", "text", "fonts", "embeddedFallback", "size", "width", "lineHeight", "rules",
                                   "insets", "padding", "maxLines", "lineBreakMode", "emptyLines",
                                   "align", "direction", "boxes", "textWrap", "wordBreak", "lineBreak",
                                   "overflowWrap", "whiteSpace", "hyphens", "lang", "opticalSizing", "textSpacingTrim",
                                   "letterSpacing",
                                   "wordSpacing", "spans"]

    /// Reads a case from one JSON object in UTF-8 (a line of `textmeasure batch`), strictly:
    /// an unknown key (with the nearest known one), a key given twice, a wrong type, a
    /// number out of range or a value the field cannot take is an error naming the key.
    /// A numeric id keeps the text it was written with (`1.0` stays `1.0`).
    public init(json: some Collection<UInt8>) throws(CaseReadError) {
        let value: JSONValue
        do { value = try StrictJSON.parse(json) } catch { throw CaseReadError(id: error.caseID, message: error.description) }
        guard case .object(let object) = value else {
            throw CaseReadError(message: "not a JSON object: \(value.kind)")
        }
        try self.init(object: object)
    }

    /// Reads a case from a parsed object; `extraKeys` are keys the caller reads itself
    /// (a golden case's `"expected"`).
    package init(object: JSONObject, extraKeys: Set<String> = []) throws(CaseReadError) {
        // The id first, so that every later error can name the case.
        let id = try? JSONField.caseID(object["id"])
        do throws(JSONFieldError) {
            try JSONField.checkKeys(object, known: Self.jsonKeys, extra: extraKeys)
            let idValue = try JSONField.caseID(object["id"])
            guard let textValue = object["text"] else { throw JSONFieldError(missing: "text") }
            guard let widthValue = object["width"] else { throw JSONFieldError(missing: "width") }
            let text = try JSONField.string(textValue, key: "text")
            let width = try JSONField.number(widthValue, key: "width")
            guard width > 0 else {
                throw JSONFieldError(key: "width", problem: "must be greater than 0 (there is nothing to wrap against), got \(widthValue.text)")
            }
            self.init(id: idValue, text: text, width: width)
            fonts = try object["fonts"].flatMap { value throws(JSONFieldError) in
                try JSONField.array(value, key: "fonts").enumerated().map { index, font throws(JSONFieldError) in
                    try FontReference(json: font, key: "fonts[\(index)]")
                }
            }
            embeddedFallback = try object["embeddedFallback"].flatMap { value throws(JSONFieldError) in
                try JSONField.bool(value, key: "embeddedFallback")
            }
            size = try JSONField.optionalNumber(object["size"], key: "size")
            lineHeight = try object["lineHeight"].flatMap { value throws(JSONFieldError) in
                try LineHeight(json: value, key: "lineHeight")
            }
            rules = try JSONField.optionalEnum(object["rules"], key: "rules", LineBreakRules.self)
            insets = try object["insets"].flatMap { value throws(JSONFieldError) in
                let numbers = try JSONField.array(value, key: "insets").enumerated().map { index, element throws(JSONFieldError) in
                    try JSONField.number(element, key: "insets[\(index)]")
                }
                guard numbers.count == 4 else {
                    throw JSONFieldError(key: "insets", problem: "needs four numbers [top, left, bottom, right], got \(numbers.count)")
                }
                return numbers
            }
            padding = try JSONField.optionalNumber(object["padding"], key: "padding")
            maxLines = try object["maxLines"].flatMap { value throws(JSONFieldError) in
                try JSONField.integer(value, key: "maxLines", in: 0...Int(Int32.max))
            }
            lineBreakMode = try JSONField.optionalEnum(object["lineBreakMode"], key: "lineBreakMode", LineBreakMode.self)
            emptyLines = try JSONField.optionalEnum(object["emptyLines"], key: "emptyLines", EmptyLineConvention.self)
            align = try JSONField.optionalEnum(object["align"], key: "align", TextAlignment.self)
            direction = try JSONField.optionalEnum(object["direction"], key: "direction", WritingDirection.self)
            boxes = try object["boxes"].flatMap { value throws(JSONFieldError) in try JSONField.bool(value, key: "boxes") }
            textWrap = try JSONField.optionalEnum(object["textWrap"], key: "textWrap", TextWrap.self)
            wordBreak = try JSONField.optionalEnum(object["wordBreak"], key: "wordBreak", WordBreak.self)
            lineBreak = try JSONField.optionalEnum(object["lineBreak"], key: "lineBreak", LineBreak.self)
            overflowWrap = try JSONField.optionalEnum(object["overflowWrap"], key: "overflowWrap", OverflowWrap.self)
            whiteSpace = try JSONField.optionalEnum(object["whiteSpace"], key: "whiteSpace", WhiteSpace.self)
            hyphens = try JSONField.optionalEnum(object["hyphens"], key: "hyphens", Hyphens.self)
            lang = try JSONField.optionalLanguage(object["lang"], key: "lang")
            opticalSizing = try JSONField.optionalEnum(object["opticalSizing"], key: "opticalSizing", OpticalSizing.self)
            textSpacingTrim = try JSONField.optionalEnum(object["textSpacingTrim"], key: "textSpacingTrim",
                                                         TextSpacingTrim.self)
            letterSpacing = try JSONField.optionalNumber(object["letterSpacing"], key: "letterSpacing")
            wordSpacing = try JSONField.optionalNumber(object["wordSpacing"], key: "wordSpacing")
            spans = try object["spans"].flatMap { value throws(JSONFieldError) in
                try CaseSpan.read(JSONField.array(value, key: "spans"), text: Array(text.utf16))
            }
        } catch {
            throw CaseReadError(id: id ?? nil, message: error.description)
        }
    }
}

extension CaseSpan {
    static let jsonKeys = ["start", "end", "fonts", "size", "letterSpacing", "wordSpacing", "features", "placeholder",
                           "lang"]

    /// Reads a case's `"spans"` over `text` (UTF-16): each in range, not splitting a
    /// surrogate pair, after the one before it, a placeholder on exactly one U+FFFC.
    static func read(_ values: [JSONValue], text: [UInt16]) throws(JSONFieldError) -> [CaseSpan] {
        var spans: [CaseSpan] = []
        for (index, value) in values.enumerated() {
            let key = "spans[\(index)]"
            let object = try JSONField.object(value, key: key)
            try JSONField.checkKeys(object, known: jsonKeys, path: key + ".")
            func offset(_ name: String) throws(JSONFieldError) -> Int {
                guard let value = object[name] else { throw JSONFieldError(missing: key + "." + name) }
                let offset = try JSONField.integer(value, key: key + "." + name, in: 0...text.count)
                if offset > 0, offset < text.count, UTF16.isTrailSurrogate(text[offset]) {
                    throw JSONFieldError(key: key + "." + name, problem: "splits a surrogate pair at UTF-16 offset \(offset)")
                }
                return offset
            }
            var span = CaseSpan(start: try offset("start"), end: try offset("end"))
            guard span.start < span.end else {
                throw JSONFieldError(key: key + ".end", problem: "must be greater than start (\(span.start)), got \(span.end)")
            }
            if let previous = spans.last, previous.end > span.start {
                throw JSONFieldError(key: key + ".start", problem: "overlaps or precedes spans[\(index - 1)] (\(previous.start)..<\(previous.end)): spans are sorted and do not overlap")
            }
            span.fonts = try object["fonts"].flatMap { value throws(JSONFieldError) in
                try JSONField.array(value, key: key + ".fonts").enumerated().map { i, font throws(JSONFieldError) in
                    try FontReference(json: font, key: key + ".fonts[\(i)]")
                }
            }
            span.size = try JSONField.optionalNumber(object["size"], key: key + ".size")
            span.letterSpacing = try JSONField.optionalNumber(object["letterSpacing"], key: key + ".letterSpacing")
            span.wordSpacing = try JSONField.optionalNumber(object["wordSpacing"], key: key + ".wordSpacing")
            span.features = try object["features"].flatMap { value throws(JSONFieldError) in
                try JSONField.array(value, key: key + ".features").enumerated().map { i, feature throws(JSONFieldError) in
                    try JSONField.string(feature, key: key + ".features[\(i)]")
                }
            }
            span.lang = try JSONField.optionalLanguage(object["lang"], key: key + ".lang")
            if let value = object["placeholder"] {
                let name = key + ".placeholder"
                let box = try JSONField.object(value, key: name)
                try JSONField.checkKeys(box, known: ["width", "height", "baseline"], path: name + ".")
                func number(_ field: String) throws(JSONFieldError) -> Double {
                    guard let value = box[field] else { throw JSONFieldError(missing: name + "." + field) }
                    return try JSONField.number(value, key: name + "." + field)
                }
                guard span.end == span.start + 1, text[span.start] == 0xFFFC else {
                    throw JSONFieldError(key: name, problem: "must be on exactly one U+FFFC, but the span covers \(span.start)..<\(span.end)")
                }
                span.placeholder = InlinePlaceholder(width: try number("width"), height: try number("height"),
                                                     baseline: try number("baseline"))
            }
            spans.append(span)
        }
        return spans
    }
}

/// A field that cannot be read: the key (with its path: `fonts[1].path`) and what is wrong.
package struct JSONFieldError: Error, Sendable, CustomStringConvertible {
    package var key: String
    package var problem: String

    package init(key: String, problem: String) {
        self.key = key
        self.problem = problem
    }

    /// A required key that is absent: `missing "width"`.
    package init(missing key: String) {
        self.init(key: "", problem: "missing \"\(key)\"")
    }

    package var description: String { key.isEmpty ? problem : "\"\(key)\" \(problem)" }
}

extension JSONValue {
    /// The value as it would be written back, for messages (long strings shortened).
    package var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let lexeme): lexeme
        case .string(let value): value.count <= 40 ? "\"\(value)\"" : "\"\(value.prefix(38))…\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Reading typed fields from JSON values, each error naming its key.
package enum JSONField {
    /// Throws for the first key of `object` that is neither `known` nor `extra`,
    /// naming the nearest known key when one is close: `unknown key "maxlines"; did
    /// you mean "maxLines"?`. `path` is the object's own place (`fonts[0].`).
    package static func checkKeys(_ object: JSONObject, known: [String], extra: Set<String> = [],
                                  path: String = "") throws(JSONFieldError) {
        for member in object.members where !known.contains(member.key) && !extra.contains(member.key) {
            var problem = "unknown key \"\(path)\(member.key)\""
            if let nearest = nearest(to: member.key, in: known + extra.sorted()) {
                problem += "; did you mean \"\(path)\(nearest)\"?"
            } else {
                problem += "; the keys are " + (known + extra.sorted()).map { "\"\($0)\"" }.joined(separator: ", ")
            }
            throw JSONFieldError(key: "", problem: problem)
        }
    }

    /// The known key a mistyped one most likely meant: the same but for case, `_` and
    /// `-`, or else within a few edits; nil when none is close.
    package static func nearest(to key: String, in known: [String]) -> String? {
        func folded(_ name: String) -> [Character] { Array(name.lowercased().filter { $0 != "_" && $0 != "-" }) }
        let target = folded(key)
        if let same = known.first(where: { folded($0) == target }) { return same }
        let scored = known.map { ($0, editDistance(target, folded($0))) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(1, min(target.count, best.count) / 3) else { return nil }
        return best
    }

    /// Edits (insert, delete, replace, swap two neighbours: `widht` is one from `width`)
    /// from `a` to `b`, the optimal string alignment distance.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], beforePrevious[j - 2] + 1) }
            }
            beforePrevious = previous
            previous = row
        }
        return previous[b.count]
    }

    package static func caseID(_ value: JSONValue?) throws(JSONFieldError) -> CaseID? {
        switch value {
        case nil, .null?: return nil
        case .string(let string)?: return .string(string)
        case .number(let lexeme)?:
            // A plain integer that reads back the same is an integer; any other number
            // (`1.0`, `1e2`, `-0`, one beyond Int) is kept exactly as written.
            if let integer = Int(lexeme), String(integer) == lexeme { return .integer(integer) }
            return .number(lexeme)
        case let other?: throw JSONFieldError(key: "id", problem: "must be a string or a number, got \(other.kind)")
        }
    }

    package static func string(_ value: JSONValue, key: String) throws(JSONFieldError) -> String {
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    package static func bool(_ value: JSONValue, key: String) throws(JSONFieldError) -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(key, "true or false", value) }
        return bool
    }

    package static func array(_ value: JSONValue, key: String) throws(JSONFieldError) -> [JSONValue] {
        guard case .array(let array) = value else { throw mismatch(key, "an array", value) }
        return array
    }

    package static func object(_ value: JSONValue, key: String) throws(JSONFieldError) -> JSONObject {
        guard case .object(let object) = value else { throw mismatch(key, "an object", value) }
        return object
    }

    /// A finite number; one too large for a `Double` is out of range.
    package static func number(_ value: JSONValue, key: String) throws(JSONFieldError) -> Double {
        guard case .number(let lexeme) = value else { throw mismatch(key, "a number", value) }
        // The lexeme passed JSON's grammar, so Double reads it; only its size can fail.
        guard let number = Double(lexeme), number.isFinite else {
            throw JSONFieldError(key: key, problem: "is out of range: \(lexeme) is too large for a number")
        }
        return number
    }

    /// `nil` for an absent key or null, else a finite number.
    package static func optionalNumber(_ value: JSONValue?, key: String) throws(JSONFieldError) -> Double? {
        guard let value, value != .null else { return nil }
        return try number(value, key: key)
    }

    /// A BCP 47 language tag (`lang`, `spans[i].lang`), checked here so that the error
    /// names the key; a tag no patterns are installed for is fine.
    package static func optionalLanguage(_ value: JSONValue?, key: String) throws(JSONFieldError) -> String? {
        guard let value else { return nil }
        let tag = try string(value, key: key)
        do { _ = try Hyphenator.forLanguage(tag) } catch {
            throw JSONFieldError(key: key, problem: "is not a BCP 47 language tag (such as \"en-US\" or \"de\"): \(value.text)")
        }
        return tag
    }

    /// A whole number in `range` (`2`, `2.0` and `2e0` alike).
    package static func integer(_ value: JSONValue, key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
        // Int(exactly:) rather than comparing Doubles: Double(Int.max) rounds up to 2⁶³,
        // which Int(_:) would trap on.
        guard let integer = Int(exactly: try number(value, key: key)), range.contains(integer) else {
            throw JSONFieldError(key: key, problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.text)")
        }
        return integer
    }

    /// `nil` for an absent key or null, else one of `T`'s raw values.
    package static func optionalEnum<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, key: String,
                                                                        _ type: T.Type) throws(JSONFieldError) -> T?
    where T.RawValue == String {
        guard let value, value != .null else { return nil }
        let names = T.allCases.map(\.rawValue)
        guard case .string(let name) = value, let parsed = T(rawValue: name) else {
            throw JSONFieldError(key: key, problem: "must be one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), got \(value.text)")
        }
        return parsed
    }

    private static func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> JSONFieldError {
        JSONFieldError(key: key, problem: "must be \(expected), got \(value.kind)")
    }
}

extension JSONSyntaxError {
    /// The id of the case the document is, when its `"id"` was read before the error
    /// (and is not itself the key written twice), so that the error row names the case.
    package var caseID: CaseID? {
        guard duplicateKey != "id", let id = membersBefore?["id"] else { return nil }
        return (try? JSONField.caseID(id)) ?? nil
    }
}
