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
