import Dispatch
import Foundation
import Synchronization

/// Transforms the lines of standard input on several threads and writes one
/// output line per input line to standard output, in input order, each as soon
/// as it and every line before it are done.
///
/// Lines go to the threads in small chunks of those already read (never waiting
/// for more input to fill one), so a short line does not pay a thread handoff
/// of its own. Memory is bounded whatever the length of the input: at most
/// `4 × jobs` chunks are read and not yet written (done chunks wait there for an
/// earlier, slower one, while the other jobs run ahead a little), and at most
/// `jobs` are being transformed at once.
enum OrderedLineStream {
    /// A chunk ends at this many lines or once it holds this many bytes.
    private static let chunkLines = 32
    private static let chunkBytes = 2048

    /// - Throws: the failure to read standard input, or to write standard output (then
    ///   no more input is read: its results would have nowhere to go).
    static func run(jobs: Int, transform: @escaping @Sendable (_ line: [UInt8]) -> String) throws(CLIError) {
        let window = DispatchSemaphore(value: 4 * jobs)
        let workers = DispatchSemaphore(value: jobs)
        let writer = OrderedWriter(window: window)
        let group = DispatchGroup()
        defer {   // every line read is written, even when reading fails
            group.wait()
            writer.flush()
        }

        var reader = LineReader(descriptor: STDIN_FILENO)
        while writer.failure == nil, let first = try reader.next() {
            var chunk = [first]
            var bytes = (try? first.get())?.count ?? 0
            while chunk.count < chunkLines, bytes < chunkBytes, let line = reader.bufferedLine() {
                chunk.append(line)
                bytes += (try? line.get())?.count ?? 0
            }
            window.wait()
            workers.wait()
            let position = writer.expect(lines: chunk.count)
            DispatchQueue.global().async(group: group) { [chunk] in
                let outputs = chunk.map { line in
                    switch line {
                    case .success(let bytes): transform(bytes)
                    // Too long to read: an error in its place, whose id is unknown.
                    case .failure(let tooLong): JSONLine.Failure(id: nil, error: tooLong.description).jsonLine
                    }
                }
                workers.signal()
                writer.write(outputs, at: position)
            }
        }
        // What the defer does, here too: whether every result got out is known only after the last write.
        group.wait()
        writer.flush()
        if let failure = writer.failure { throw failure }
    }
}

/// Puts chunks of lines finished out of order back in order on standard output.
///
/// Output is written in batches, but never held back from a reader waiting for
/// it: whenever every line read so far is done, everything is written at once.
private final class OrderedWriter: Sendable {
    private struct State {
        /// Lines read so far: the position of the next one.
        var read = 0
        /// The position of the next line to write.
        var next = 0
        /// Chunks done before their turn, by the position of their first line.
        var waiting: [Int: [String]] = [:]
        /// Lines in order, not written yet.
        var pending = ""
        /// Why standard output cannot be written; from then on output is dropped.
        var failure: CLIError?
    }

    private let state = Mutex(State())
    private let window: DispatchSemaphore
    private static let batchBytes = 1 << 16

    init(window: DispatchSemaphore) { self.window = window }

    /// Counts a chunk of `lines` more lines read, and returns the position of its first.
    func expect(lines: Int) -> Int {
        state.withLock { state in
            defer { state.read += lines }
            return state.read
        }
    }

    /// Hands over the outputs of the chunk whose first line is at `position`;
    /// writes them, with the chunks they were holding up, once no line read is
    /// still being worked on (or a batch is full).
    func write(_ lines: [String], at position: Int) {
        state.withLock { state in
            state.waiting[position] = lines
            while let chunk = state.waiting.removeValue(forKey: state.next) {
                for line in chunk {
                    state.pending += line
                    state.pending += "\n"
                }
                state.next += chunk.count
                window.signal()
            }
            // Written under the lock, so that lines leave in order.
            if state.next == state.read || state.pending.utf8.count >= Self.batchBytes {
                Self.writePending(&state)
            }
        }
    }

    /// Writes whatever is pending.
    func flush() {
        state.withLock { Self.writePending(&$0) }
    }

    /// The first failure to write standard output, if any.
    var failure: CLIError? {
        state.withLock(\.failure)
    }

    private static func writePending(_ state: inout State) {
        if state.failure == nil {
            do { try StandardOutput.write(state.pending) } catch { state.failure = error }
        }
        state.pending = ""
    }
}
