// Writes benchmark cases (`textmeasure bench` / `batch` JSONL) built from the shared
// corpora, so that no corpus text is copied into the repository.
//
//   swift Benchmarks/make-cases.swift chat [CORPORA_DIR]          chat-sized messages, 7 scripts
//   swift Benchmarks/make-cases.swift paragraph BYTES [CORPORA_DIR]   one English paragraph of BYTES
//
// Deterministic: the same corpora give the same cases. A summary goes to stderr.
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

func read(_ directory: String, _ file: String) -> String {
    guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else {
        fail("cannot read \(directory)/\(file)")
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
    let sources: [(file: String, count: Int)] = [
        ("en-gatsby-opening.txt", 400), ("zh-guxiang.txt", 60), ("ja-rashomon.txt", 60),
        ("ko-sonagi.txt", 50), ("ar-al-bukhala.txt", 60), ("hi-eidgah.txt", 60), ("th-nithan-vetal-story-1.txt", 60),
    ]
    let emoji = ["👍", "😂", "❤️", "🎉", "👋🏽", "🇫🇷", "👨‍👩‍👧", "🙏", "😅", "🔥"]
    let widths = [240.0, 260, 280, 300, 320, 358]
    var random = SplitMix64(state: 42)
    var lines: [String] = []
    for (file, count) in sources {
        let pool = sentences(of: read(directory, file))
        guard !pool.isEmpty else { fail("\(file) has no sentences") }
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
            let id = "\(file.prefix(2))-\(lines.count)"
            lines.append(jsonLine(["id": id, "text": message, "width": widths[random.below(widths.count)]]))
        }
    }
    return lines
}

/// One English paragraph of about `bytes` UTF-8 bytes: the corpus repeated, newlines as spaces.
func paragraphCase(_ directory: String, bytes: Int) -> [String] {
    let source = read(directory, "en-gatsby-opening.txt")
        .split(whereSeparator: \.isNewline).joined(separator: " ")
    var text = ""
    text.reserveCapacity(bytes + source.utf8.count)
    while text.utf8.count < bytes { text += source + " " }
    let cut = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
    text = String(text[..<cut])
    return [jsonLine(["id": "paragraph-\(bytes)", "text": text, "width": 390])]
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { fail("usage: make-cases.swift chat|paragraph BYTES [CORPORA_DIR]") }
arguments.removeFirst()
let lines: [String]
switch mode {
case "chat":
    lines = chatCases(arguments.first ?? "/work/shared/corpora")
case "paragraph":
    guard let bytes = arguments.first.flatMap(Int.init), bytes > 0 else { fail("paragraph needs a byte count") }
    lines = paragraphCase(arguments.dropFirst().first ?? "/work/shared/corpora", bytes: bytes)
default:
    fail("unknown mode \(mode)")
}
FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
