import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A long `textmeasure batch` keeps a flat memory profile: nothing a case allocates
/// (ICU, HarfBuzz and FreeType objects included) outlives it. Measured in a child
/// process, whose resident set other tests running in parallel cannot disturb.
/// (LeakSanitizer checks the same object by object: `scripts/test-sanitizers address`.)
@Suite("textmeasure batch memory")
struct BatchMemoryTests {
    /// Cases from the project's texts in every script (`Tests/Fixtures/texts`): paragraph
    /// prefixes of 1 to 400 characters, three sizes, widths from 60 to 760 px, the
    /// embedded fonts or font files.
    static func cases(_ count: Int) throws -> Data {
        let paragraphs = try CLI.fixtureParagraphs()
        let fonts = CLI.packageRoot.appendingPathComponent("Fonts").path
        let fontChoices: [[String]?] = [nil, [fonts + "/NotoSans-Regular.ttf"],
                                        [fonts + "/NotoSansThai-Regular.ttf", fonts + "/NotoSans-Regular.ttf"]]
        var lines: [String] = []
        lines.reserveCapacity(count)
        for i in 0..<count {
            var object: [String: Any] = [
                "id": i,
                "text": String(paragraphs[Int.random(in: 0..<paragraphs.count)].prefix(Int.random(in: 1...400))),
                "width": Int.random(in: 60...760), "size": [13, 17, 24][i % 3],
            ]
            if let paths = fontChoices[i % 3] { object["fonts"] = paths }
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Runs `textmeasure batch` on `input`, output discarded, and returns its peak
    /// resident set in KiB: its VmHWM, sampled from /proc while it runs. (Not `wait4`'s
    /// `ru_maxrss`: a child spawned from this process starts from this process's peak.)
    static func peakResidentKiB(batch input: Data) throws -> Int {
        let executable = try #require(CLI.executable, "build the textmeasure product first (swift build)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString).jsonl")
        try input.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, file.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let arguments = [executable.path, "batch", "--jobs", "2"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, executable.path, &actions, nil, &argv, environ) == 0)
        var peak = 0
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            let report = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            if let line = report.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) {
                peak = max(peak, kib)
            }
            usleep(20_000)
        }
        #expect(status == 0)
        return peak
    }

    /// Cases in the long run: 10,000 by default, TEXTMEASURE_BATCH_MEMORY_CASES to change it.
    static let longRun = ProcessInfo.processInfo.environment["TEXTMEASURE_BATCH_MEMORY_CASES"].flatMap { Int($0) } ?? 10_000

    /// Under AddressSanitizer (`scripts/test-sanitizers address` builds the CLI with it too)
    /// freed memory waits in a quarantine, so the peak says nothing; the runs still
    /// happen, and LeakSanitizer fails the child, and so the test, on any leak.
    static let underAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    @Test("the peak memory of a long batch is that of a batch a tenth as long")
    func flatMemory() throws {
        let short = try Self.peakResidentKiB(batch: Self.cases(Self.longRun / 10))
        let long = try Self.peakResidentKiB(batch: Self.cases(Self.longRun))
        print("batch memory: \(Self.longRun / 10) cases peak \(short) KiB, \(Self.longRun) cases peak \(long) KiB")
        #expect(short > 10_000)                                   // it measured something
        #expect(long - short < 8 * 1024 || Self.underAddressSanitizer, "peak grew from \(short) to \(long) KiB")
    }
}
