import Foundation
import Testing

@Suite("textmeasure breaks")
struct BreaksCommandTests {
    @Test("human output marks soft (÷) and mandatory (⏎) opportunities, then lists the offsets")
    func human() throws {
        let run = try CLI.run("breaks", "Hello world.\nNext")
        #expect(run.status == 0)
        // UAX #14: break after the spaces (LB18), after a hard line break (LB6/LB5), and at the end (LB3).
        #expect(run.output == "Hello ÷world.␊⏎\nNext÷\n6 13 17\n")
    }

    @Test("both rule sets, from standard input", arguments: ["browser", "uax14"])
    func rules(_ rules: String) throws {
        let run = try CLI.run("breaks", "--rules", rules, "-", stdin: "ab cd-ef")
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("\n3 6 8\n"))   // after the space, after the hyphen (LB21), the end
    }

    @Test("--jsonl: one result per line, in order, ids echoed, a bad line in its place")
    func jsonl() throws {
        let input = """
            {"id": "a", "text": "a b"}
            not json
            {"id": 7, "text": 5}
            {"text": "x\\ny"}
            {"id": "😀", "text": "😀😀"}

            """
        let run = try CLI.run("breaks", "--jsonl", stdin: input)
        #expect(run.status == 0)
        let lines = try CLI.jsonLines(run)
        #expect(lines.count == 5)
        #expect(lines[0]["id"] as? String == "a" && lines[0]["breaks"] as? [Int] == [2, 3])
        #expect(lines[1]["id"] is NSNull && (lines[1]["error"] as? String)?.hasPrefix("not valid JSON") == true)
        #expect(lines[2]["id"] as? Int == 7 && (lines[2]["error"] as? String)?.contains("\"text\"") == true)
        #expect(lines[3]["id"] is NSNull && lines[3]["breaks"] as? [Int] == [2, 3])
        #expect(lines[4]["id"] as? String == "😀" && lines[4]["breaks"] as? [Int] == [2, 4])   // UTF-16 offsets
    }

    @Test("usage errors", arguments: [["breaks", "--rules", "css", "x"], ["breaks", "--jsonl", "x"], ["breaks", "a", "b"]])
    func usage(_ arguments: [String]) throws {
        try expectFailure(arguments, status: 2)
    }

    @Test("invalid UTF-8 on standard input is an input error")
    func invalidUTF8() throws {
        try expectFailure(["breaks", "-"], status: 1, stdin: Data([0x61, 0x20, 0xC3]))
        #expect(try CLI.run(["breaks", "-"], stdin: Data([0xC3])).stderr.contains("not valid UTF-8"))
    }
}
