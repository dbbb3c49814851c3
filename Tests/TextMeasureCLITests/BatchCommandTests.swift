import Foundation
import Testing

@Suite("textmeasure batch")
struct BatchCommandTests {
    /// One batch output line, as issue 3 defines it.
    struct Result: Decodable {
        var lines: Int
        var height: Double
        var width: Double
        var usedWidth: Double
        var lineStarts: [Int]
    }

    func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("a result per line, in order; bad lines yield an error in place, with their id; the batch goes on")
    func badLinesInPlace() throws {
        let input = [
            #"{"id": "first", "text": "Hello, world", "width": 390}"#,
            #"this is not JSON"#,
            #"{"id": 2, "text": 42, "width": 100}"#,
            #"{"id": "zero", "text": "x", "width": 0}"#,
            #"{"id": "font", "text": "x", "width": 100, "fonts": ["/nonexistent/font.ttf"]}"#,
            #"{"id": "no width", "text": "x"}"#,
            #"[1, 2, 3]"#,
            #"{"text": "no id here", "width": 100}"#,
            #"{"id": "last", "text": "Hello, world", "width": 50}"#,
        ].joined(separator: "\n") + "\n"
        let run = try CLI.run("batch", stdin: input)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = try CLI.jsonLines(run)
        try #require(lines.count == 9)

        #expect(lines[0]["id"] as? String == "first" && lines[0]["lines"] as? Int == 1)
        #expect(lines[1]["id"] is NSNull && (lines[1]["error"] as? String)?.hasPrefix("not valid JSON") == true)
        #expect(lines[2]["id"] as? Int == 2 && (lines[2]["error"] as? String)?.hasPrefix("\"text\" must be a string") == true)
        #expect(lines[3]["id"] as? String == "zero" && (lines[3]["error"] as? String)?.contains("must be greater than 0") == true)
        #expect(lines[4]["id"] as? String == "font" && (lines[4]["error"] as? String)?.contains("/nonexistent/font.ttf") == true)
        #expect(lines[5]["id"] as? String == "no width" && lines[5]["error"] as? String == "missing \"width\"")
        #expect(lines[6]["id"] is NSNull && (lines[6]["error"] as? String)?.hasPrefix("not a JSON object") == true)
        #expect(lines[7]["id"] is NSNull && lines[7]["lines"] as? Int == 1)   // "id": null, present
        #expect(lines[8]["id"] as? String == "last" && (lines[8]["lines"] as? Int ?? 0) > 1)
        for (index, line) in lines.enumerated() {
            #expect((line["error"] == nil) == [0, 7, 8].contains(index))
        }
    }

    @Test("each result equals measure's answer for the same case")
    func agreesWithMeasure() throws {
        let cases: [(text: String, width: Double, extra: [String: Any], flags: [String])] = [
            (paragraph, 390, [:], []),
            (paragraph, 200, ["size": 15, "lineHeight": 20], ["--size", "15", "--line-height", "20px"]),
            (paragraph, 250, ["insets": [8, 4, 8, 4], "padding": 5], ["--inset", "8,4,8,4", "--padding", "5"]),
            ("日本語の文章と English words と 😀 emoji\nand a second paragraph", 120, ["rules": "uax14"], ["--rules", "uax14"]),
        ]
        var input = ""
        for (index, item) in cases.enumerated() {
            input += try json(["id": index, "text": item.text, "width": item.width].merging(item.extra) { $1 }) + "\n"
        }
        let run = try CLI.run("batch", "--jobs", "2", stdin: input)
        let results = try run.output.split(separator: "\n").map { try JSONDecoder().decode(Result.self, from: Data($0.utf8)) }
        try #require(results.count == cases.count)
        for (item, result) in zip(cases, results) {
            let measured = try CLI.decode(MeasureJSON.self, try CLI.run(["measure", "--width", "\(item.width)", "--json"]
                                                                         + item.flags + [item.text], stdin: nil))
            #expect(result.width == measured.size.width)
            #expect(result.height == measured.size.height)
            #expect(result.lines == measured.lines.count)
            #expect(result.lineStarts == measured.lines.map(\.start))
            #expect(result.usedWidth == measured.lines.map(\.width).max())
            #expect(result.lines > 1, "every case here wraps")
        }
    }

    @Test("order holds with many jobs and lines of very different cost, and equals the one-job output")
    func orderUnderParallelism() throws {
        var input = ""
        for index in 0..<400 {
            // Long and short lines interleaved, so that jobs finish out of order.
            let text = index % 7 == 0 ? String(repeating: paragraph + " ", count: 20) : "line \(index)"
            input += try json(["id": "case-\(index)", "text": text, "width": 100 + index % 300]) + "\n"
        }
        let parallel = try CLI.run("batch", "--jobs", "4", stdin: input)
        let serial = try CLI.run("batch", "--jobs", "1", stdin: input)
        #expect(parallel.status == 0)
        let ids = try CLI.jsonLines(parallel).map { $0["id"] as? String }
        #expect(ids == (0..<400).map { "case-\($0)" })
        #expect(parallel.stdout == serial.stdout)
    }

    @Test("a line of invalid UTF-8 fails alone; a last line without a newline counts")
    func invalidUTF8Line() throws {
        var input = Data(#"{"id": 1, "text": "ok", "width": 100}"#.utf8 + [0x0A])
        input += Data(#"{"id": 2, "text": "bad "#.utf8 + [0xFF, 0xFE] + #"", "width": 100}"#.utf8 + [0x0A])
        input += Data(#"{"id": 3, "text": "ok", "width": 100}"#.utf8)
        let lines = try CLI.jsonLines(try CLI.run(["batch"], stdin: input))
        try #require(lines.count == 3)
        #expect(lines[0]["id"] as? Int == 1 && lines[0]["error"] == nil)
        #expect(lines[1]["error"] as? String == "not valid UTF-8")
        #expect(lines[2]["id"] as? Int == 3 && lines[2]["error"] == nil)
    }

    @Test("maxLines and lineBreakMode are honoured, with \"truncated\"")
    func lineLimit() throws {
        let input = try json(["id": "preview", "text": paragraph, "width": 200, "maxLines": 2, "lineBreakMode": "truncate-tail"])
            + "\n" + json(["id": "bad mode", "text": paragraph, "width": 200, "lineBreakMode": "ellipsis"]) + "\n"
        let lines = try CLI.jsonLines(try CLI.run("batch", stdin: input))
        try #require(lines.count == 2)
        #expect(lines[0]["lines"] as? Int == 2 && lines[0]["truncated"] as? Bool == true)
        #expect(lines[1]["id"] as? String == "bad mode" && (lines[1]["error"] as? String)?.contains("lineBreakMode") == true)
    }

    @Test("fonts given by path are loaded and used")
    func givenFonts() throws {
        let font = CLI.packageRoot.appendingPathComponent("Fonts/NotoSans-Regular.ttf").path
        let input = try json(["id": "embedded", "text": paragraph, "width": 300]) + "\n"
            + json(["id": "file", "text": paragraph, "width": 300, "fonts": [font]]) + "\n"
            + json(["id": "file again", "text": "Hello", "width": 300, "fonts": [font, font]]) + "\n"
        let lines = try CLI.jsonLines(try CLI.run("batch", stdin: input))
        try #require(lines.count == 3)
        #expect(lines.allSatisfy { $0["error"] == nil })
        #expect(lines[0]["lineStarts"] as? [Int] == lines[1]["lineStarts"] as? [Int])
    }

    @Test("streams: answers a line before its input ends")
    func streams() throws {
        let executable = try #require(CLI.executable)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["batch"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        for index in 0..<3 {
            input.fileHandleForWriting.write(Data(#"{"id": \#(index), "text": "Hello, world", "width": 50}"#.utf8 + [0x0A]))
            let line = try #require(readLine(from: output.fileHandleForReading.fileDescriptor, timeout: 20),
                                    "no answer while the input stays open")
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["id"] as? Int == index)
        }
    }

    /// One line from a pipe, or nil if none comes within `timeout` seconds.
    func readLine(from descriptor: Int32, timeout: Int32) -> String? {
        var bytes: [UInt8] = []
        while bytes.last != 0x0A {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) == 1 else { return nil }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            bytes.append(byte)
        }
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    @Test("usage errors", arguments: [["batch", "--jobs", "0"], ["batch", "--jobs", "many"], ["batch", "--jobs", "1025"], ["batch", "cases.jsonl"]])
    func usage(_ arguments: [String]) throws {
        try expectFailure(arguments, status: 2)
    }
}
