import AppRuntime
import EventLoop
import Foundation
import Graphics
import ResponderChain
import TestSupport
import Testing
import WaylandClient

/// What a real compositor does not let a test see or choose, against ``FakeCompositor``.
@Suite("WaylandClient against a hand-written server: globals, ping, a full socket, damage")
@MainActor
struct FakeServerTests {
    static let all: [(String, UInt32)] = [("wl_compositor", 5), ("wl_shm", 1), ("xdg_wm_base", 2), ("wl_seat", 7)]

    @Test("a missing global: the error names it")
    func missingGlobal() throws {
        let server = try FakeCompositor(globals: Self.all.filter { $0.0 != "xdg_wm_base" })
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment)
        }
        #expect(error?.operation == "bind")
        #expect(error?.message.contains("the compositor offers no xdg_wm_base global") == true)
    }

    @Test("a wl_compositor older than version 4 (no damage_buffer): the error names it and its version")
    func oldCompositor() throws {
        let server = try FakeCompositor(globals: [("wl_compositor", 3)] + Self.all.dropFirst())
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment)
        }
        #expect(error?.message.contains("wl_compositor version 3, older than 4") == true)
    }

    @Test("xdg_wm_base pings are answered; the seat's capabilities and name are kept")
    func pingAnsweredSeatKept() throws {
        let server = try FakeCompositor(globals: Self.all)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        do {
            let connection = try WaylandConnection(loop: loop, environment: environment)
            #expect(connection.seatCapabilities == [.pointer, .keyboard])
            #expect(connection.seatName == "seat-fake")
            connection.flush()
            let base = try #require(server.object(of: "xdg_wm_base"))
            let pong = FakeCompositor.Request(object: base, opcode: 3, arguments: [77, 0, 0, 0])
            let deadline = Date().addingTimeInterval(5)
            while !server.received.contains(pong) && Date() < deadline { usleep(10_000) }
            #expect(server.received.contains(pong))
        }
    }

    @Test("a full socket: the loop waits for it to take output again, and then everything is sent")
    func fullSocketWaitsForWritability() throws {
        let server = try FakeCompositor(globals: Self.all, pausesAfterBinding: true)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        // Each window's requests (a 3,000-byte title) fit libwayland's 4 KB buffer; each batch's end
        // flushes them, until the socket the server no longer reads is full.
        var windows: [WaylandWindow] = []
        let title = String(repeating: "t", count: 3000)
        while !connection.isWaitingForWritability && windows.count < 2000 {
            windows.append(try WaylandWindow(connection: connection, options: .init(title: title, appID: "rc.full")))
            loop.runOnce(timeout: 0)
        }
        #expect(connection.isWaitingForWritability)
        #expect(connection.disconnectError == nil)
        let requestsBefore = server.received.count
        server.resume()
        // Woken by writability, not by a timeout: each wait below would otherwise last its 5 s.
        let started = EventLoop.monotonicNow
        while connection.isWaitingForWritability && EventLoop.monotonicNow - started < 10 { loop.runOnce(timeout: 5) }
        #expect(!connection.isWaitingForWritability)
        #expect(EventLoop.monotonicNow - started < 2)
        #expect(connection.disconnectError == nil)
        // Every window's set_title (xdg_toplevel opcode 2) arrived: nothing was lost while waiting.
        let deadline = Date().addingTimeInterval(5)
        func titles() -> Int { server.received.filter { $0.opcode == 2 && $0.arguments.count == 3008 }.count }
        while titles() < windows.count && Date() < deadline { usleep(10_000) }
        #expect(titles() == windows.count)
        #expect(server.received.count > requestsBefore)
    }

    @Test("a frame damages only the rows it changed: attach, damage_buffer per range, frame, commit")
    func damageRowsOnly() throws {
        let server = try FakeCompositor(globals: Self.all)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Rows", appID: "rc.rows"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        #expect(window.width == 640 && window.height == 480)
        #expect(
            window.present { buffer in
                buffer.fill(rows: 0..<buffer.height, color: 0xFF_FF_00_00)
                return [buffer.bounds]
            })
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        #expect(
            window.present { buffer in
                buffer.fill(rows: 10..<20, color: 0xFF_00_00_FF)
                buffer.fill(rows: 50..<60, color: 0xFF_00_00_FF)
                return [PixelRect(rows: 10..<20, width: buffer.width), PixelRect(rows: 50..<60, width: buffer.width)]
            })
        #expect(run(loop, upTo: 5) { window.framesDone == 2 })
        let surface = try #require(server.object(of: "wl_surface"))
        let requests = server.received.filter { $0.object == surface }
        let commits = requests.indices.filter { requests[$0].opcode == 6 }
        try #require(commits.count == 3)  // the initial commit, then two frames
        let second = Array(requests[(commits[1] + 1)...commits[2]])
        #expect(second.map(\.opcode) == [1, 9, 9, 3, 6])  // attach, damage_buffer ×2, frame, commit
        #expect(rectangle(second[1]) == [0, 10, 640, 10])
        #expect(rectangle(second[2]) == [0, 50, 640, 10])
        // The first frame of a size damages it all.
        let first = Array(requests[(commits[0] + 1)...commits[1]])
        #expect(first.map(\.opcode) == [1, 9, 3, 6])
        #expect(rectangle(first[1]) == [0, 0, 640, 480])
    }

    @Test(
        "a configure after a frame is committed at once: as it is when nothing changes (sway shows the window only then), by the new frame alone after a resize",
        arguments: [(640 as UInt32, 480 as UInt32, [6]), (320, 240, [1, 9, 3, 6])])
    func configureCommitted(width: UInt32, height: UInt32, afterAck: [UInt16]) throws {
        let server = try FakeCompositor(globals: Self.all)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Acked", appID: "rc.acked"))
        let draw = { (buffer: PixelBuffer) -> [PixelRect] in
            buffer.fill(rows: 0..<buffer.height, color: 0xFF_FF_00_00)
            return [buffer.bounds]
        }
        #expect(run(loop, upTo: 5) { window.isConfigured })
        #expect(window.present(draw: draw))
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        window.onResize = { [unowned window] _, _ in window.present(draw: draw) }
        server.configure(width: width, height: height, serial: 6)
        let xdgSurface = try #require(server.object(of: "xdg_surface"))
        let surface = try #require(server.object(of: "wl_surface"))
        let acked = { (request: FakeCompositor.Request) in
            request.object == xdgSurface && request.opcode == 4 && self.rectangle(request, count: 1) == [6]
        }
        let afterAcked = {
            let requests = server.received
            guard let ack = requests.firstIndex(where: acked) else { return [UInt16]() }
            return requests[(ack + 1)...].filter { $0.object == surface }.map(\.opcode)
        }
        #expect(run(loop, upTo: 5) { afterAcked().contains(6) })
        #expect(afterAcked() == afterAck)
    }

    /// A request's first `count` arguments as 32-bit integers (damage_buffer's x, y, width, height).
    /// Shorter arguments give `[]`: a test that expected another request fails instead of trapping.
    func rectangle(_ request: FakeCompositor.Request, count: Int = 4) -> [Int32] {
        guard request.arguments.count >= count * 4 else { return [] }
        return stride(from: 0, to: count * 4, by: 4).map { offset in
            Int32(
                bitPattern: request.arguments[offset..<offset + 4].enumerated().reduce(UInt32(0)) {
                    $0 | UInt32($1.element) << (8 * UInt32($1.offset))
                })
        }
    }

    /// The surface's requests after each commit up to the next, one array a commit (the first: the
    /// initial commit's own requests are left out).
    func framesSent(_ server: FakeCompositor) throws -> [[FakeCompositor.Request]] {
        let surface = try #require(server.object(of: "wl_surface"))
        let requests = server.received.filter { $0.object == surface }
        let commits = requests.indices.filter { requests[$0].opcode == 6 }
        return zip(commits, commits.dropFirst()).map { Array(requests[($0 + 1)...$1]) }
    }

    @Test(
        "two separate rectangles: one damage_buffer each, and the next buffer copies forward only those two from the one on screen"
    )
    func damageRectangles() throws {
        let server = try FakeCompositor(globals: Self.all)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Rects", appID: "rc.rects"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        let first = PixelRect(x: 10, y: 20, width: 30, height: 40)
        let second = PixelRect(x: 300, y: 200, width: 16, height: 16)
        var pixelsSeen: [UInt32] = []
        let frames: [(PixelBuffer) -> [PixelRect]] = [
            { buffer in
                buffer.fill(buffer.bounds, color: 0xFF_FF_00_00)
                return [buffer.bounds]
            },
            { buffer in
                buffer.fill(first, color: 0xFF_00_00_FF)
                buffer.fill(second, color: 0xFF_00_00_FF)
                return [first, second]
            },
            { buffer in
                // The first buffer again: it missed the two tiles, and has them now (copied forward).
                let words = buffer.pixels.bindMemory(to: UInt32.self)
                pixelsSeen = [words[25 * 640 + 15], words[205 * 640 + 305], words[25 * 640 + 45], words[100]]
                return []
            },
        ]
        var copies: [[Int]] = []
        for (index, frame) in frames.enumerated() {
            // Drawn at once: the buffer the last commit replaced was released before its frame callback.
            #expect(window.present(draw: frame), "frame \(index + 1)")
            copies.append([window.lastCopy.rects, window.lastCopy.bytes])
            #expect(run(loop, upTo: 5) { window.framesDone == index + 1 })
        }
        // Nothing to copy into the first buffer; the second, never drawn, starts as a copy of it;
        // the first then copies only the two tiles it missed.
        #expect(copies == [[0, 0], [1, 640 * 480 * 4], [2, (30 * 40 + 16 * 16) * 4]])
        #expect(pixelsSeen == [0xFF_00_00_FF, 0xFF_00_00_FF, 0xFF_FF_00_00, 0xFF_FF_00_00])
        let sent = try framesSent(server)
        try #require(sent.count == 3)
        try #require(sent[1].map(\.opcode) == [1, 9, 9, 3, 6])  // attach, damage_buffer ×2, frame, commit
        #expect(rectangle(sent[1][1]) == [10, 20, 30, 40])
        #expect(rectangle(sent[1][2]) == [300, 200, 16, 16])
        // Nothing drawn: no damage, and the frame is committed as before.
        try #require(sent[2].map(\.opcode) == [1, 3, 6])
    }

    @Test(
        "damage is clamped to the buffer, touching rectangles merge, and more than 16 are sent as their bounding box"
    )
    func damageCoalesced() throws {
        let server = try FakeCompositor(globals: Self.all)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Many", appID: "rc.many"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        #expect(window.present { buffer in [buffer.bounds] })
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        #expect(
            window.present { _ in
                [
                    PixelRect(x: 600, y: -10, width: 100, height: 30),  // clamped: (600, 0, 40×20)
                    PixelRect(x: 0, y: 100, width: 50, height: 10), PixelRect(x: 50, y: 100, width: 50, height: 10),
                    PixelRect(x: 700, y: 700, width: 5, height: 5),  // outside: dropped
                ]
            })
        #expect(
            window.lastDamage == [
                PixelRect(x: 600, y: 0, width: 40, height: 20), PixelRect(x: 0, y: 100, width: 100, height: 10),
            ])
        #expect(run(loop, upTo: 5) { window.framesDone == 2 })
        // Twenty tiles 20 pixels apart: one damage_buffer, their bounding box.
        let tiles = (0..<20).map { PixelRect(x: 10 + $0 * 30, y: 50 + $0 * 10, width: 10, height: 10) }
        #expect(window.present { _ in tiles })
        #expect(window.lastDamage == [PixelRect(x: 10, y: 50, width: 580, height: 200)])
        #expect(run(loop, upTo: 5) { window.framesDone == 3 })
        let sent = try framesSent(server)
        try #require(sent.count == 3)
        try #require(sent[1].map(\.opcode) == [1, 9, 9, 3, 6])
        #expect(rectangle(sent[1][1]) == [600, 0, 40, 20])
        #expect(rectangle(sent[1][2]) == [0, 100, 100, 10])
        try #require(sent[2].map(\.opcode) == [1, 9, 3, 6])
        #expect(rectangle(sent[2][1]) == [10, 50, 580, 200])
    }

    @Test(
        "an output of scale 2: buffers twice the surface's size, set_buffer_scale(2) in the commit of their first attach, damage in device pixels; scale changes and leave follow"
    )
    func outputScale() throws {
        let server = try FakeCompositor(globals: Self.all + [("wl_output", 3)], outputScale: 2)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        #expect(connection.outputs.map(\.scale) == [2])
        let window = try WaylandWindow(connection: connection, options: .init(title: "Scale", appID: "rc.scale"))
        var scales: [Int] = []
        window.onScaleChange = { scales.append($0) }
        #expect(window.scale == 2)  // on no output yet: the one output's scale, for a sharp first frame
        #expect(run(loop, upTo: 5) { window.isConfigured && window.scale == 2 })
        #expect(scales == [])
        #expect(window.enteredOutputCount == 1)
        #expect(window.width == 640 && window.height == 480)
        #expect(window.bufferWidth == 1280 && window.bufferHeight == 960)
        var buffers: [[Int]] = []
        let drawAll = { (buffer: PixelBuffer) -> [PixelRect] in
            buffers.append([buffer.width, buffer.height, buffer.stride, buffer.scale, buffer.needsFullRedraw ? 1 : 0])
            return [buffer.bounds]
        }
        #expect(window.present(draw: drawAll))
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        #expect(buffers == [[1280, 960, 5120, 2, 1]])
        #expect(window.committedBufferScale == 2)
        // A rectangle in points, in device pixels: rounded outward.
        #expect(
            window.present { buffer in
                [buffer.pixelRect(enclosing: Rect(x: 10.25, y: 10, width: 5.5, height: 3))]
            })
        #expect(run(loop, upTo: 5) { window.framesDone == 2 })
        // The output's scale goes back to 1: new buffers of the surface's size, set_buffer_scale(1).
        server.setOutputScale(1)
        #expect(run(loop, upTo: 5) { window.scale == 1 })
        #expect(scales == [1])
        #expect(window.bufferWidth == 640)
        #expect(window.present(draw: drawAll))
        #expect(run(loop, upTo: 5) { window.framesDone == 3 })
        #expect(buffers.last == [640, 480, 2560, 1, 1])
        let sent = try framesSent(server)
        try #require(sent.count == 3)
        // set_buffer_scale, attach, damage_buffer, frame, commit
        try #require(sent[0].map(\.opcode) == [8, 1, 9, 3, 6])
        #expect(rectangle(sent[0][0], count: 1) == [2])
        #expect(rectangle(sent[0][2]) == [0, 0, 1280, 960])
        try #require(sent[1].map(\.opcode) == [1, 9, 3, 6])  // the scale is said once
        #expect(rectangle(sent[1][1]) == [20, 20, 12, 6])
        try #require(sent[2].map(\.opcode) == [8, 1, 9, 3, 6])
        #expect(rectangle(sent[2][0], count: 1) == [1])
        #expect(rectangle(sent[2][2]) == [0, 0, 640, 480])
        // Scale 3, then off the output: 1 again (the scale of no output).
        server.setOutputScale(3)
        #expect(run(loop, upTo: 5) { window.scale == 3 })
        server.leaveOutput()
        #expect(run(loop, upTo: 5) { window.scale == 1 })
        #expect(scales == [1, 3, 1])
        #expect(window.enteredOutputCount == 0)
    }

    @Test(
        "a configure of 0x0: a full-screen window takes its output's size in points (its mode over its scale), another its default",
        arguments: [
            (true, Int32(1), 3 as UInt32, [1024, 768]), (true, 2, 3, [512, 384]), (true, 2, 1, [1024, 768]),
            (false, 1, 3, [800, 600]),
        ])
    func outputSizedFirstFrame(fullscreen: Bool, scale: Int32, version: UInt32, size: [Int]) throws {
        let server = try FakeCompositor(
            globals: Self.all + [("wl_output", version)], outputScale: scale, outputMode: (1024, 768),
            configureSize: (0, 0))
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(
            connection: connection, options: .init(title: "Sized", appID: "rc.sized", fullscreen: fullscreen))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        #expect([window.width, window.height] == size)
    }

    @Test(
        "an output's global removed: the window is no longer on it and its scale falls back to 1; the output is released"
    )
    func outputRemoved() throws {
        let server = try FakeCompositor(globals: Self.all + [("wl_output", 3)], outputScale: 2)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Gone", appID: "rc.gone"))
        #expect(run(loop, upTo: 5) { window.isConfigured && window.scale == 2 })
        server.removeGlobal(UInt32(Self.all.count + 1))
        #expect(run(loop, upTo: 5) { window.scale == 1 })
        #expect(window.enteredOutputCount == 0)
        #expect(connection.outputs.isEmpty)
        #expect(server.wait { $0.received("wl_output", opcode: 0) }, "wl_output.release")
        // One that appears later is bound and followed.
        server.addGlobal("wl_output", version: 2)
        #expect(run(loop, upTo: 5) { connection.outputs.map(\.scale) == [2] })
    }

    @Test("a wl_output of version 1 has no scale: the window stays at 1")
    func outputVersionOne() throws {
        let server = try FakeCompositor(globals: Self.all + [("wl_output", 1)], outputScale: 2)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Old", appID: "rc.old"))
        #expect(run(loop, upTo: 5) { window.isConfigured && window.enteredOutputCount == 1 })
        #expect(window.scale == 1 && window.bufferWidth == 640)
        #expect(connection.outputs.map(\.scale) == [1])
    }

    @Test("a protocol error is reported once, naming the code and the object")
    func protocolErrorReported() throws {
        let server = try FakeCompositor(globals: Self.all, failsFrames: true)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        var reports: [WaylandError] = []
        connection.onDisconnect = { reports.append($0) }
        let window = try WaylandWindow(connection: connection, options: .init(title: "Error", appID: "rc.error"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        window.present { _ in [] }
        #expect(run(loop, upTo: 5) { !reports.isEmpty })
        _ = run(loop, upTo: 0.2) { false }
        #expect(reports.count == 1)
        let surface = try #require(server.object(of: "wl_surface"))
        #expect(reports.first?.errno == .protocolError)
        #expect(reports.first?.message.contains("protocol error 2 on wl_surface@\(surface)") == true)
        #expect(!window.present { _ in [] })
    }

    @Test(
        "a socket that accepts and never answers: the connection gives up after its timeout, naming the socket and the registry"
    )
    func silentSocketTimesOut() throws {
        let server = try FakeCompositor(globals: Self.all, silent: true)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let started = EventLoop.monotonicNow
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment, timeout: 0.5)
        }
        let elapsed = EventLoop.monotonicNow - started
        #expect(elapsed >= 0.5 && elapsed < 3, "\(elapsed) s")
        #expect(error?.errno == .timedOut)
        #expect(error?.message.contains("at \(server.socketPath)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("did not answer the registry") == true, "\(error?.message ?? "")")
    }

    @Test("a compositor that never configures the window: the connection ends after its timeout, naming the configure")
    func unconfiguredWindowTimesOut() throws {
        let server = try FakeCompositor(globals: Self.all, configures: false)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment, timeout: 0.5)
        var reports: [WaylandError] = []
        connection.onDisconnect = { reports.append($0) }
        let window = try WaylandWindow(connection: connection, options: .init(title: "Never", appID: "rc.never"))
        #expect(run(loop, upTo: 5) { !reports.isEmpty })
        #expect(!window.isConfigured)
        #expect(reports.count == 1)
        #expect(reports.first?.errno == .timedOut)
        #expect(reports.first?.message.contains("did not answer the window's first configure") == true)
        #expect(reports.first?.message.contains(server.socketPath) == true)
    }

    @Test("a seat whose compositor never sends its name still gets its devices once the bind is answered")
    func seatWithoutName() throws {
        // At start: the name is not waited for past the binding's round trip.
        let server = try FakeCompositor(globals: Self.all, namesSeat: false)
        defer { server.stop() }
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: loop, environment: environment)
        #expect(run(loop, upTo: 5) { connection.seatCapabilities == [.pointer, .keyboard] })
        #expect(connection.seatName == nil)
        // A seat that appears later, nameless too.
        let late = try FakeCompositor(globals: Self.all.filter { $0.0 != "wl_seat" }, namesSeat: false)
        defer { late.stop() }
        let lateLoop = try makeLoop()
        let lateConnection = try WaylandConnection(
            loop: lateLoop,
            environment: WaylandEnvironment(display: late.socketName, runtimeDirectory: late.directory))
        #expect(!lateConnection.hasSeat)
        late.addGlobal("wl_seat", version: 7)
        #expect(run(lateLoop, upTo: 5) { lateConnection.seatCapabilities == [.pointer, .keyboard] })
    }

    @Test(
        "no wl_seat at the start: the window is made and drawn; a seat that appears later is bound, and its removal cancels the held key and lets it go"
    )
    func seatArrivesLateAndGoes() throws {
        let server = try FakeCompositor(globals: Self.all.filter { $0.0 != "wl_seat" })
        defer { server.stop() }
        let scene = try Scene(
            json: #"{"root": {"id": "screen", "frame": [0, 0, 64, 48], "children": []}}"#, file: "seatless.json")
        var configuration = Application.Configuration()
        configuration.usesTerminalForOutput = false
        configuration.quitCommand = nil
        configuration.inspection.isEnabled = false
        let app = try Application(window: scene.window, root: scene.root, configuration: configuration)
        let environment = WaylandEnvironment(display: server.socketName, runtimeDirectory: server.directory)
        let connection = try WaylandConnection(loop: app.loop, environment: environment)
        #expect(!connection.hasSeat)
        #expect(connection.seatCapabilities.isEmpty)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Seatless", appID: "rc.seat"))
        let seat = WaylandSeatSource(connection: connection, window: window, loop: app.loop, context: app.inputContext)
        app.setPrimaryInput(seat, fallsBackToTerminal: false)
        var changes: [Application.Change] = []
        app.onChange = { changes.append($0) }
        var presses: [String] = []
        let observation = app.dispatcher.addTraceObserver { record in
            switch record.kind {
            case .press(let press, _), .pressOwned(let press, _, _):
                let entry = "\(press.key.charactersIgnoringModifiers) \(press.phase)"
                if presses.last != entry { presses.append(entry) }
            default:
                break
            }
        }
        defer { _ = observation }
        try app.start()
        #expect(run(app.loop, upTo: 5) { window.isConfigured })
        #expect(window.present { buffer in [PixelRect(rows: 0..<1, width: buffer.width)] })
        #expect(app.inputNote?.contains("offers no seat yet") == true, "\(app.inputNote ?? "")")
        // The seat appears: it is bound, its keyboard too, and a key pressed on it begins a press.
        let name = server.addGlobal("wl_seat", version: 7)
        #expect(run(app.loop, upTo: 5) { connection.hasSeat && server.object(of: "wl_keyboard") != nil })
        #expect(connection.seatName == "seat-fake")
        #expect(seat.devices.map(\.name) == ["seat-fake keyboard", "seat-fake pointer"])
        #expect(app.inputNote?.contains("offers no seat yet") == false, "the note follows: \(app.inputNote ?? "")")
        server.enterAndPress(key: 30)  // KEY_A
        #expect(run(app.loop, upTo: 5) { presses.contains("a began") }, "\(presses)")
        // The seat's global goes: the held key ends cancelled, the devices are removed, the seat released.
        server.removeGlobal(name)
        #expect(run(app.loop, upTo: 5) { !connection.hasSeat && presses.contains("a cancelled") }, "\(presses)")
        #expect(!presses.contains("a ended"))
        #expect(seat.devices.isEmpty)
        let removed = changes.compactMap { change -> [KeyCode]? in
            if case .deviceRemoved(let device, let cancelled) = change, device.name == "seat-fake keyboard" {
                return cancelled
            }
            return nil
        }
        #expect(removed == [[KeyCode(30)]], "\(changes)")
        #expect(server.wait { $0.received("wl_seat", opcode: 3) }, "wl_seat.release")
        #expect(connection.disconnectError == nil)
        app.stop()
    }
}

/// The window's options: one type for `WaylandWindow` and `KeyboardApp.WindowOptions`.
@Suite struct WindowOptionsTests {
    @Test("title and app id default to the program's name; given ones are kept; the rest as documented")
    func defaults() {
        let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "app"
        let plain = WaylandWindow.Options()
        #expect(plain.title == nil && plain.appID == nil)
        #expect(plain.resolvedTitle == program && plain.resolvedAppID == program)
        #expect(plain.fullscreen && plain.defaultWidth == 800 && plain.defaultHeight == 600)
        let named = WaylandWindow.Options(title: "Check-in", appID: "org.example.kiosk", fullscreen: false)
        #expect(named.resolvedTitle == "Check-in" && named.resolvedAppID == "org.example.kiosk")
        #expect(!named.fullscreen)
    }
}
