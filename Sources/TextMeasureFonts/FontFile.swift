#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Font {
    /// The largest font file loaded: 256 MiB. The largest fonts in use (CJK
    /// collections) are about 120 MB; a larger file is refused before it is read.
    public static let maximumFileSize = 256 << 20

    /// Loads a face from an opened file: its header and table directory are checked
    /// first, from their few bytes, so that a large file that is no font (or a
    /// truncated one) is refused without reading it whole.
    convenience init(file: borrowing FontFile, faceIndex: Int, variations: [String: Double]) throws(FontError) {
        do throws(FontError) {
            let size = file.key.size
            guard size > 0 else { throw .empty }
            guard size <= Self.maximumFileSize else {
                throw .unsupportedFont(reason: "\(size) bytes, larger than the \(Self.maximumFileSize >> 20) MiB a font file may have")
            }
            try SFNTDirectory.validate(length: size, faceIndex: faceIndex) { offset, count throws(FontError) in
                let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
                defer { bytes.deallocate() }
                try file.read(into: bytes, at: offset)
                return Array(bytes)
            }
            // The font takes the buffer over (see `init(data:…)`), so the file is read once, into it.
            guard let data = malloc(size) else { throw .unsupportedFont(reason: "out of memory") }
            do throws(FontError) {
                try file.read(into: UnsafeMutableRawBufferPointer(start: data, count: size), at: 0)
            } catch {
                free(data)
                throw error
            }
            try self.init(data: UnsafeRawBufferPointer(start: data, count: size), name: file.name,
                          faceIndex: faceIndex, variations: variations, ownsData: true)
        } catch {
            switch error {
            case .fileNotFound, .unreadable: throw error   // these name the file already
            default: throw .inFile(path: file.path, error: error)
            }
        }
    }
}

/// What tells one font file's contents from another's: the file (device and inode)
/// and its version (size, modification and status-change times). Two paths naming
/// one file have one key; a file rewritten or replaced gets a new key.
struct FontFileKey: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int64
    var modifiedNanoseconds: Int
    var changed: Int64
    var changedNanoseconds: Int

    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int(info.st_size)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int(info.st_ctim.tv_nsec)
    }

    /// The key of the file at `path` now, following symlinks.
    init(path: String) throws(FontError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FontFile.openError(path: path, errno) }
        try FontFile.requireRegular(info, path: path)
        self.init(info)
    }
}

/// A font file opened for reading, closed exactly once when it goes away. Its key
/// is taken from the open descriptor, so it describes the bytes read even if the
/// path is changed to name another file meanwhile.
struct FontFile: ~Copyable {
    let path: String
    let key: FontFileKey
    private let descriptor: Int32

    /// The file name, for messages and `Font.name`.
    var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    init(path: String) throws(FontError) {
        // Refuse what is not a regular file before opening it: opening a FIFO would wait for a writer.
        _ = try FontFileKey(path: path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Self.openError(path: path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw .unreadable(path: path, reason: String(cString: strerror(error)))
        }
        do { try Self.requireRegular(info, path: path) } catch { close(descriptor); throw error }
        self.path = path
        self.key = FontFileKey(info)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Fills `buffer` from `offset` on; a file that ends sooner was cut short while being read.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FontError) {
        guard let start = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, start + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { throw .truncated(part: "the file (it shrank while being read)") }
            done += count
        }
    }

    static func openError(path: String, _ code: Int32) -> FontError {
        if code == ENOENT || code == ENOTDIR { return .fileNotFound(path: path) }
        return .unreadable(path: path, reason: String(cString: strerror(code)))
    }

    static func requireRegular(_ info: stat, path: String) throws(FontError) {
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
    }
}
