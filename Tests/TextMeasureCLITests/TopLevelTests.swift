import Foundation
import Testing

@Suite("textmeasure: help and usage")
struct TopLevelTests {
    static let commands = ["measure", "explain", "breaks", "batch"]

    @Test("--help on every command: its usage on stdout, exit 0", arguments: commands)
    func commandHelp(_ command: String) throws {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
            let run = try CLI.run(arguments, stdin: nil)
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            #expect(run.output.hasPrefix("usage: textmeasure \(command)"))
        }
    }

    @Test("the top-level help lists every command")
    func topLevelHelp() throws {
        let run = try CLI.run("--help")
        #expect(run.status == 0)
        for command in Self.commands { #expect(run.output.contains("\n  \(command) ")) }
    }

    @Test("--version: the library's version and the embedded fonts this build has")
    func version() throws {
        let run = try CLI.run("--version")
        #expect(run.status == 0 && run.stderr.isEmpty)
        let root = CLI.packageRoot.path
        let source = try String(contentsOfFile: root + "/Sources/TextMeasure/Version.swift", encoding: .utf8)
        let version = try #require(source.split(separator: "\"").dropFirst().first, "the version string in Version.swift")
        let list = try String(contentsOfFile: root + "/Sources/CTextMeasureFonts/EmbeddedFontList.h", encoding: .utf8)
        let fonts = list.components(separatedBy: ".ttf\")").count - 1
        #expect(fonts > 1)
        #expect(run.output == "textmeasure \(version), \(fonts) embedded fonts\n")
    }

    @Test("no command, or an unknown one: usage on stderr, exit 2, nothing on stdout", arguments: [[], ["frobnicate"]])
    func usage(_ arguments: [String]) throws {
        let run = try CLI.run(arguments, stdin: nil)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("usage: textmeasure <command>"))
    }

    @Test("the help of commands that read standard input says what invalid UTF-8 does",
          arguments: ["measure", "explain", "breaks", "batch"])
    func utf8Documented(_ command: String) throws {
        #expect(try CLI.run(command, "--help").output.contains("invalid UTF-8"))
    }
}
