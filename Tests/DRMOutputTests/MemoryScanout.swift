import Glibc
import LinuxSystem

@testable import DRMOutput

/// A DRM device in memory for the outputs' tests: one connector, dumb buffers in ordinary memory
/// (each row padded, as a driver's pitch often is), mode sets and flips recorded, flip events
/// delivered when the test says the flip is done. Its descriptor is a pipe's read end nobody writes
/// to: the test reads the events through `DisplayCore.readEvents()` itself.
final class MemoryScanout: ScanoutDevice {
    let path = "/dev/dri/memory"
    let fileDescriptor: Int32
    private let writeEnd: Int32
    var connectorList: [DisplayConnector]
    /// The framebuffers shown by each mode set, and asked for by each flip, in order.
    private(set) var modeSets: [UInt32] = []
    private(set) var flips: [UInt32] = []
    /// The buffers made, by framebuffer id.
    private(set) var buffers: [UInt32: DumbBuffer] = [:]
    /// What the next mode set or flip returns instead of succeeding.
    var refuseNext: Errno?
    private var events: [DRMEvent] = []
    private var nextFramebuffer: UInt32 = 100

    init(width: Int = 320, height: Int = 200, millimetres: (Int, Int) = (0, 0)) {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        (fileDescriptor, writeEnd) = (ends[0], ends[1])
        connectorList = [
            DisplayConnector(
                id: 40, name: "Virtual-1", isConnected: true,
                modes: [DisplayMode(width: width, height: height, refresh: 60, isPreferred: true)], crtcs: [30],
                physicalWidth: millimetres.0, physicalHeight: millimetres.1)
        ]
    }

    deinit {
        close(fileDescriptor)
        close(writeEnd)
    }

    func connectors(probe: Bool) throws(DisplayError) -> [DisplayConnector] {
        connectorList
    }

    func makeBuffer(width: Int, height: Int) throws(DisplayError) -> DumbBuffer {
        let pitch = width * 4 + 64
        let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: pitch * height, alignment: 16)
        // Garbage, as a new dumb buffer may hold: every pixel shown must have been copied.
        pixels.initializeMemory(as: UInt8.self, repeating: 0xA5)
        nextFramebuffer += 1
        let buffer = DumbBuffer(
            framebuffer: nextFramebuffer, handle: nextFramebuffer, width: width, height: height, pitch: pitch,
            pixels: pixels, release: { pixels.deallocate() })
        buffers[nextFramebuffer] = buffer
        return buffer
    }

    func setCrtc(_ crtc: UInt32, buffer: DumbBuffer, connector: UInt32, modeIndex: Int) -> Errno? {
        if let refused = refuseNext {
            refuseNext = nil
            return refused
        }
        modeSets.append(buffer.framebuffer)
        return nil
    }

    func pageFlip(_ crtc: UInt32, buffer: DumbBuffer) -> Errno? {
        if let refused = refuseNext {
            refuseNext = nil
            return refused
        }
        flips.append(buffer.framebuffer)
        return nil
    }

    /// The flip asked for last is on the screen: its event waits to be read.
    func completeFlip(at time: Double = 1) {
        events.append(DRMEvent(kind: .flipComplete, time: time))
    }

    func readEvents() -> [DRMEvent] {
        defer { events = [] }
        return events
    }

    /// The framebuffer on the screen: the last flip's, else the last mode set's.
    var shown: DumbBuffer? {
        (flips.last ?? modeSets.last).flatMap { buffers[$0] }
    }

    /// A buffer's pixels without the row padding, as 0xRRGGBB words.
    func rgb(of buffer: DumbBuffer) -> [UInt32] {
        var words: [UInt32] = []
        words.reserveCapacity(buffer.width * buffer.height)
        for row in 0..<buffer.height {
            for column in 0..<buffer.width {
                let word = buffer.pixels.load(fromByteOffset: row * buffer.pitch + column * 4, as: UInt32.self)
                words.append(word & 0x00FF_FFFF)
            }
        }
        return words
    }
}
