// Writes benchmark cases (`textmeasure bench` / `batch` JSONL) built from a folder of
// texts, one file per script named by its language code first (`en-….txt` or `en.txt`):
// the shared corpora beside the repository, whose texts are not copied into it, or the
// project's own `Tests/Fixtures/texts`.
//
//   swift Benchmarks/make-cases.swift chat TEXTS_DIR               chat-sized messages, 7 scripts
//   swift Benchmarks/make-cases.swift paragraph BYTES TEXTS_DIR    one English paragraph of BYTES
//   swift Benchmarks/make-cases.swift styled CASES.jsonl          the cases with three styled runs each
//
// Deterministic: the same texts give the same cases. A summary goes to stderr.
import Foundation

/// A small deterministic generator (SplitMix64), so the cases never depend on the platform's random.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("make-cases: \(message)\n".utf8))
    exit(2)
}

/// The text of `language` in `directory`: the first file, by name, that starts with the
/// language code and ends in `.txt`.
func read(_ directory: String, language: String) -> String {
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    guard let file = files.first(where: { $0.hasSuffix(".txt") && ($0 == language + ".txt" || $0.hasPrefix(language + "-")) }),
          let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else {
        fail("no readable \(language).txt or \(language)-*.txt in \(directory)")
    }
    return text
}

func jsonLine(_ fields: [String: Any]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]),
          let line = String(data: data, encoding: .utf8) else { fail("cannot encode a case") }
    return line
}

/// Sentences of a text: cut after full-width sentence punctuation (。！？), at a space
/// after Latin, Devanagari or closing-quote punctuation, and, in scripts that mark
/// sentences with spaces alone (Thai), at a space once the sentence is long enough.
func sentences(of text: String) -> [String] {
    let fullWidthEnders: Set<Character> = ["。", "！", "？"]
    let spacedEnders: Set<Character> = [".", "!", "?", "…", "”", "।", "’"]
    var result: [String] = []
    for paragraph in text.split(separator: "\n") {
        let hasPunctuation = paragraph.contains { fullWidthEnders.contains($0) || spacedEnders.contains($0) }
        var current = ""
        for character in paragraph {
            if character == " ", let last = current.last,
               spacedEnders.contains(last) || (!hasPunctuation && current.count > 40) {
                result.append(current)
                current = ""
                continue
            }
            if current.isEmpty, character == " " { continue }
            current.append(character)
            if fullWidthEnders.contains(character) {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
    }
    return result
}

/// Chat messages: one to three consecutive sentences, long ones cut at a space, some
/// with an emoji or a second line, at bubble widths. Lengths center on ~65 UTF-16 units.
func chatCases(_ directory: String) -> [String] {
    let sources: [(language: String, count: Int)] = [
        ("en", 400), ("zh", 60), ("ja", 60), ("ko", 50), ("ar", 60), ("hi", 60), ("th", 60),
    ]
    let emoji = ["👍", "😂", "❤️", "🎉", "👋🏽", "🇫🇷", "👨‍👩‍👧", "🙏", "😅", "🔥"]
    let widths = [240.0, 260, 280, 300, 320, 358]
    var random = SplitMix64(state: 42)
    var lines: [String] = []
    for (language, count) in sources {
        let pool = sentences(of: read(directory, language: language))
        guard !pool.isEmpty else { fail("the \(language) text has no sentences") }
        var index = 0
        for _ in 0..<count {
            var message = ""
            let wanted = 8 + random.below(100)          // target length in UTF-16 units
            while message.utf16.count < wanted {
                message += (message.isEmpty ? "" : " ") + pool[index % pool.count]
                index += 1
            }
            if message.utf16.count > wanted * 3 / 2 {
                // Too long: keep about `wanted` units, ending at a space where there is one.
                let head = String(message.prefix(wanted))
                message = head.lastIndex(of: " ").map { String(head[..<$0]) } ?? head
            }
            switch random.below(10) {
            case 0, 1: message += " " + emoji[random.below(emoji.count)]
            case 2: message += "\n" + emoji[random.below(emoji.count)]
            default: break
            }
            let id = "\(language)-\(lines.count)"
            lines.append(jsonLine(["id": id, "text": message, "width": widths[random.below(widths.count)]]))
        }
    }
    return lines
}

/// One English paragraph of about `bytes` UTF-8 bytes: the text repeated, newlines as spaces.
func paragraphCase(_ directory: String, bytes: Int) -> [String] {
    let source = read(directory, language: "en")
        .split(whereSeparator: \.isNewline).joined(separator: " ")
    var text = ""
    text.reserveCapacity(bytes + source.utf8.count)
    while text.utf8.count < bytes { text += source + " " }
    let cut = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
    text = String(text[..<cut])
    return [jsonLine(["id": "paragraph-\(bytes)", "text": text, "width": 390])]
}

/// The cases of a JSONL file with three runs each over their thirds: a larger size, a
/// letter spacing and a font feature (the mix styled text is timed with against the
/// same texts plain). A third's end moves off the middle of a surrogate pair.
func styledCases(_ file: String) -> [String] {
    guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else { fail("cannot read \(file)") }
    return contents.split(separator: "\n").map { line in
        guard var fields = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
              let text = fields["text"] as? String else { fail("not a case: \(line)") }
        let units = Array(text.utf16)
        func cut(_ offset: Int) -> Int {
            offset > 0 && offset < units.count && UTF16.isTrailSurrogate(units[offset]) ? offset + 1 : offset
        }
        let bounds = [0, cut(units.count / 3), cut(2 * units.count / 3), units.count]
        let styles: [[String: Any]] = [["size": 19], ["letterSpacing": 0.5], ["features": ["-kern"]]]
        fields["spans"] = zip(styles, 0..<3).compactMap { style, index in
            bounds[index] < bounds[index + 1]
                ? style.merging(["start": bounds[index], "end": bounds[index + 1]]) { $1 } : nil
        }
        return jsonLine(fields)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: make-cases.swift chat TEXTS_DIR | paragraph BYTES TEXTS_DIR | styled CASES.jsonl"
guard let mode = arguments.first else { fail(usage) }
arguments.removeFirst()
let lines: [String]
switch mode {
case "chat":
    guard let directory = arguments.first else { fail(usage) }
    lines = chatCases(directory)
case "paragraph":
    guard let bytes = arguments.first.flatMap(Int.init), bytes > 0 else { fail("paragraph needs a byte count") }
    guard let directory = arguments.dropFirst().first else { fail(usage) }
    lines = paragraphCase(directory, bytes: bytes)
case "styled":
    guard let file = arguments.first else { fail(usage) }
    lines = styledCases(file)
default:
    fail("unknown mode \(mode)")
}
FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
