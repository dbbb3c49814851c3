import Foundation
import Testing
import TextMeasure

/// The repository's root and its font files, found from this source file.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
let notoSansPath = repositoryRoot + "/Fonts/NotoSans-Regular.ttf"

/// A fresh directory inside the running test's temporary folder, which the
/// `.temporaryFiles` trait removes when the test ends.
func temporaryDirectory() throws -> String {
    let root = try #require(TemporaryFiles.root, "the suite needs the .temporaryFiles trait")
    let url = URL(fileURLWithPath: root).appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

/// Gives each test of a suite a folder under the system's temporary directory and
/// removes it, whatever the test left in it, when the test ends: a test run leaves the
/// temporary directory as it found it.
struct TemporaryFiles: SuiteTrait, TestTrait, TestScoping {
    /// The running test's folder.
    @TaskLocal static var root: String?

    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }   // the suite itself: its tests get one each
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("textmeasure-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try await Self.$root.withValue(url.path, operation: function)
    }
}

extension Trait where Self == TemporaryFiles {
    /// Each test gets a temporary folder, removed when it ends (see `temporaryDirectory()`).
    static var temporaryFiles: Self { TemporaryFiles() }
}

func readText(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
}

/// The size recorded in a PNG's IHDR chunk, or nil if `path` is not a PNG.
func pngSize(_ path: String) -> (width: Int, height: Int)? {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 24,
          Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
          String(decoding: data[12..<16], as: UTF8.self) == "IHDR" else { return nil }
    func bigEndian(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (bigEndian(16), bigEndian(20))
}

let gatsby = "In my younger and more vulnerable years my father gave me some advice that I’ve been turning over in my mind ever since."
