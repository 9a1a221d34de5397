internal import CDRM
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations: plain synchronous calls.
internal import LinuxSystem
internal import Seat

/// What a display output needs from a DRM device: its connectors, dumb buffers, the mode set, page
/// flips and their events. `KMSDevice` is the kernel's; a test gives a device in memory, so that
/// `DisplayCore` and both outputs are tested without a GPU.
protocol ScanoutDevice: AnyObject {
    /// The device's path, for messages.
    var path: String { get }
    /// The descriptor whose readiness means flip events wait.
    var fileDescriptor: Int32 { get }
    /// The device's connectors, each with its modes and the CRTCs that can drive it.
    func connectors(probe: Bool) throws(DisplayError) -> [DisplayConnector]
    /// A buffer of the size that can be shown.
    func makeBuffer(width: Int, height: Int) throws(DisplayError) -> DumbBuffer
    /// Sets the mode and shows the buffer: `nil`, or the error number.
    func setCrtc(_ crtc: UInt32, buffer: DumbBuffer, connector: UInt32, modeIndex: Int) -> Errno?
    /// Asks for the buffer at the next vertical blank, with a flip event: `nil`, or the error number.
    func pageFlip(_ crtc: UInt32, buffer: DumbBuffer) -> Errno?
    /// The events waiting (non-blocking).
    func readEvents() -> [DRMEvent]
}

/// A DRM device opened for mode setting: the kernel calls of the display outputs (libdrm's), each
/// returning a value or an errno; the decisions are in `DisplayCore`, `ConnectorChoice` and
/// `FlipScheduler`. Not `Sendable`: it belongs to the loop's thread.
final class KMSDevice: ScanoutDevice {
    let path: String
    let fileDescriptor: Int32
    /// Closes the descriptor (through the seat when it gave it).
    private let release: () -> Void
    /// The raw modes of each connector, as last read: `drmModeSetCrtc` takes them back.
    private var modeInfos: [UInt32: [drmModeModeInfo]] = [:]

    /// The DRM devices that can set modes (`/dev/dri/card*`), in number order.
    static func cardPaths(directory: String = "/dev/dri") -> [String] {
        let numbers = directoryEntries(directory).compactMap { name in
            name.hasPrefix("card") ? Int(name.dropFirst(4)) : nil
        }
        return numbers.sorted().map { "\(directory)/card\($0)" }
    }

    /// Opens a device through the seat when there is one, else directly, and checks that it can
    /// show dumb buffers.
    init(path: String, seat: Seat?) throws(DisplayError) {
        self.path = path
        if let seat {
            do {
                let (descriptor, close) = try seat.openDevice(path)
                fileDescriptor = descriptor
                release = {
                    close()
                    Syscalls.close(descriptor)
                }
            } catch {
                throw DisplayError(
                    code: error.errno == .noSuchFileOrDirectory ? .noDevice : .permission, path: path,
                    errno: error.errno,
                    message: "\(error.message): \(path); \(Self.seatFix)")
            }
        } else {
            let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                let code = Errno.current
                switch code {
                case .noSuchFileOrDirectory, .noSuchDevice, .noSuchAddressOrDevice:
                    throw DisplayError(
                        code: .noDevice, path: path, errno: code,
                        message: "no DRM device \(path) (\(code)): \(Self.driverFix)")
                case .permissionDenied, .notPermitted:
                    throw DisplayError(
                        code: .permission, path: path, errno: code,
                        message: "no permission to open \(path) (\(code)): \(Self.seatFix)")
                default:
                    throw DisplayError(
                        code: .device, path: path, errno: code,
                        message: "could not open \(path) (\(code))")
                }
            }
            fileDescriptor = descriptor
            release = { Syscalls.close(descriptor) }
        }
        // Opened directly while a compositor or display manager holds the device, the descriptor is
        // not master: no mode can be set. (Through a seat it is master while the seat is enabled.)
        guard drmIsMaster(fileDescriptor) != 0 else {
            release()
            throw DisplayError.notMaster(path)
        }
        var dumb: UInt64 = 0
        guard drmGetCap(fileDescriptor, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) == 0, dumb != 0 else {
            release()
            throw DisplayError(
                code: .unsupported, path: path,
                message: "\(path) cannot show dumb buffers (a render-only GPU, or a driver without KMS): "
                    + "name the display's card with its device option")
        }
    }

    deinit {
        release()
    }

    /// How to get a device through a seat manager, or directly.
    static let seatFix =
        "run the app under seatd (`seatd -g video` as root, the user in group video: Debian's "
        + "`systemctl enable --now seatd`) or logind, so that the seat gives the device, or as a user the "
        + "device's group allows (`ls -l /dev/dri`)"
    /// How to get a device at all.
    static let driverFix =
        "load the GPU's driver (vc4 on a Raspberry Pi, i915, amdgpu, virtio_gpu or bochs in a VM: `modprobe …`), "
        + "or pass /dev/dri into the container"

    /// The device's connectors, each with its modes and the CRTCs that can drive it.
    ///
    /// - Parameter probe: Whether the kernel asks the displays again (slow: EDID reads); at start
    ///   and on a hot-plug event, yes.
    func connectors(probe: Bool) throws(DisplayError) -> [DisplayConnector] {
        guard let resources = drmModeGetResources(fileDescriptor) else {
            let code = Errno.current
            throw DisplayError(
                code: .unsupported, path: path, errno: code,
                message: "\(path) has no mode-setting resources (\(code)): a render node, "
                    + "or a driver without KMS")
        }
        defer { drmModeFreeResources(resources) }
        let crtcs = (0..<Int(resources.pointee.count_crtcs)).map { resources.pointee.crtcs[$0] }
        var found: [DisplayConnector] = []
        var infos: [UInt32: [drmModeModeInfo]] = [:]
        for index in 0..<Int(resources.pointee.count_connectors) {
            let id = resources.pointee.connectors[index]
            guard
                let connector = probe
                    ? drmModeGetConnector(fileDescriptor, id) : drmModeGetConnectorCurrent(fileDescriptor, id)
            else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let raw = (0..<Int(max(0, c.count_modes))).map { c.modes[$0] }
            infos[id] = raw
            let modes = raw.map { mode in
                DisplayMode(
                    width: Int(mode.hdisplay), height: Int(mode.vdisplay), refresh: Int(mode.vrefresh),
                    isPreferred: mode.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
            }
            var candidates: [UInt32] = []
            if c.encoder_id != 0, let encoder = drmModeGetEncoder(fileDescriptor, c.encoder_id) {
                if encoder.pointee.crtc_id != 0 { candidates.append(encoder.pointee.crtc_id) }
                drmModeFreeEncoder(encoder)
            }
            for e in 0..<Int(max(0, c.count_encoders)) {
                guard let encoder = drmModeGetEncoder(fileDescriptor, c.encoders[e]) else { continue }
                defer { drmModeFreeEncoder(encoder) }
                for (bit, crtc) in crtcs.enumerated()
                where bit < 32
                    && encoder.pointee.possible_crtcs & (1 << UInt32(bit)) != 0 && !candidates.contains(crtc)
                {
                    candidates.append(crtc)
                }
            }
            found.append(
                DisplayConnector(
                    id: id, name: DisplayConnector.name(type: c.connector_type, number: c.connector_type_id),
                    isConnected: c.connection == DRM_MODE_CONNECTED, modes: modes, crtcs: candidates,
                    physicalWidth: Int(c.mmWidth), physicalHeight: Int(c.mmHeight)))
        }
        modeInfos = infos
        return found
    }

    /// Makes a dumb buffer of the size, as an `XRGB8888` framebuffer, mapped for writing.
    func makeBuffer(width: Int, height: Int) throws(DisplayError) -> DumbBuffer {
        var handle: UInt32 = 0
        var pitch: UInt32 = 0
        var size: UInt64 = 0
        guard cdrm_create_dumb(fileDescriptor, UInt32(width), UInt32(height), &handle, &pitch, &size) == 0 else {
            throw failure("create a \(width)x\(height) dumb buffer", .current)
        }
        var framebuffer: UInt32 = 0
        let added = drmModeAddFB(fileDescriptor, UInt32(width), UInt32(height), 24, 32, pitch, handle, &framebuffer)
        guard added == 0 else {
            _ = cdrm_destroy_dumb(fileDescriptor, handle)
            throw failure("add a framebuffer", Errno(rawValue: -added))
        }
        var offset: UInt64 = 0
        guard cdrm_map_dumb(fileDescriptor, handle, &offset) == 0 else {
            let code = Errno.current
            _ = drmModeRmFB(fileDescriptor, framebuffer)
            _ = cdrm_destroy_dumb(fileDescriptor, handle)
            throw failure("map a dumb buffer", code)
        }
        let mapped = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fileDescriptor, off_t(offset))
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            let code = Errno.current
            _ = drmModeRmFB(fileDescriptor, framebuffer)
            _ = cdrm_destroy_dumb(fileDescriptor, handle)
            throw failure("map a dumb buffer", code)
        }
        let pixels = UnsafeMutableRawBufferPointer(start: mapped, count: Int(size))
        return DumbBuffer(
            framebuffer: framebuffer, handle: handle, width: width, height: height, pitch: Int(pitch), pixels: pixels,
            release: { [self] in destroy(pixels, framebuffer: framebuffer, handle: handle) })
    }

    private func destroy(_ pixels: UnsafeMutableRawBufferPointer, framebuffer: UInt32, handle: UInt32) {
        munmap(pixels.baseAddress, pixels.count)
        _ = drmModeRmFB(fileDescriptor, framebuffer)
        _ = cdrm_destroy_dumb(fileDescriptor, handle)
    }

    /// Sets the mode and shows the buffer on the connector: `nil`, or the error number (`EACCES` when
    /// another program is DRM master, or the seat went).
    func setCrtc(_ crtc: UInt32, buffer: DumbBuffer, connector: UInt32, modeIndex: Int) -> Errno? {
        guard var mode = modeInfos[connector].flatMap({ $0.indices.contains(modeIndex) ? $0[modeIndex] : nil })
        else { return .invalidArgument }
        var connectorID = connector
        return Self.failure(drmModeSetCrtc(fileDescriptor, crtc, buffer.framebuffer, 0, 0, &connectorID, 1, &mode))
    }

    /// Asks for the buffer at the next vertical blank, with a flip event: `nil`, or the error number.
    func pageFlip(_ crtc: UInt32, buffer: DumbBuffer) -> Errno? {
        Self.failure(drmModePageFlip(fileDescriptor, crtc, buffer.framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), nil))
    }

    /// `nil` for a libdrm call's 0, else the error number of its negative result.
    private static func failure(_ result: Int32) -> Errno? {
        result == 0 ? nil : Errno(rawValue: -result)
    }

    /// The events waiting on the descriptor (non-blocking).
    func readEvents() -> [DRMEvent] {
        var events: [DRMEvent] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            events += DRMEvents.decode(buffer[0..<count]).events
        }
        return events
    }

    private func failure(_ what: String, _ code: Errno) -> DisplayError {
        DisplayError(
            code: .device, path: path, errno: code,
            message: "could not \(what) on \(path) (\(code))")
    }
}

/// A dumb buffer shown as a framebuffer: its pixels mapped for writing; freed with the last reference.
final class DumbBuffer {
    let framebuffer: UInt32
    let handle: UInt32
    let width: Int
    let height: Int
    let pitch: Int
    let pixels: UnsafeMutableRawBufferPointer
    /// Unmaps and destroys it (keeps its device open until then).
    private let release: () -> Void

    init(
        framebuffer: UInt32, handle: UInt32, width: Int, height: Int, pitch: Int,
        pixels: UnsafeMutableRawBufferPointer, release: @escaping () -> Void
    ) {
        self.framebuffer = framebuffer
        self.handle = handle
        self.width = width
        self.height = height
        self.pitch = pitch
        self.pixels = pixels
        self.release = release
    }

    deinit {
        release()
    }
}
