import Foundation

/// Path arithmetic for golden files, whose font paths are relative to the file.
enum FilePaths {
    /// The process's current directory.
    static var currentDirectory: String { FileManager.default.currentDirectoryPath }

    /// `path` made absolute against `base` (itself absolute) and resolved as the
    /// filesystem resolves it, which is how batch opens a font: symlinks followed, and
    /// `..` taken from where a symlink leads (`L/../f.ttf` with `L -> a/b` is
    /// `a/f.ttf`, not `f.ttf`). The longest part of the path that exists is resolved
    /// so; what follows it, naming nothing yet, is joined as text.
    static func absolute(_ path: String, base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        let parts = joined.split(separator: "/")
        for existing in stride(from: parts.count, through: 0, by: -1) {
            guard let resolved = realpath("/" + parts[..<existing].joined(separator: "/"), nil) else { continue }
            defer { free(resolved) }
            return lexical(String(cString: resolved) + "/" + parts[existing...].joined(separator: "/"))
        }
        return lexical(joined)
    }

    /// `path` made absolute against `base` with `.` and `..` resolved as text, symlinks
    /// left as they are: the name of a file to write, which may itself be a symlink that
    /// writing follows (and an error names as the user gave it).
    static func named(_ path: String, base: String) -> String {
        lexical(path.hasPrefix("/") ? path : base + "/" + path)
    }

    /// The absolute `path` with `.` and `..` resolved as text.
    private static func lexical(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The directory holding the file at the absolute `path`.
    static func directory(of path: String) -> String {
        absolute(path + "/..", base: "/")
    }

    /// The absolute `path` as seen from the absolute `directory`.
    static func relative(_ path: String, from directory: String) -> String {
        let target = path.split(separator: "/"), origin = directory.split(separator: "/")
        var shared = 0
        while shared < min(target.count, origin.count), target[shared] == origin[shared] { shared += 1 }
        let up = Array(repeating: "..", count: origin.count - shared)
        return (up + target[shared...].map(String.init)).joined(separator: "/")
    }
}
