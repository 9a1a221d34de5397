// Every libc file call of the module goes through this file (as swift-system gathers its syscalls).
@preconcurrency internal import Glibc  // Glibc's FILE functions carry no concurrency annotations; each call here is synchronous and local.

/// Reads a whole text file of at most `limit` bytes; `nil` when it cannot be read.
package func readTextFile(_ path: String, limit: Int = 1 << 20) -> String? {
    guard case .success(let bytes) = readFileBytes(path, limit: limit) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// How long ``readFileBytes(_:limit:timeout:rules:)`` waits for data from a FIFO, pipe or device
/// before it gives up, in seconds.
package let fileWaitTimeout = 10.0

/// A duration as messages say it: `5`, `0.5` (no `.0` on whole seconds); the caller adds the unit.
package func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
}

/// Why ``readFileBytes(_:limit:timeout:rules:)`` failed.
package enum FileReadFailure: Error, Equatable {
    /// The path is empty.
    case emptyPath
    /// `open`, `read` or `poll` failed.
    case system(Errno)
    /// A regular file is larger than the limit.
    case tooLarge(size: Int)
    /// A FIFO, pipe or device sent more than the limit; `kind` names what it is.
    case endless(kind: String)
    /// A FIFO, pipe or device sent nothing for `seconds`.
    case noData(kind: String, seconds: Double)
    /// The path is a symbolic link, and the file is the app's own state, which is never read through one.
    case symbolicLink
    /// The app's own state is not a regular file; `kind` names what it is.
    case notRegularFile(kind: String)
    /// The app's own state belongs to another user.
    case notOwned(owner: UInt32, user: UInt32)
    /// The app's own state can be written by other users (`mode` is its permission bits).
    case writableByOthers(mode: UInt32)

    /// Whether the C library refused (the message is then its reason, without what was being read).
    package var isSystemError: Bool {
        if case .system = self { return true }
        return false
    }

    /// The error number of a system error; none (`Errno(rawValue: 0)`) for the others.
    package var errno: Errno {
        if case .system(let code) = self { return code }
        return Errno(rawValue: 0)
    }

    /// The message, naming the problem and the fix; the caller puts the file name in front.
    ///
    /// - Parameters:
    ///   - what: What the file should hold (`recording`, `scene`).
    ///   - limit: The limit the read had.
    package func describe(what: String, limit: Int) -> String {
        switch self {
        case .emptyPath:
            return "an empty path; give the \(what)'s file name"
        case .system(let code):
            return fileErrorDescription(code)
        case .tooLarge(let size):
            return "the \(what) is \(size) bytes, over the limit of \(limit) bytes (\(mebibytes(limit))): "
                + "is this the right file?"
        case .endless(let kind):
            return "the \(what) is \(kind) that sent more than \(limit) bytes (\(mebibytes(limit)), the limit): "
                + "is this the right file?"
                + (kind == "a character device" ? " A device such as /dev/zero never ends" : "")
        case .noData(let kind, let seconds):
            let wait = secondsText(seconds)
            return kind == "a FIFO"
                ? "no data from the FIFO after \(wait) s: is a writer connected?"
                : "no data from \(kind) after \(wait) s: does it send anything?"
        case .symbolicLink:
            return "a symbolic link, and the app does not read its own \(what) through a link (it could be made to "
                + "show another file): remove the link; the app writes a file of its own there when it saves"
        case .notRegularFile(let kind):
            return "\(kind), not a regular file: remove it; the app writes a file of its own there when it saves"
        case .notOwned(let owner, let user):
            return "owned by user \(owner), not by the app's user (\(user)), so the app does not trust it: remove it, "
                + "or give it to user \(user) (chown \(user))"
        case .writableByOthers(let mode):
            return "writable by other users (mode \(String(mode, radix: 8))), so the app does not trust it: "
                + "chmod go-w the file"
        }
    }

    private func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}

/// Reads a whole file into bytes, refusing more than `limit` bytes and never blocking forever.
///
/// A regular file larger than `limit` is refused by its size before it is read. A FIFO, pipe
/// (such as the shell's `<(cat file)`) or device is opened non-blocking, so a FIFO without a
/// writer does not block `open`, then read as data arrives: each wait for data (`poll`) lasts at
/// most `timeout` seconds, and reading stops past `limit` bytes (`/dev/zero` never ends). Linux
/// lets a FIFO without a writer look like an empty file to `read` and never reports it to `poll`,
/// so nothing is read before `poll` says data (or the writer's end) is there.
///
/// An app's own state (``FileReadRules/ownState``) is read more strictly, as `ssh` reads `~/.ssh/config`:
/// the last component is not followed when it is a symbolic link (`O_NOFOLLOW`), and the file must be a
/// regular file of the app's user (the effective user) that no other user may write. A person who can
/// plant a link there must not make the app show another file (`/etc/shadow`) in its messages, and one
/// who can write the file must not steer the app.
///
/// - Parameters:
///   - path: The file.
///   - limit: The largest size accepted, in bytes.
///   - timeout: The longest wait for data from a FIFO, pipe or device, in seconds.
///   - rules: Whether the file is one a person named (``FileReadRules/named``) or the app's own state.
/// - Returns: The bytes, or why they could not be read.
package func readFileBytes(
    _ path: String, limit: Int, timeout: Double = fileWaitTimeout, rules: FileReadRules = .named
) -> Result<[UInt8], FileReadFailure> {
    guard !path.isEmpty else { return .failure(.emptyPath) }
    let ownState = rules == .ownState
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (ownState ? O_NOFOLLOW : 0))
    guard fd >= 0 else {
        let code = Errno.current
        return .failure(code == .tooManySymbolicLinkLevels && ownState ? .symbolicLink : .system(code))
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return .failure(.system(.current)) }
    let type = status.st_mode & S_IFMT
    if type == S_IFDIR { return .failure(.system(.isDirectory)) }
    let isRegular = type == S_IFREG
    let kind =
        type == S_IFIFO
        ? "a FIFO" : type == S_IFCHR ? "a character device" : type == S_IFBLK ? "a block device" : "a socket"
    if ownState {
        if !isRegular { return .failure(.notRegularFile(kind: kind)) }
        let user = geteuid()
        if status.st_uid != user { return .failure(.notOwned(owner: status.st_uid, user: user)) }
        if status.st_mode & 0o022 != 0 { return .failure(.writableByOthers(mode: status.st_mode & 0o7777)) }
    }
    if isRegular && Int(status.st_size) > limit { return .failure(.tooLarge(size: Int(status.st_size))) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(isRegular ? Int(status.st_size) + 1 : 1 << 16)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        if !isRegular {
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Int32(timeout * 1000))
            if ready < 0 {
                let code = Errno.current
                if code == .interrupted { continue }
                return .failure(.system(code))
            }
            if ready == 0 { return .failure(.noData(kind: kind, seconds: timeout)) }
        }
        // One byte past the limit is enough to know the file is too large.
        let wanted = min(chunk.count, limit + 1 - bytes.count)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
        if count < 0 {
            let code = Errno.current
            if code == .interrupted || code == .resourceTemporarilyUnavailable { continue }
            return .failure(.system(code))
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit {
            return .failure(isRegular ? .tooLarge(size: max(Int(status.st_size), bytes.count)) : .endless(kind: kind))
        }
    }
    return .success(bytes)
}

/// How strictly ``readFileBytes(_:limit:timeout:rules:)`` reads a file.
package enum FileReadRules: Sendable {
    /// A file a person named (a scene, a recording on the command line): links are followed, any
    /// readable file is read.
    case named
    /// The app's own state (its speech settings): never through a symbolic link, a regular file of the
    /// app's user that no other user may write.
    case ownState
}

/// The names in a directory, without `.` and `..`; empty when it cannot be read. Uses `opendir`.
package func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Why a file could not be read, in the C library's words, with the fix where there is one
/// (`No such file or directory (check the path)`).
package func fileErrorDescription(_ error: Errno) -> String {
    let fix =
        switch error {
        case .noSuchFileOrDirectory: " (check the path)"
        case .permissionDenied: " (check the file's permissions)"
        case .isDirectory: " (give a file, not a directory)"
        default: ""
        }
    return error.description + fix
}

/// A text file, gathered in memory and written on request through the module's one write path
/// (``Syscalls/writeAll(_:_:)``).
package final class TextFileWriter {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Creates (or truncates) a file; `nil` with the errno when it cannot be. Uses `open`.
    package static func create(_ path: String) -> Result<TextFileWriter, Errno> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return .failure(.current) }
        return .success(TextFileWriter(descriptor: descriptor))
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flush()
        close(descriptor)
    }

    /// The errno of the first write or flush that failed (a full disk); nothing is written after it.
    package private(set) var failure: Errno?

    /// Appends text.
    package func write(_ text: String) {
        guard failure == nil else { return }
        pending.append(contentsOf: text.utf8)
    }

    /// Hands what was written to the kernel.
    package func flush() {
        guard failure == nil, !pending.isEmpty else { return }
        let (written, stoppedBy) = pending.withUnsafeBytes { Syscalls.writeAll(descriptor, $0) }
        if written < pending.count { failure = stoppedBy ?? .ioError }
        pending.removeAll(keepingCapacity: true)
    }
}

/// Why ``replaceFile(_:with:)`` failed: the C call, the path it was given and its errno.
package struct FileWriteFailure: Error, Equatable {
    /// The C call that failed (`mkstemp`, `write`, `fsync`, `rename`).
    package var operation: String
    /// The path it was given.
    package var path: String
    /// Its error number.
    package var errno: Errno

    /// `rename /dir/.f.ab12Cd to /dir/f: Is a directory (give a file, not a directory)`: the call, the path
    /// and the C library's reason with the fix where there is one.
    package var message: String {
        "\(operation) \(path): " + fileErrorDescription(errno)
    }
}

/// Replaces a file's contents atomically: writes them to a new temporary file in the same directory
/// (`.NAME.XXXXXX`, mode 0600), flushes it to the disk, then renames it over `path`, so that a reader
/// (or the next start after a power cut) finds the old contents or the new, never a part. On a failure the
/// temporary file is removed and `path` is left as it was.
///
/// Uses `mkstemp`, `write`, `fsync`, `rename` (and `fsync` on the directory, so the rename itself lasts).
///
/// - Parameters:
///   - path: The file; its directory must exist.
///   - bytes: The new contents.
/// - Returns: `nil` when the file holds `bytes`, else the call that failed.
package func replaceFile(_ path: String, with bytes: [UInt8]) -> FileWriteFailure? {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = ((directory == "/" ? "/" : directory + "/") + "." + name + ".XXXXXX").utf8.map {
        CChar(bitPattern: $0)
    }
    template.append(0)
    // mkstemp, not mkostemp (which Glibc's module leaves out): close-on-exec is set just after.
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return FileWriteFailure(operation: "mkstemp", path: directory, errno: .current) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var failure: FileWriteFailure?
    let (written, stoppedBy) = bytes.withUnsafeBytes { Syscalls.writeAll(descriptor, $0) }
    if written < bytes.count {
        failure = FileWriteFailure(operation: "write", path: temporary, errno: stoppedBy ?? .ioError)
    } else if fsync(descriptor) != 0 {
        failure = FileWriteFailure(operation: "fsync", path: temporary, errno: .current)
    }
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 {
        failure = FileWriteFailure(operation: "rename", path: "\(temporary) to \(path)", errno: .current)
    }
    if let failure {
        unlink(temporary)
        return failure
    }
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
        _ = fsync(directoryDescriptor)
        close(directoryDescriptor)
    }
    return nil
}
