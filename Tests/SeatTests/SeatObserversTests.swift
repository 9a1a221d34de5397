import Testing

@testable import Seat

@Suite("Seat observers")
struct SeatObserversTests {
    final class Log {
        var lines: [String] = []
    }

    @Test("Inputs let go before the display when the seat goes; the display comes back before the inputs")
    func order() {
        let observers = SeatObservers()
        let log = Log()
        let display = observers.add(
            .output, onDisable: { log.lines.append("display paused") }, onEnable: { log.lines.append("display set") })
        let keys = observers.add(
            .input, onDisable: { log.lines.append("keys cancelled") }, onEnable: { log.lines.append("keys reopened") })
        let touch = observers.add(
            .input, onDisable: { log.lines.append("touch cancelled") },
            onEnable: { log.lines.append("touch resumed") })
        observers.disable()
        observers.enable()
        #expect(
            log.lines == [
                "keys cancelled", "touch cancelled", "display paused", "display set", "keys reopened", "touch resumed",
            ])
        withExtendedLifetime((display, keys, touch)) {}
    }

    @Test("A cancelled or released observation is not called; one cancelled by another while called is skipped")
    func cancelled() {
        let observers = SeatObservers()
        let log = Log()
        var second: SeatObservation?
        let first = observers.add(
            .input,
            onDisable: {
                log.lines.append("first")
                second?.cancel()
            }, onEnable: {})
        second = observers.add(.input, onDisable: { log.lines.append("second") }, onEnable: {})
        var third: SeatObservation? = observers.add(.output, onDisable: { log.lines.append("third") }, onEnable: {})
        third = nil
        observers.disable()
        observers.disable()
        #expect(log.lines == ["first", "first"], "second cancelled by first, third released before the seat went")
        withExtendedLifetime((first, third)) {}
    }
}
