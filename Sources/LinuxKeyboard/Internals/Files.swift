// Every libc file call of the module goes through this file (as swift-system gathers its syscalls).
@preconcurrency internal import Glibc  // Glibc's FILE functions carry no concurrency annotations; each call here is synchronous and local.

/// Reads a whole text file with the C library; `nil` when it cannot be opened.
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
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
