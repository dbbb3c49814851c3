import Testing

/// The texts this project wrote for its tests (`Tests/Fixtures/texts`): one story in
/// nine scripts, paragraphs separated by blank lines. Tests use these rather than any
/// corpus outside the repository, so that a fresh clone passes them.
enum FixtureTexts {
    /// The file names (without `.txt`): every script the embedded fonts cover.
    static let names = ["en", "zh", "ja", "ko", "ar", "he", "hi", "th", "emoji"]

    /// The text of `name`; a missing file fails the test rather than skipping it.
    static func text(_ name: String) throws -> String {
        try #require(readTextFile(packageRoot + "/Tests/Fixtures/texts/\(name).txt"), "Tests/Fixtures/texts/\(name).txt missing")
    }

    /// Each text's paragraphs, the blank lines between them dropped.
    static func paragraphs(_ name: String) throws -> [String] {
        try text(name).split(separator: "\n\n").map { String($0) }
    }
}
