import Foundation
import Testing

/// Golden files are regular files: `golden record -o` writes through a symlink and
/// refuses anything else, `golden verify` says what a path is when it is not one, and
/// a failing case's picture gets a file name however long its id (issue 17).
@Suite("textmeasure golden: file kinds and picture names")
struct GoldenFileTests {
    /// A new directory holding cases.jsonl with one case, removed by the caller.
    static func directoryWithCases(ids: [String] = ["a"]) throws -> URL {
        let directory = try Shell.temporaryDirectory()
        let cases = try ids.map { id in
            let object: [String: Any] = ["id": id, "text": "Hello, world", "width": 60]
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
        }
        try cases.joined().write(to: directory.appendingPathComponent("cases.jsonl"), atomically: true, encoding: .utf8)
        return directory
    }

    /// The file's type bits (S_IFLNK for a symlink itself), or nil when it does not exist.
    static func kind(of url: URL) -> mode_t? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    @Test("record through a symlink writes the file it leads to, and the link stays a link",
          arguments: ["real/golden.json", "missing/golden.json"])
    func recordThroughSymlink(_ destination: String) throws {
        let directory = try Self.directoryWithCases()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("real"), withIntermediateDirectories: true)
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: destination)

        for _ in 0..<2 {   // creating the file, then replacing it
            let run = try Shell.run(#""$TM" golden record cases.jsonl -o link.json"#, in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Self.kind(of: link) == S_IFLNK)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == destination)
            let written = try String(contentsOf: directory.appendingPathComponent(destination), encoding: .utf8)
            #expect(written.contains(#""id" : "a""#))
        }
        // Only the golden file: no temporary left beside it.
        let folder = directory.appendingPathComponent(destination).deletingLastPathComponent()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["golden.json"])
    }

    @Test("record refuses a target that is not a regular file, and leaves it as it was")
    func recordRefusesSpecialFiles() throws {
        let directory = try Self.directoryWithCases()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo"), folder = directory.appendingPathComponent("folder"),
            device = directory.appendingPathComponent("device")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: device.path, withDestinationPath: "/dev/null")
        let cases: [(URL, String, mode_t)] = [
            (fifo, "it is a FIFO, not a regular file", S_IFIFO),
            (folder, "it is a directory, not a regular file", S_IFDIR),
            (device, "it leads to /dev/null, a character device, not a regular file", S_IFLNK),
        ]
        for (target, reason, kind) in cases {
            let run = try Shell.run(#""$TM" golden record cases.jsonl -o \#(target.lastPathComponent)"#, in: directory)
            #expect(run.status == 1)
            #expect(run.stderr == "textmeasure golden: cannot write golden file \(target.path): \(reason)\n")
            #expect(Self.kind(of: target) == kind)
        }
        #expect(Self.kind(of: URL(fileURLWithPath: "/dev/null")) == S_IFCHR)
    }

    @Test("verify on a directory or a FIFO says what it is")
    func verifySpecialFiles() throws {
        let directory = try Self.directoryWithCases()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(mkfifo(directory.appendingPathComponent("fifo").path, 0o644) == 0)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder"), withIntermediateDirectories: true)
        for (name, kind) in [("fifo", "a FIFO"), ("folder", "a directory")] {
            let run = try Shell.run(#""$TM" golden verify \#(name)"#, in: directory)
            #expect(run.status == 1)
            #expect(run.stderr == "textmeasure golden: cannot read golden file \(directory.path)/\(name): "
                    + "it is \(kind), not a regular file\n")
        }
    }

    @Test("a failing case whose id is too long for a file name gets its picture under a shortened name")
    func longIDPictures() throws {
        let long = String(repeating: "x", count: 300)
        let directory = try Self.directoryWithCases(ids: [long + "a", long + "b"])
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(try Shell.run(#""$TM" golden record cases.jsonl -o golden.json"#, in: directory).status == 0)
        // Record a height the cases do not have, so that both fail.
        let golden = directory.appendingPathComponent("golden.json")
        let recorded = try String(contentsOf: golden, encoding: .utf8)
        try recorded.replacingOccurrences(of: #""height" : "#, with: #""height" : 1"#)
            .write(to: golden, atomically: true, encoding: .utf8)

        let run = try Shell.run(#""$TM" golden verify golden.json --render pictures"#, in: directory)
        #expect(run.status == 1)
        #expect(!run.stderr.contains("cannot draw"))
        let pictures = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("pictures").path)
        #expect(pictures.count == 2)
        for picture in pictures {
            #expect(picture.utf8.count <= 255 && picture.hasPrefix("xxxxxxxx") && picture.hasSuffix(".png"))
            #expect(run.output.contains("wrote pictures/\(picture)\n"))
        }
    }
}
