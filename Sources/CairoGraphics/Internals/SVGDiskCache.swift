// The rendered-SVG cache's files: open, read, write, rename, mkdir. Glibc carries no concurrency annotations (errno
// is a global variable to Swift); each call here is synchronous and local to the renderer's thread.
@preconcurrency internal import Glibc
internal import ResponderChain

/// A renderer's use of a ``RenderedSVGCache``: files read and written, and a write that failed
/// stopping the writes (a read-only disk is tried once, not every frame).
final class SVGDiskCache {
    let cache: RenderedSVGCache
    private var writable = true
    private var written: Int?
    /// Files read and written, for tests and benchmarks.
    private(set) var reads = 0
    private(set) var writes = 0

    init(_ cache: RenderedSVGCache) {
        self.cache = cache
    }

    /// A document's intrinsic size, when its file is there and whole.
    func size(of document: String) -> Size?? {
        guard case .size(let size) = read(document + ".size", largest: 64) else { return nil }
        return .some(size)
    }

    /// A rendering's pixels, when its file is there and whole and of that size.
    func pixels(of document: String, width: Int, height: Int) -> [UInt8]? {
        guard width <= RenderedSVGCache.largestSide, height <= RenderedSVGCache.largestSide else { return nil }
        let largest = RenderedSVGCache.headerLength + width * height * 4 + 8
        guard case .pixels(width, height, let bytes) = read(Self.pixelsName(document, width, height), largest: largest)
        else { return nil }
        return bytes
    }

    func store(size: Size?, of document: String) {
        write(RenderedSVGCache.encode(.size(size)), as: document + ".size")
    }

    func store(pixels: [UInt8], width: Int, height: Int, of document: String) {
        guard width <= RenderedSVGCache.largestSide, height <= RenderedSVGCache.largestSide else { return }
        write(
            RenderedSVGCache.encode(.pixels(width: width, height: height, bytes: pixels)),
            as: Self.pixelsName(document, width, height))
    }

    private static func pixelsName(_ document: String, _ width: Int, _ height: Int) -> String {
        "\(document)-\(width)x\(height).pixels"
    }

    /// A file's entry; `nil` when it is missing, larger than `largest`, or not a whole entry.
    ///
    /// Uses `open` (`O_NOFOLLOW`, `O_NONBLOCK`: never a FIFO's wait), `fstat` and `read`.
    private func read(_ name: String, largest: Int) -> RenderedSVGCache.Entry? {
        let descriptor = open(cache.directory + "/" + name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size > 0, Int(status.st_size) <= largest
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        reads += 1
        return RenderedSVGCache.entry(from: bytes)
    }

    /// Writes a file under a temporary name and renames it; a failure stops all later writes.
    ///
    /// Uses `mkdir`, `open` (`O_EXCL`, mode 0600), `write`, `rename` and `unlink`.
    private func write(_ bytes: [UInt8], as name: String) {
        guard writable else { return }
        if written == nil {
            guard makeDirectory(cache.directory) else {
                writable = false
                return
            }
            written = countEntries()
        }
        guard let count = written, count < RenderedSVGCache.entryLimit else { return }
        let path = cache.directory + "/" + name
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            writable = false
            return
        }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        let closed = close(descriptor) == 0
        guard done == bytes.count, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            writable = false
            return
        }
        written = count + 1
        writes += 1
    }

    /// Makes the directory and its parents (mode 0700); whether it is there.
    private func makeDirectory(_ path: String) -> Bool {
        var status = stat()
        if stat(path, &status) == 0 { return status.st_mode & S_IFMT == S_IFDIR }
        guard let slash = path.lastIndex(of: "/"), slash > path.startIndex else { return false }
        guard makeDirectory(String(path[..<slash])) else { return false }
        return mkdir(path, 0o700) == 0 || errno == EEXIST
    }

    /// How many entries the directory holds (its files, less `.` and `..`).
    private func countEntries() -> Int {
        guard let directory = opendir(cache.directory) else { return RenderedSVGCache.entryLimit }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return max(0, count - 2)
    }
}
