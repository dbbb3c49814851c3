import TextMeasure

/// Writes `batch`'s output lines (and `measure --json`'s document) by hand, byte for byte what
/// `JSONOutput.line` (JSONEncoder, sorted keys, slashes unescaped) writes for them, without an
/// encoder's boxing and dictionary per line: at a few microseconds a case, that encoder was an
/// eighth of a batch's time. (`measure` also writes its document a piece at a time.)
///
/// Strings are escaped as RFC 8259 requires and as JSONEncoder does: `"` and `\`, the control
/// characters U+0000–U+001F (`\b \f \n \r \t` short, the others `\u00XX` in lowercase hex),
/// everything else (U+007F, U+2028, non-BMP characters) as UTF-8. Numbers are written as
/// JSONEncoder writes them: a Double's shortest round-trip text, ".0" dropped.
/// (`JSONWriterTests` compares the two on awkward strings and numbers.)
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(128) }

    /// The line written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets what was written, to write more with the same memory.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"name":`, for a key among sorted keys.
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)   // UTF-8 bytes of U+007F and beyond, as they are
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number (the caller checks: JSON has no NaN or infinity).
    mutating func number(_ value: Double) {
        var text = value.description
        text.withUTF8 { digits in
            let integral = digits.count > 2 && digits[digits.count - 2] == UInt8(ascii: ".") && digits.last == UInt8(ascii: "0")
            bytes.append(contentsOf: integral ? UnsafeBufferPointer(rebasing: digits.dropLast(2)) : digits)
        }
    }

    mutating func null() { raw("null") }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// A case id as the input wrote it; `null` for none.
    mutating func id(_ id: CaseID?) {
        switch id {
        case nil: null()
        case .string(let value): string(value)
        case .integer(let value): integer(value)
        case .number(let text): bytes.append(contentsOf: text.utf8)   // checked JSON number text
        }
    }

    /// `{"height":…,"width":…}`, as the encoder writes a `Size`.
    mutating func size(_ size: Size) {
        raw("{")
        key("height", first: true)
        number(size.height)
        key("width")
        number(size.width)
        raw("}")
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension JSONLine.Failure {
    /// `{"error":…,"id":…}`, as `JSONOutput.line` writes it.
    var jsonLine: String {
        var writer = JSONWriter()
        writer.raw("{")
        writer.key("error", first: true)
        writer.string(error)
        writer.key("id")
        writer.id(id)
        writer.raw("}")
        return writer.text
    }
}

extension MeasurementResult {
    /// The result as `JSONOutput.line` writes it, with `"id": null` when it has none; nil
    /// when a number is not finite (JSON has none: the caller then lets the encoder decide).
    var jsonLine: String? {
        guard height.isFinite, width.isFinite, usedWidth.isFinite,
              boxes?.allSatisfy({ $0.allSatisfy(\.isFinite) }) ?? true else { return nil }
        var writer = JSONWriter()
        writer.raw("{")
        if let boxes {
            writer.key("boxes", first: true)
            writer.array(boxes) { writer, box in writer.array(box) { $0.number($1) } }
            writer.key("height")
        } else {
            writer.key("height", first: true)
        }
        writer.number(height)
        writer.key("id")
        writer.id(id)
        writer.key("lineStarts")
        writer.array(lineStarts) { $0.integer($1) }
        writer.key("lines")
        writer.integer(lines)
        if let missingGlyphs {
            writer.key("missingGlyphs")
            writer.integer(missingGlyphs)
        }
        if let truncated {
            writer.key("truncated")
            writer.bool(truncated)
        }
        writer.key("usedWidth")
        writer.number(usedWidth)
        writer.key("width")
        writer.number(width)
        writer.raw("}")
        return writer.text
    }
}
