internal import CWayland
internal import Glibc
internal import Graphics
internal import LinuxSystem

/// One of the pool's two buffers: busy from its commit until the compositor releases it.
@MainActor
final class ShmBuffer {
    let buffer: OpaquePointer
    let pixels: UnsafeMutableRawBufferPointer
    weak var window: WindowCore?
    var busy = false
    /// Whether the contents are undefined (never drawn).
    var needsFullRedraw = true
    /// Rectangles changed on screen since this buffer was last drawn.
    var staleRects: [PixelRect] = []
    private(set) var userdata: CallbackUserdata<ShmBuffer>?

    init(buffer: OpaquePointer, pixels: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
        self.pixels = pixels
    }

    func listen() {
        let userdata = CallbackUserdata(retaining: self)
        self.userdata = userdata
        wl_buffer_add_listener(buffer, bufferListener, userdata.pointer)
    }

    /// Brings the buffer up to what `front` shows and returns what was copied: the rectangles it
    /// missed, coalesced (all of it when they cover three quarters of the buffer or more, or when it
    /// was never drawn and `front` shows a frame of this size).
    func prepare(front: ShmBuffer?, width: Int, height: Int, stride: Int) -> ForwardCopy {
        guard let front, let rects = missed(front: front, width: width, height: height) else { return ForwardCopy() }
        return copy(rects, from: front, stride: stride)
    }

    /// What the buffer must take from `front` to show what it shows, and forgets it: `nil` for nothing
    /// (no other buffer shows a frame), else the rectangles it missed, coalesced, or all of it (they
    /// cover three quarters of it or more, or it was never drawn and `front` shows a frame of this size).
    func missed(front: ShmBuffer?, width: Int, height: Int) -> [PixelRect]? {
        defer { staleRects = [] }
        guard let front, front !== self else { return nil }
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        if needsFullRedraw {
            // Never drawn, but the other buffer shows a frame of this size: start from it.
            needsFullRedraw = false
            return [bounds]
        }
        let rects = PixelRect.coalesced(staleRects, within: bounds)
        let area = rects.reduce(0) { $0 + $1.area }
        return area * 4 >= bounds.area * 3 ? [bounds] : rects
    }

    /// Copies rectangles from `front`.
    func copy(_ rects: [PixelRect], from front: ShmBuffer, stride: Int) -> ForwardCopy {
        var copy = ForwardCopy()
        for rect in rects where !rect.isEmpty {
            if rect.x == 0 && rect.y == 0 && rect.width * 4 == stride && rect.height * stride == pixels.count {
                return copyAll(from: front)
            }
            let source = front.pixels.baseAddress! + rect.y * stride + rect.x * 4
            let target = pixels.baseAddress! + rect.y * stride + rect.x * 4
            if rect.x == 0 && rect.width * 4 == stride {
                // Full-width rows are one run of memory.
                target.copyMemory(from: source, byteCount: rect.height * stride)
            } else {
                for row in 0..<rect.height {
                    (target + row * stride).copyMemory(from: source + row * stride, byteCount: rect.width * 4)
                }
            }
            copy.rects += 1
            copy.bytes += rect.area * 4
        }
        return copy
    }

    private func copyAll(from front: ShmBuffer) -> ForwardCopy {
        pixels.copyMemory(from: UnsafeRawBufferPointer(front.pixels))
        return ForwardCopy(rects: 1, bytes: pixels.count)
    }

    func destroy() {
        wl_buffer_destroy(buffer)
        userdata?.release()
        userdata = nil
    }
}

/// What a buffer copied from the front one to show the last frame where it was not drawn
/// (``ShmBuffer/prepare(front:width:height:stride:)``, or after a drawing that repaints whole).
struct ForwardCopy: Hashable, Sendable {
    /// How many rectangles were copied (1 for the whole buffer).
    var rects = 0
    /// How many bytes were copied.
    var bytes = 0
}

/// A new memfd of `size` bytes, mapped shared: the memory of `wl_shm` buffers. The caller closes
/// the descriptor (after `wl_shm.create_pool`, or when it lets the memory go) and unmaps it.
///
/// - Parameters:
///   - size: The bytes.
///   - name: The memfd's name (`/proc/PID/fd`).
///   - what: What it is for, in the error's message ("a 800x600-pixel window").
/// - Returns: The descriptor and the mapping.
/// - Throws: ``WaylandError`` naming the call that failed.
func mapSharedMemory(size: Int, name: String, for what: String) throws(WaylandError) -> (
    fd: Int32, mapping: UnsafeMutableRawPointer
) {
    let fd = cwayland_memfd(name)
    guard fd >= 0 else {
        let code = Errno.current
        throw WaylandError(
            operation: "memfd_create", errno: code, message: "no shared memory for \(what): \(code)")
    }
    guard ftruncate(fd, off_t(size)) == 0 else {
        let code = Errno.current
        Glibc.close(fd)
        throw WaylandError(operation: "ftruncate", errno: code, message: "no shared memory for \(what): \(code)")
    }
    guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
        let code = Errno.current
        Glibc.close(fd)
        throw WaylandError(
            operation: "mmap", errno: code, message: "cannot map shared memory for \(what): \(code)")
    }
    return (fd, mapping)
}

/// A double-buffered `wl_shm` pool: one memfd holding two buffers of one size, in device pixels.
@MainActor
final class ShmPool {
    /// The width in device pixels.
    let width: Int
    /// The height in device pixels.
    let height: Int
    /// The buffer scale the buffers are drawn at (a new scale makes a new pool: the old pixels are of no use).
    let scale: Int
    let stride: Int
    private let buffers: [ShmBuffer]
    private let mapping: UnsafeMutableRawPointer
    private let size: Int
    /// The thread making the first buffer's memory resident (`prefaults`), stopped and joined before
    /// the memory is let go.
    private var prefault: Prefault?
    /// The buffer last committed: what the compositor shows.
    private(set) var front: ShmBuffer?

    /// Makes the pool.
    ///
    /// - Parameter prefaults: Whether a thread makes the first buffer's memory resident now, from its
    ///   end back (`madvise(MADV_POPULATE_WRITE)`), for a pool made before the frame that draws into
    ///   it: a first frame otherwise takes a page fault for every 4 KiB it fills (some 2,000 at
    ///   1920x1080, where the kernel also allocates and zeroes each page).
    init(
        shm: OpaquePointer?, width: Int, height: Int, scale: Int, format: WaylandWindow.PixelFormat, window: WindowCore,
        prefaults: Bool = false
    ) throws(WaylandError) {
        self.width = width
        self.height = height
        self.scale = scale
        stride = width * 4
        let bufferSize = stride * height
        size = bufferSize * 2
        let (fd, mapping) = try mapSharedMemory(
            size: size, name: "responderchain-wl_shm", for: "a \(width)x\(height)-pixel window")
        defer { Glibc.close(fd) }
        self.mapping = mapping
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        let code: UInt32 = format == .argb8888 ? 0 : 1  // WL_SHM_FORMAT_ARGB8888, WL_SHM_FORMAT_XRGB8888
        var made: [ShmBuffer] = []
        for index in 0..<2 {
            let buffer = wl_shm_pool_create_buffer(
                pool, Int32(index * bufferSize), Int32(width), Int32(height), Int32(stride), code)!
            let pixels = UnsafeMutableRawBufferPointer(start: mapping + index * bufferSize, count: bufferSize)
            let shmBuffer = ShmBuffer(buffer: buffer, pixels: pixels)
            shmBuffer.window = window
            shmBuffer.listen()
            made.append(shmBuffer)
        }
        wl_shm_pool_destroy(pool)
        buffers = made
        if prefaults { prefault = Prefault.start(mapping, bytes: bufferSize) }
    }

    /// A buffer the compositor does not hold, the one not on screen first.
    func freeBuffer() -> ShmBuffer? {
        buffers.first { !$0.busy && $0 !== front } ?? buffers.first { !$0.busy }
    }

    /// Records a commit: the buffer is busy and on screen; the other missed `damage`.
    func committed(_ buffer: ShmBuffer, damage: [PixelRect]) {
        buffer.busy = true
        buffer.needsFullRedraw = false
        for other in buffers where other !== buffer {
            other.staleRects.append(contentsOf: damage)
            // A buffer the compositor holds for many frames: its list stays short.
            if other.staleRects.count > PixelRect.damageLimit * 4 {
                other.staleRects = PixelRect.coalesced(
                    other.staleRects, within: PixelRect(x: 0, y: 0, width: width, height: height))
            }
        }
        front = buffer
    }

    func destroy() {
        // A pool let go before its frame (another size came): the thread stops after its MiB.
        prefault?.stopAndWait()
        prefault = nil
        for buffer in buffers { buffer.destroy() }
        munmap(mapping, size)
    }

    /// How many of a buffer's pages are resident (`mincore`), and how many it has (tests).
    func residentPages(ofBuffer index: Int) -> (resident: Int, total: Int) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bufferSize = stride * height
        let start = index * bufferSize
        // Whole pages within the buffer (the first buffer starts on a page, the mapping's).
        let first = (start + pageSize - 1) / pageSize
        let last = (start + bufferSize) / pageSize
        guard last > first else { return (0, 0) }
        var vector = [UInt8](repeating: 0, count: last - first)
        guard mincore(mapping + first * pageSize, (last - first) * pageSize, &vector) == 0 else {
            return (0, last - first)
        }
        return (vector.filter { $0 & 1 != 0 }.count, last - first)
    }

    /// Waits for the thread making the first buffer resident to end by itself (tests).
    ///
    /// - Returns: Whether the kernel took the advice; `nil` when no thread ran.
    func waitForPrefault() -> Bool? {
        prefault?.wait()
    }
}
