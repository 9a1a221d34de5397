// Every libc file call of the module goes through this file (as swift-system gathers its syscalls).
@preconcurrency internal import Glibc  // Glibc's FILE functions carry no concurrency annotations; each call here is synchronous and local.

/// Reads a whole text file; `nil` when it cannot be read.
func readTextFile(_ path: String) -> String? {
    guard case .success(let bytes) = readFileBytes(path) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// Reads a whole file into bytes with one allocation of its size (plus what it grew by while read).
func readFileBytes(_ path: String) -> Result<[UInt8], Syscalls.Errno> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .failure(Syscalls.Errno(code: errno)) }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return .failure(Syscalls.Errno(code: errno)) }
    if (status.st_mode & S_IFMT) == S_IFDIR { return .failure(Syscalls.Errno(code: EISDIR)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(status.st_size) + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return .failure(Syscalls.Errno(code: errno))
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return .success(bytes)
}

/// Why a file could not be read, in the C library's words, with the fix where there is one
/// (`No such file or directory (check the path)`).
func fileErrorDescription(_ error: Syscalls.Errno) -> String {
    let fix =
        error.code == ENOENT
        ? " (check the path)"
        : error.code == EACCES
            ? " (check the file's permissions)"
            : error.code == EISDIR ? " (give a file, not a directory)" : ""
    return String(cString: strerror(error.code)) + fix
}

/// A text file written with the C library, flushed on request.
final class TextFileWriter {
    private let file: UnsafeMutablePointer<FILE>

    /// Creates (or truncates) a file; `nil` with the errno when it cannot be.
    static func create(_ path: String) -> Result<TextFileWriter, Syscalls.Errno> {
        guard let file = fopen(path, "w") else { return .failure(Syscalls.Errno(code: errno)) }
        return .success(TextFileWriter(file: file))
    }

    private init(file: UnsafeMutablePointer<FILE>) {
        self.file = file
    }

    deinit {
        fclose(file)
    }

    /// Appends text.
    func write(_ text: String) {
        _ = fputs(text, file)
    }

    /// Hands what was written to the kernel.
    func flush() {
        fflush(file)
    }
}
