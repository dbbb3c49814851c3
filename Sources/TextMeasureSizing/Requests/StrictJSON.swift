/// A JSON value read by `StrictJSON`: numbers keep the text they were written
/// with, objects their members in order.
///
/// Foundation's `JSONDecoder` cannot serve the case reader: it lets the first of two
/// duplicate keys win without a word, rewrites a number (`1.0` comes back `1`), and
/// calls a number too large for a `Double` "not valid JSON".
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number exactly as written (`-0.0`, `1e2`), already checked against JSON's grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// What kind of value this is, for messages: "a string", "an array", ...
    package var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members in the order written; no key occurs twice.
package struct JSONObject: Sendable, Equatable {
    /// One member and the byte offset of its key in the document.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSONValue
        package var offset: Int
    }

    package var members: [Member]

    /// The value of `key`, if present.
    package subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }
}

/// Where and why a document is not JSON.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset, from 0, of the first byte that does not fit.
    package var offset: Int
    package var reason: String
    /// The key an object has twice, when that is the error.
    package var duplicateKey: String?
    /// The members of the document's outermost object read before the error, so that a
    /// reader can still name what the document is about (a case's id).
    package var membersBefore: JSONObject?

    package var description: String { "not valid JSON at byte \(offset): \(reason)" }
}

/// A small strict JSON reader (RFC 8259) over UTF-8 bytes.
///
/// Strict where JSON leaves a reader free, so that a mistake is reported rather than
/// guessed at: a key twice in one object is an error; so are a lone surrogate escape,
/// control characters in strings and anything after the value. A UTF-8 byte order mark
/// before the value is skipped. Nesting is limited to `maximumDepth`, so hostile input
/// cannot exhaust the stack.
package struct StrictJSON {
    /// The deepest nesting of arrays and objects read.
    package static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `bytes` as one JSON document.
    package static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var reader = StrictJSON(Array(bytes))
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { throw reader.error("more after the JSON value") }
        return value
    }

    private func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? position, reason: reason)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw error("the document ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(Self.describe(byte))")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw error("expected \(word)")
        }
        position += expected.count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONObject {
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        position += 1   // {
        var members: [JSONObject.Member] = []
        var keys: Set<String> = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return JSONObject(members: members) }
        do throws(JSONSyntaxError) {
            while true {
                skipWhitespace()
                let offset = position
                guard current == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                let key = try string()
                guard keys.insert(key).inserted else {
                    var duplicate = error("duplicate key \"\(key)\": each key may appear once", at: offset)
                    duplicate.duplicateKey = key
                    throw duplicate
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                position += 1
                skipWhitespace()
                members.append(JSONObject.Member(key: key, value: try value(depth: depth), offset: offset))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return JSONObject(members: members)
                default: throw error("expected ',' or '}' in an object")
                }
            }
        } catch {
            var error = error
            if depth == 1, error.membersBefore == nil { error.membersBefore = JSONObject(members: members) }
            throw error
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        position += 1   // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return elements }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return elements
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    /// A number's lexeme, checked against JSON's grammar (no `+`, no leading zeros,
    /// no hex, no `NaN`): `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = position
        func digits(_ reader: inout StrictJSON) -> Int {
            let first = reader.position
            while let byte = reader.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { reader.position += 1 }
            return reader.position - first
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits(&self) > 0 else { throw error("a number needs a digit here") }
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw error("a number needs a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw error("a number needs a digit in its exponent") }
        }
        if let byte = current, Self.isWordByte(byte) {
            throw error("a number cannot go on with \(Self.describe(byte)) (only decimal numbers are JSON)")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let open = position
        position += 1   // "
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw error("a string starting here is not closed", at: open) }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                // Escapes produce only scalars and the raw bytes were checked to be UTF-8.
                guard let string = String(validating: utf8, as: UTF8.self) else { throw error("not valid UTF-8", at: open) }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &utf8)
            case 0..<0x20:
                throw error("a control character (\(Self.describe(byte))) must be escaped inside a string")
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw error("the document ends inside an escape") }
        position += 1
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A,
                                      0x72: 0x0D, 0x74: 0x09]
        if let replacement = simple[byte] { utf8.append(replacement); return }
        guard byte == UInt8(ascii: "u") else { throw error("unknown escape \\\(Self.describe(byte))", at: position - 2) }
        let escapeStart = position - 2
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error("lone surrogate escape: a high surrogate needs a low one after it", at: escapeStart)
            }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("lone surrogate escape: a high surrogate needs a low one after it", at: escapeStart)
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            throw error("lone surrogate escape: a low surrogate without a high one", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("escape is not a character", at: escapeStart) }
        utf8.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw error("\\u needs four hex digits") }
            code = code << 4 | digit
            position += 1
        }
        return code
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// A byte for a message: the character if printable ASCII, else its hex value.
    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
