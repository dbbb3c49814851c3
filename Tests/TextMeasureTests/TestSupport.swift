#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole text file, or nil if it cannot be read (tests avoid Foundation,
/// as the library does).
func readTextFile(_ path: String) -> String? {
    readFileBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// Reads a whole file's bytes, or nil if it cannot be read.
func readFileBytes(_ path: String) -> [UInt8]? {
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
