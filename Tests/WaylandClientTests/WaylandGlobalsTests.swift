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
}
