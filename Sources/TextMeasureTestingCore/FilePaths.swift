import Foundation

/// Path arithmetic for golden files, whose font paths are relative to the file.
enum FilePaths {
    /// The process's current directory.
    static var currentDirectory: String { FileManager.default.currentDirectoryPath }

    /// `path` made absolute against `base` (itself absolute), with `.` and `..` resolved.
    static func absolute(_ path: String, base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/") {
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
