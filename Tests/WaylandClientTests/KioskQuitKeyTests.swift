import Foundation
import Glibc
import Testing

/// A kiosk on a screen has no quit key by default: under a compositor, Ctrl+C typed on the seat's
/// keyboard reaches the app like any key, and the kiosk goes on (a public kiosk under cage would
/// otherwise end the session: a breakout). Its service manager stops it with SIGTERM.
@Suite("No quit key on a screen", .serialized)
@MainActor
struct KioskQuitKeyTests {
    @Test("Ctrl+C on the seat's keyboard under sway does not end the kiosk; SIGTERM does")
    func controlCDoesNotQuit() throws {
        let kiosk = try KioskUnderSwayTests.Kiosk()
        defer { kiosk.stop() }
        try kiosk.keys("-M", "ctrl", "c", "-m", "ctrl")
        try kiosk.waitFor("Ctrl+C's release") {
            $0["event"] as? String == "key" && $0["phase"] as? String == "up" && $0["keysym"] as? String == "c"
        }
        try kiosk.keys("-k", "Right")
        try kiosk.waitForFocus("tile-find")
        #expect(kiosk.kiosk.isRunning, "the kiosk goes on after Ctrl+C")
        let reserved = kiosk.trace.filter {
            $0["event"] as? String == "stage" && $0["stage"] as? String == "reservedShortcuts"
                && $0["decision"] as? String == "took"
        }
        #expect(reserved.isEmpty, "no reserved shortcut took a key: \(reserved)")
        kill(kiosk.kiosk.processIdentifier, SIGTERM)
        kiosk.kiosk.waitUntilExit()
        #expect(kiosk.kiosk.terminationStatus == 0)
    }
}
