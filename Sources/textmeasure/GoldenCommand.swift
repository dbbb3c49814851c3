import Foundation
import TextMeasure
import TextMeasureTestingCore

/// `textmeasure golden record|verify`: golden-height files for CI.
enum GoldenCommand {
    static let help = """
        usage: textmeasure golden record CASES.jsonl -o GOLDEN.json
               textmeasure golden verify GOLDEN.json [--render DIR] [--scale S]

        Golden heights for CI: record what cases measure, then verify they still do.

        record  measures each case of CASES.jsonl (one JSON case per line, the batch
                format, read as strictly: {"id", "text", "fonts", "embeddedFallback", "size",
                "width", "lineHeight", "insets", "padding", "rules", "maxLines", "lineBreakMode",
                "emptyLines"}; an unknown key is an error) and writes GOLDEN.json:
                the cases, with font paths made relative to GOLDEN.json, and what each
                measured (height, line count, line starts, the lines as shown, whether
                text was truncated, the TextMeasure version). A case without an id gets
                its line number; blank lines are skipped. Font paths in CASES.jsonl
                start at the current directory; no fonts means the embedded set.
        verify  measures every case of GOLDEN.json again and compares (a file with
                no cases, of another format or with an unknown key is an error). Prints each case
                that differs, by id, with the expected and actual height and the lines
                side by side.

        options:
          -o, --output PATH   the golden file to write (record; required): a regular file,
                              replaced atomically, or a symlink to one, written through
          --render DIR        write DIR/<id>.png for each failing case: the recorded
                              breaks beside today's (verify; an id longer than 200
                              bytes is cut and ends in a hash of itself)
          --scale S           device pixels per px of those pictures (default 2)

        Exit status: 0 recorded, or every case matches; 1 a case differs or cannot be
        measured, or bad input; 2 usage error.
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let longOutput = try arguments.value("--output")
        let output = try arguments.value("-o") ?? longOutput
        let renderDirectory = try arguments.value("--render")
        let scale = try arguments.number("--scale")
        let positionals = try arguments.positionals()
        guard let action = positionals.first else { throw .usage("golden needs an action: record or verify") }
        guard action == "record" || action == "verify" else {
            throw .usage("unknown golden action '\(action)': record or verify")
        }
        guard positionals.count == 2 else { throw .usage("golden \(action) needs one file") }
        if action == "record" {
            guard renderDirectory == nil, scale == nil else { throw .usage("--render and --scale go with golden verify") }
            guard let output else { throw .usage("golden record needs -o GOLDEN.json") }
            try record(positionals[1], to: output)
        } else {
            guard output == nil else { throw .usage("-o goes with golden record") }
            try verify(positionals[1], renderDirectory: renderDirectory, scale: scale ?? 2)
        }
    }

    private static func record(_ casesPath: String, to output: String) throws(CLIError) {
        let cases = try CaseFile.read(casesPath)
        let report: GoldenReport
        do { report = try GoldenHeights(path: output).record(cases) } catch { throw .input(error.description) }
        try StandardOutput.writeLine(report.description)
    }

    private static func verify(_ path: String, renderDirectory: String?, scale: Double) throws(CLIError) {
        let golden = GoldenHeights(path: path)
        let report: GoldenReport
        do { report = try golden.verify() } catch { throw .input(error.description) }
        try StandardOutput.writeLine(report.description)
        if let renderDirectory, !report.mismatches.isEmpty {
            try writePictures(of: report.mismatches, to: renderDirectory, fonts: golden.fonts, scale: scale)
        }
        guard report.passed else {
            throw .input("\(report.mismatches.count) of \(report.caseCount) cases do not match \(report.path)")
        }
    }

    /// Writes DIR/<id>.png for each mismatch that can be drawn.
    private static func writePictures(of mismatches: [GoldenMismatch], to directory: String, fonts: FontCache,
                                      scale: Double) throws(CLIError) {
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw .input("cannot create \(directory): \(error.localizedDescription)")
        }
        // `moved/` and `moved` name the same folder; join without doubling the slash.
        var folder = Substring(directory)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        let prefix = folder == "/" ? "/" : folder + "/"
        var used: Set<String> = []
        for mismatch in mismatches {
            // Two ids can make one name: number the later ones.
            let name = PictureName.base(for: mismatch.id)
            var unique = name, suffix = 2
            while !used.insert(unique).inserted { unique = "\(name)-\(suffix)"; suffix += 1 }
            let path = prefix + unique + ".png"
            let wrote: Bool
            do { wrote = try mismatch.writeComparisonImage(to: path, fonts: fonts, scale: scale) } catch {
                throw .input("cannot draw case \(mismatch.id): \(error)")
            }
            if wrote { try StandardOutput.writeLine("wrote \(path)") }
        }
    }
}
