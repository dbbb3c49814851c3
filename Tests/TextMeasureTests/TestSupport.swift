#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole text file, or nil if it cannot be read (tests avoid Foundation,
/// as the library does).
func readTextFile(_ path: String) -> String? {
    readBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// The package's root folder, from this file's path.
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)   // Tests/TextMeasureTests/TestSupport.swift
    return parts.joined(separator: "/")
}()

/// Reads a whole file's bytes, or nil.
func readBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes.append(contentsOf: chunk[0..<n])
        if n < chunk.count { break }
    }
    return bytes
}

/// Runs a shell command and returns its standard output, or nil if it failed.
func shellOutput(_ command: String) -> String? {
    guard let pipe = popen(command, "r") else { return nil }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
        output.append(contentsOf: chunk[0..<n])
        if n < chunk.count { break }
    }
    guard pclose(pipe) == 0 else { return nil }
    return String(decoding: output, as: UTF8.self)
}
