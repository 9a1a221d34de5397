import TestSupport
import Testing

/// What the tests' private daemon reads from its protocol log.
@Suite("PrivateDaemon's protocol log")
struct PrivateDaemonTests {
    @Test("SPEAK to 225: the spans from the log's time of day, counted through midnight")
    func speakToQueuedAcrossMidnight() {
        let log = """
            [Thu Nov 26 12:00:00 2026 : 100000] speechd:     19:DATA:|SPEAK
            | (7)
            [Thu Nov 26 12:00:00 2026 : 100050] speechd:     19:REPLY:|230 OK RECEIVING DATA
            |
            [Thu Nov 26 12:00:00 2026 : 102000] speechd:     19:REPLY:|225-1
            225 OK MESSAGE QUEUED
            |
            [Thu Nov 26 23:59:59 2026 : 900000] speechd:     19:DATA:|SPEAK
            | (7)
            [Fri Nov 27 00:00:00 2026 : 100000] speechd:     19:REPLY:|225-2
            225 OK MESSAGE QUEUED
            |
            """
        let spans = PrivateDaemon.speakToQueued(in: log)
        #expect(spans.count == 2)
        #expect(abs(spans[0] - 0.002) < 1e-6)
        #expect(abs(spans[1] - 0.2) < 1e-6, "across midnight: \(spans[1])")
    }

    @Test("a stamp that reads a second early (the daemon's seconds from time()) is not a day")
    func stampASecondEarly() {
        // SPEAK at 10:00:00.999, its 225 at 10:00:01.0005 stamped 10:00:00.0005.
        #expect(abs(PrivateDaemon.span(from: 36_000.999, to: 36_000.0005) - 0.0015) < 1e-6)
        #expect(abs(PrivateDaemon.span(from: 86_399.9, to: 0.1) - 0.2) < 1e-6)
        #expect(PrivateDaemon.span(from: 1, to: 1.25) == 0.25)
    }
}
