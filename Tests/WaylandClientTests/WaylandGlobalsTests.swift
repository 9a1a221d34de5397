import EventLoop
import Foundation
import Testing
import WaylandClient

/// The registry's globals against ``FakeCompositor``: what a real compositor always offers, taken away.
@Suite("WaylandConnection's globals, against a hand-written server")
@MainActor
struct WaylandGlobalsTests {
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
}
