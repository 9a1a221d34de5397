internal import CWayland
internal import Glibc
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
    /// Rows changed on screen since this buffer was last drawn.
    var staleRows: [Range<Int>] = []
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

    /// Brings the buffer up to what `front` shows (copying the rows it missed, or all of it when it was never
    /// drawn) and returns its pixels.
    func prepare(front: ShmBuffer?, stride: Int) -> UnsafeMutableRawBufferPointer {
        if needsFullRedraw, let front, front !== self {
            // Never drawn, but the other buffer shows a frame of this size: start from it.
            pixels.copyMemory(from: UnsafeRawBufferPointer(front.pixels))
            needsFullRedraw = false
        } else if !needsFullRedraw, let front, front !== self {
            for rows in staleRows {
                let offset = rows.lowerBound * stride
                let count = rows.count * stride
                (pixels.baseAddress! + offset).copyMemory(from: front.pixels.baseAddress! + offset, byteCount: count)
            }
        }
        staleRows = []
        return pixels
    }

    func destroy() {
        wl_buffer_destroy(buffer)
        userdata?.release()
        userdata = nil
    }
}

/// A double-buffered `wl_shm` pool: one memfd holding two buffers of one size.
@MainActor
final class ShmPool {
    let width: Int
    let height: Int
    let stride: Int
    private let buffers: [ShmBuffer]
    private let mapping: UnsafeMutableRawPointer
    private let size: Int
    /// The buffer last committed: what the compositor shows.
    private(set) var front: ShmBuffer?

    init(shm: OpaquePointer?, width: Int, height: Int, format: WaylandWindow.PixelFormat, window: WindowCore)
        throws(WaylandError)
    {
        self.width = width
        self.height = height
        stride = width * 4
        let bufferSize = stride * height
        size = bufferSize * 2
        let fd = cwayland_memfd("responderchain-wl_shm")
        guard fd >= 0 else {
            let code = Errno.current
            throw WaylandError(
                operation: "memfd_create", errno: code,
                message: "no shared memory for a \(width)x\(height) window: \(code)")
        }
        defer { Glibc.close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else {
            let code = Errno.current
            throw WaylandError(
                operation: "ftruncate", errno: code,
                message: "no shared memory for a \(width)x\(height) window: \(code)")
        }
        guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED
        else {
            let code = Errno.current
            throw WaylandError(
                operation: "mmap", errno: code,
                message: "cannot map shared memory for a \(width)x\(height) window: \(code)")
        }
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
    }

    /// A buffer the compositor does not hold, the one not on screen first.
    func freeBuffer() -> ShmBuffer? {
        buffers.first { !$0.busy && $0 !== front } ?? buffers.first { !$0.busy }
    }

    /// Records a commit: the buffer is busy and on screen; the other missed `damage`.
    func committed(_ buffer: ShmBuffer, damage: [Range<Int>]) {
        buffer.busy = true
        buffer.needsFullRedraw = false
        for other in buffers where other !== buffer { other.staleRows.append(contentsOf: damage) }
        front = buffer
    }

    func destroy() {
        for buffer in buffers { buffer.destroy() }
        munmap(mapping, size)
    }
}
