// The module's libc calls: an image file looked at before a library decodes it (and the same checks on an
// image held in memory). Glibc carries no
// concurrency annotations (errno is a global variable to Swift); each call here is synchronous and local.
@preconcurrency internal import Glibc
internal import ResponderChain

/// What is checked before a decoder opens an image file, so that its failure names the reason and the
/// fix, and so that a decoder never blocks on a FIFO or reads a device.
enum ImageFiles {
    /// The most pixels a PNG may decode to: 4096 x 4096 (64 MiB of pixels), more than a 4K screen.
    static let pixelLimit = 4096 * 4096
    /// The largest file read: 64 MiB.
    static let byteLimit = 64 << 20

    /// Why the file cannot be an image, or `nil` when it is a readable regular file of a sensible size.
    ///
    /// Uses `stat` and `access`.
    static func problem(_ path: String) -> CairoGraphicsError? {
        var status = stat()
        guard !path.isEmpty, stat(path, &status) == 0 else {
            let code = path.isEmpty ? ENOENT : errno
            if code == ENOENT || code == ENOTDIR {
                let name = path.isEmpty ? "an empty image path" : path
                return CairoGraphicsError(
                    code: .imageNotFound, path: path,
                    message: "\(name): no such file; install the image or fix the path")
            }
            return unreadable(path, code)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            let kind = type == S_IFDIR ? "a directory" : "not a regular file"
            return CairoGraphicsError(
                code: .imageNotReadable, path: path, message: "\(path): \(kind), not an image file; fix the path")
        }
        guard access(path, R_OK) == 0 else { return unreadable(path, errno) }
        guard Int(status.st_size) <= byteLimit else {
            return CairoGraphicsError(
                code: .imageTooLarge, path: path,
                message: "\(path): \(status.st_size) bytes, more than the \(byteLimit >> 20) MiB an image file may be; "
                    + "export it smaller")
        }
        return nil
    }

    /// A file's bytes, after ``problem(_:)``'s checks: at most ``byteLimit`` of them.
    ///
    /// Uses `open` (`O_NONBLOCK`: never a FIFO's wait) and `read`.
    static func contents(_ path: String) -> Result<[UInt8], CairoGraphicsError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(unreadable(path, errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(unreadable(path, errno)) }
            if count == 0 { break }
            bytes += chunk[..<count]
            guard bytes.count <= byteLimit else {
                return .failure(
                    CairoGraphicsError(
                        code: .imageTooLarge, path: path,
                        message: "\(path): more than the \(byteLimit >> 20) MiB an image file may be; export it smaller"
                    ))
            }
        }
        return .success(bytes)
    }

    /// Why a PNG file cannot be decoded, from its first bytes: not a PNG at all, or larger than
    /// ``pixelLimit`` (read from its header, before anything is allocated).
    ///
    /// Uses `open` and `read`.
    static func pngProblem(_ path: String) -> CairoGraphicsError? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return unreadable(path, errno) }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return unreadable(path, errno) }
        return pngHeaderProblem(Array(header.prefix(count)), name: path, fix: "convert it to PNG or fix the path")
    }

    /// Why an image held in memory cannot be decoded before a library sees it: more bytes than
    /// ``byteLimit``, or, for a PNG, not a PNG or larger than ``pixelLimit``.
    static func problem(inMemory image: ImageSource, bytes: [UInt8]) -> CairoGraphicsError? {
        let name = image.description
        guard bytes.count <= byteLimit else {
            return CairoGraphicsError(
                code: .imageTooLarge, path: image.path,
                message: "\(name): \(bytes.count) bytes, more than the \(byteLimit >> 20) MiB an image may be; "
                    + "make it smaller")
        }
        guard image.format == .png else { return nil }
        return pngHeaderProblem(Array(bytes.prefix(24)), name: name, path: image.path, fix: "give it PNG bytes")
    }

    /// Why a PNG's first 24 bytes (signature and IHDR) do not start a PNG of a sensible size, or
    /// `nil`.
    private static func pngHeaderProblem(
        _ header: [UInt8], name: String, path: String? = nil, fix: String
    ) -> CairoGraphicsError? {
        let path = path ?? name
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard header.count == 24, Array(header[0..<8]) == signature, Array(header[12..<16]) == Array("IHDR".utf8)
        else {
            let hint =
                header.count >= 5 && String(decoding: header[0..<5], as: UTF8.self).lowercased().hasPrefix("<")
                ? " (it looks like SVG: name it .svg)" : ""
            return CairoGraphicsError(
                code: .imageNotDecodable, path: path, message: "\(name): not a PNG file\(hint); \(fix)")
        }
        func word(_ at: Int) -> Int {
            header[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        let (width, height) = (word(16), word(20))
        guard width > 0, height > 0, width <= 32767, height <= 32767, width * height <= pixelLimit else {
            return CairoGraphicsError(
                code: .imageTooLarge, path: path,
                message: "\(name): \(width)x\(height) pixels, more than the \(pixelLimit) (4096x4096) an image may "
                    + "decode to; scale it down")
        }
        return nil
    }

    private static func unreadable(_ path: String, _ code: Int32) -> CairoGraphicsError {
        let reason = String(cString: strerror(code))
        let fix =
            code == EACCES || code == EPERM
            ? "make it readable by the user the app runs as" : "check the file and its directory"
        return CairoGraphicsError(
            code: .imageNotReadable, path: path, message: "\(path): \(reason.lowercased()); \(fix)")
    }
}
