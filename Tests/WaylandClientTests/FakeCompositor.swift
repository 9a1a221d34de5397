import Foundation
import Glibc

/// A Wayland server written by hand for the cases a real compositor does not give: a global
/// missing or too old, a ping. It speaks just enough of the wire protocol (an 8-byte header of
/// object id and size/opcode, then 32-bit arguments and padded strings): `wl_display.get_registry`
/// and `sync` answered, the globals it is given announced, `wl_registry.bind` recorded, a ping sent
/// on `xdg_wm_base` and capabilities on `wl_seat` when they are bound; a toplevel configured at
/// 640x480 (or ``configureSize``); at each commit the buffer it replaces released
/// (`wl_buffer.release`), as a compositor that copies `wl_shm` buffers does, and then its
/// `wl_surface.frame` callbacks answered at once. A test adds and removes globals while the client
/// runs (``addGlobal(_:version:)``, ``removeGlobal(_:)``) and presses keys on the keyboard it bound
/// (``enterAndPress(key:)``); a silent server accepts the connection and never answers. A
/// `wl_output` global, when given, gets its current `mode` (``outputMode``, when given), `scale`
/// and `done` when bound (``outputScale``), and the toplevel's surface enters it when configured;
/// ``setOutputScale(_:)`` and ``leaveOutput()`` change that while the client runs.
final class FakeCompositor: @unchecked Sendable {
    struct Request: Equatable {
        var object: UInt32
        var opcode: UInt16
        var arguments: [UInt8]
    }

    let directory: String
    let socketName = "wayland-fake"
    let pingSerial: UInt32 = 77
    private let listener: Int32
    private let globals: [(String, UInt32)]
    private let namesSeat: Bool
    /// The `wl_display.sync` that ends the client's binding round trip.
    private var bindingSyncs: Int { globals.contains { $0.0 == "wl_seat" && $0.1 >= 2 } ? 3 : 2 }
    private let lock = NSLock()
    private var requests: [Request] = []
    private var boundObjects: [String: UInt32] = [:]
    private let finished = DispatchSemaphore(value: 0)
    private let resumed = DispatchSemaphore(value: 0)
    private let pausesAfterBinding: Bool
    private let failsFrames: Bool
    private let silent: Bool
    private let configures: Bool
    /// The current mode a bound `wl_output` announces.
    private let outputMode: (width: UInt32, height: UInt32)?
    /// The size of the toplevel's configure.
    private let configureSize: (width: UInt32, height: UInt32)
    /// The scale a bound `wl_output` announces.
    let outputScale: Int32
    private var client: Int32 = -1
    private var registryObject: UInt32 = 0
    private var globalCount: UInt32 = 0

    /// - Parameters:
    ///   - globals: The globals announced: interface and version.
    ///   - pausesAfterBinding: Whether the server stops reading after the client's round trip after
    ///     binding (its second `wl_display.sync`, or third when a `wl_seat` of version 2 or later is
    ///     bound: the client syncs after the seat's bind too), until ``resume()``: the client's socket
    ///     fills up.
    ///   - failsFrames: Whether a `wl_surface.frame` request gets a protocol error (`wl_display.error`,
    ///     code 2, on the surface) instead of its callback.
    ///   - silent: Whether the server accepts the connection, reads and never answers (a hung compositor).
    ///   - configures: Whether a toplevel is configured (`false`: a compositor that never shows the window).
    ///   - namesSeat: Whether a bound `wl_seat` gets its `name` event (`false`: a compositor that never sends
    ///     it, though the seat's version has it).
    ///   - outputScale: The scale a bound `wl_output` of version 2 or newer announces.
    ///   - outputMode: The current mode a bound `wl_output` announces (`nil`: none).
    ///   - configureSize: The size of the toplevel's first configure (0x0 leaves it to the client, as sway
    ///     does before its full-screen configure).
    init(
        globals: [(String, UInt32)], pausesAfterBinding: Bool = false, failsFrames: Bool = false,
        silent: Bool = false, configures: Bool = true, namesSeat: Bool = true, outputScale: Int32 = 1,
        outputMode: (width: UInt32, height: UInt32)? = nil, configureSize: (width: UInt32, height: UInt32) = (640, 480)
    ) throws {
        self.outputScale = outputScale
        self.outputMode = outputMode
        self.configureSize = configureSize
        self.namesSeat = namesSeat
        self.globals = globals
        self.pausesAfterBinding = pausesAfterBinding
        self.failsFrames = failsFrames
        self.silent = silent
        self.configures = configures
        globalCount = UInt32(globals.count)
        directory = NSTemporaryDirectory() + "rcwayland-fake-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/" + socketName
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw SwayHeadless.Failure(description: "bind failed") }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The requests received so far.
    var received: [Request] { lock.withLock { requests } }

    /// The object id the client gave a bound interface.
    func object(of interface: String) -> UInt32? { lock.withLock { boundObjects[interface] } }

    /// Reads again after a pause.
    func resume() { resumed.signal() }

    /// The path of the socket.
    var socketPath: String { directory + "/" + socketName }

    /// Whether a request was received on the object a bound interface got, with that opcode.
    func received(_ interface: String, opcode: UInt16) -> Bool {
        guard let object = object(of: interface) else { return false }
        return received.contains { $0.object == object && $0.opcode == opcode }
    }

    /// Waits up to `seconds` for a condition on the server's state.
    @discardableResult
    func wait(upTo seconds: Double = 5, _ condition: (FakeCompositor) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(self) {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Announces a global while the client runs (`wl_registry.global`); returns its name.
    @discardableResult
    func addGlobal(_ interface: String, version: UInt32) -> UInt32 {
        let name = lock.withLock {
            globalCount += 1
            return globalCount
        }
        send(event(registryObject, 0, uint(name) + string(interface) + uint(version)))
        return name
    }

    /// Removes a global while the client runs (`wl_registry.global_remove`).
    func removeGlobal(_ name: UInt32) {
        send(event(registryObject, 1, uint(name)))
    }

    /// Gives the keyboard the client bound focus on its surface (`wl_keyboard.enter`, no key down)
    /// and presses `key` (an evdev code) without releasing it.
    func enterAndPress(key: UInt32) {
        guard let keyboard = object(of: "wl_keyboard"), let surface = object(of: "wl_surface") else { return }
        send(
            event(keyboard, 1, uint(10) + uint(surface) + uint(0))
                + event(keyboard, 3, uint(11) + uint(0) + uint(key) + uint(1)))
    }

    /// Changes the bound output's scale (`wl_output.scale`, then `done`).
    func setOutputScale(_ factor: Int32) {
        guard let output = object(of: "wl_output") else { return }
        send(event(output, 3, uint(UInt32(bitPattern: factor))) + event(output, 2, []))
    }

    /// Configures the toplevel again (`xdg_toplevel.configure` with no states, then
    /// `xdg_surface.configure` with `serial`), as a compositor does when it makes a window full
    /// screen.
    func configure(width: UInt32, height: UInt32, serial: UInt32) {
        guard let toplevel = object(of: "xdg_toplevel"), let xdgSurface = object(of: "xdg_surface") else { return }
        send(event(toplevel, 0, uint(width) + uint(height) + uint(0)) + event(xdgSurface, 0, uint(serial)))
    }

    /// Takes the surface off the bound output (`wl_surface.leave`).
    func leaveOutput() {
        guard let output = object(of: "wl_output"), let surface = object(of: "wl_surface") else { return }
        send(event(surface, 1, uint(output)))
    }

    /// Writes events to the client (from the test's thread or the server's).
    private func send(_ bytes: [UInt8]) {
        lock.withLock { _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) } }
    }

    /// Waits for the client to hang up (up to 5 s), then removes the directory.
    func stop() {
        _ = finished.wait(timeout: .now() + 5)
        close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func serve() {
        defer { finished.signal() }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        lock.withLock { self.client = client }
        defer {
            lock.withLock { self.client = -1 }
            close(client)
        }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var registry: UInt32 = 0
        var syncs = 0
        var surface: UInt32 = 0
        var xdgSurface: UInt32 = 0
        var attached: UInt32 = 0
        var shown: UInt32 = 0
        var frameCallbacks: [UInt32] = []
        while true {
            let count = read(client, &chunk, chunk.count)
            if count <= 0 { return }
            if silent { continue }
            pending += chunk[0..<count]
            while pending.count >= 8 {
                let object = word(pending, 0)
                let sizeAndOpcode = word(pending, 4)
                let size = Int(sizeAndOpcode >> 16)
                guard size >= 8, pending.count >= size else { break }
                let request = Request(
                    object: object, opcode: UInt16(sizeAndOpcode & 0xFFFF), arguments: Array(pending[8..<size]))
                pending.removeFirst(size)
                lock.withLock { requests.append(request) }
                var reply: [UInt8] = []
                switch (request.object, request.opcode) {
                case (1, 1):  // wl_display.get_registry(new id)
                    registry = word(request.arguments, 0)
                    lock.withLock { registryObject = registry }
                    for (index, (interface, version)) in globals.enumerated() {
                        reply += event(registry, 0, uint(UInt32(index + 1)) + string(interface) + uint(version))
                    }
                case (1, 0):  // wl_display.sync(new id): wl_callback.done, then wl_display.delete_id
                    let callback = word(request.arguments, 0)
                    reply += event(callback, 0, uint(0)) + event(1, 1, uint(callback))
                    syncs += 1
                case (registry, 0):  // wl_registry.bind(name, interface, version, new id)
                    let length = Int(word(request.arguments, 4))
                    let interface = String(decoding: request.arguments[8..<(8 + length - 1)], as: UTF8.self)
                    let padded = (length + 3) & ~3
                    let id = word(request.arguments, 8 + padded + 4)
                    lock.withLock { boundObjects[interface] = id }
                    if interface == "xdg_wm_base" { reply += event(id, 0, uint(pingSerial)) }
                    let version = word(request.arguments, 8 + padded)
                    if interface == "wl_output", let outputMode {  // mode(current, width, height, refresh)
                        reply += event(id, 1, uint(1) + uint(outputMode.width) + uint(outputMode.height) + uint(60000))
                    }
                    if interface == "wl_output" && version >= 2 {  // scale(factor), done
                        reply += event(id, 3, uint(UInt32(bitPattern: outputScale))) + event(id, 2, [])
                    }
                    if interface == "wl_seat" {
                        reply += event(id, 0, uint(3)) + (namesSeat ? event(id, 1, string("seat-fake")) : [])
                    }
                default:
                    let compositor = self.object(of: "wl_compositor")
                    let base = self.object(of: "xdg_wm_base")
                    if request.object == compositor && request.opcode == 0 {  // create_surface(new id)
                        surface = word(request.arguments, 0)
                        lock.withLock { boundObjects["wl_surface"] = surface }
                    } else if request.object == base && request.opcode == 2 {  // get_xdg_surface(new id, surface)
                        xdgSurface = word(request.arguments, 0)
                        lock.withLock { boundObjects["xdg_surface"] = xdgSurface }
                    } else if request.object == self.object(of: "wl_seat") && request.opcode == 1 {
                        // get_keyboard(new id)
                        let keyboard = word(request.arguments, 0)
                        lock.withLock { boundObjects["wl_keyboard"] = keyboard }
                    } else if request.object == xdgSurface && request.opcode == 1 && configures {
                        // get_toplevel(new id)
                        let toplevel = word(request.arguments, 0)
                        lock.withLock { boundObjects["xdg_toplevel"] = toplevel }
                        reply += event(toplevel, 0, uint(configureSize.width) + uint(configureSize.height) + uint(0))
                        reply += event(xdgSurface, 0, uint(5))
                        if let output = self.object(of: "wl_output") {  // wl_surface.enter(output)
                            reply += event(surface, 0, uint(output))
                        }
                    } else if request.object == surface && request.opcode == 3 && failsFrames {
                        reply += event(1, 0, uint(surface) + uint(2) + string("frame refused by the test"))
                    } else if request.object == surface && request.opcode == 1 {  // attach(buffer, x, y)
                        attached = word(request.arguments, 0)
                    } else if request.object == surface && request.opcode == 6 {  // commit
                        if shown != 0 && shown != attached { reply += event(shown, 0, []) }  // wl_buffer.release
                        shown = attached
                        for callback in frameCallbacks {
                            reply += event(callback, 0, uint(1)) + event(1, 1, uint(callback))
                        }
                        frameCallbacks = []
                    } else if request.object == surface && request.opcode == 3 {  // frame(new id): at the commit
                        frameCallbacks.append(word(request.arguments, 0))
                    }
                }
                if !reply.isEmpty { send(reply) }
                if pausesAfterBinding && syncs == bindingSyncs && request.object == 1 && request.opcode == 0 {
                    _ = resumed.wait(timeout: .now() + 10)
                }
            }
        }
    }

    private func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    private func uint(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }

    private func string(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        let length = UInt32(bytes.count)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return uint(length) + bytes
    }

    private func event(_ object: UInt32, _ opcode: UInt16, _ arguments: [UInt8]) -> [UInt8] {
        uint(object) + uint(UInt32(8 + arguments.count) << 16 | UInt32(opcode)) + arguments
    }
}
