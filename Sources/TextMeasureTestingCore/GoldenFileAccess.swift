import Foundation

/// Reading and replacing golden files, which must be regular files.
///
/// Foundation's `Data(contentsOf:)` names a directory "NSCocoaErrorDomain error 256"
/// and waits on a FIFO, and `Data.write(options: .atomic)` renames over whatever is
/// at the path: a symlink becomes a regular file beside its target, and a device
/// node is replaced. Here a symlink is written through (the file it leads to is
/// replaced atomically) and anything else that is not a regular file is refused,
/// named for what it is.
enum GoldenFileAccess {
    /// The contents of the regular file at `path`.
    static func read(_ path: String) throws(GoldenError) -> Data {
        // Non-blocking, so that opening a FIFO returns at once and is refused below.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if let kind = kind(of: status) { throw .unreadable(path: path, reason: "it is \(kind), not a regular file") }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count > 0 {
                data.append(contentsOf: chunk[..<count])
            } else if errno != EINTR {
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Replaces the file `path` leads to with `data`, atomically: a reader sees the old
    /// file or the new one, never part of one. Missing directories are created.
    ///
    /// - Throws: `GoldenError.unwritable` when `path` leads to something other than a
    ///   regular file (a directory, a device, a FIFO), or the file cannot be written.
    static func replace(_ path: String, with data: Data) throws(GoldenError) {
        let target = try resolved(path)
        var status = stat()
        let exists = stat(target, &status) == 0
        if exists, let kind = kind(of: status) {
            throw .unwritable(path: path, reason: target == path ? "it is \(kind), not a regular file"
                                  : "it leads to \(target), \(kind), not a regular file")
        }
        let directory = target.lastIndex(of: "/").map { String(target[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw .unwritable(path: path, reason: "cannot create \(directory): \(error.localizedDescription)")
        }
        // A new file gets 0666 less the umask, as any editor's would; a replaced one keeps its mode.
        let (temporary, descriptor) = try createTemporary(in: directory, mode: exists ? status.st_mode & 0o7777 : 0o666,
                                                          for: path)
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, failure == nil {
                let count = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count >= 0 { offset += count } else if errno != EINTR { failure = String(cString: strerror(errno)) }
            }
        }
        if failure == nil, exists, fchmod(descriptor, status.st_mode & 0o7777) != 0 { failure = String(cString: strerror(errno)) }
        // On disk before the rename, or a crash could leave the name on an empty file.
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .unwritable(path: path, reason: failure)
        }
    }

    /// The path `path` leads to through symlinks (the file itself if it is none): the
    /// canonical path of an existing file, or, for a link to a file not there yet, where
    /// the link points.
    private static func resolved(_ path: String) throws(GoldenError) -> String {
        var current = path
        // As many links as the kernel follows before it says ELOOP.
        for _ in 0..<40 {
            if let canonical = realpath(current, nil) {
                defer { free(canonical) }
                return String(cString: canonical)
            }
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            // A dangling link: follow it by hand to the file it names.
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let base = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
            current = link.hasPrefix("/") ? link : base + link
        }
        throw .unwritable(path: path, reason: String(cString: strerror(ELOOP)))
    }

    /// A new file beside the target, created exclusively: its path and descriptor.
    private static func createTemporary(in directory: String, mode: mode_t,
                                        for path: String) throws(GoldenError) -> (String, Int32) {
        while true {
            let temporary = directory + "/.textmeasure-golden-\(UInt64.random(in: 0...UInt64.max)).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST || errno == EINTR else {
                throw .unwritable(path: path, reason: "cannot create a file in \(directory): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// What a file that is not a regular file is, as a sentence names it; nil for a regular file.
    private static func kind(of status: stat) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
