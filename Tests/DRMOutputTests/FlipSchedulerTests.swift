import Testing

@testable import DRMOutput

@Suite("Flip scheduling and stale rows")
struct FlipSchedulerTests {
    @Test("The first frame sets the mode; later ones flip, one at a time, the newest kept meanwhile")
    func oneFlipInFlight() {
        var scheduler = FlipScheduler()
        #expect(scheduler.needsModeset)
        let step1 = scheduler.frameRequested()
        #expect(step1)
        scheduler.drew(flipped: false, at: 1)
        #expect(!scheduler.needsModeset)
        #expect(scheduler.deadline == nil)
        let step2 = scheduler.frameRequested()
        #expect(step2)
        scheduler.drew(flipped: true, at: 2)
        #expect(scheduler.deadline == 2 + FlipScheduler.flipTimeout)
        let step3 = scheduler.frameRequested()
        #expect(!step3)
        let step4 = scheduler.frameRequested()
        #expect(!step4)
        let step5 = scheduler.flipCompleted()
        #expect(step5)
        scheduler.drew(flipped: true, at: 3)
        let drawsAfterSecondFlip = scheduler.flipCompleted()
        #expect(drawsAfterSecondFlip == false)
    }

    @Test("Idle, no deadline: nothing wakes the loop")
    func idle() {
        var scheduler = FlipScheduler()
        _ = scheduler.frameRequested()
        scheduler.drew(flipped: true, at: 5)
        let step6 = scheduler.flipCompleted()
        #expect(!step6)
        #expect(scheduler.deadline == nil)
    }

    @Test("The seat away: nothing drawn, a flip that completes meanwhile draws nothing; back: the mode is set")
    func seat() {
        var scheduler = FlipScheduler()
        _ = scheduler.frameRequested()
        scheduler.drew(flipped: false, at: 1)
        _ = scheduler.frameRequested()
        scheduler.drew(flipped: true, at: 2)
        scheduler.seatDisabled()
        let step7 = scheduler.frameRequested()
        #expect(!step7)
        let step8 = scheduler.flipCompleted()
        #expect(!step8)
        #expect(scheduler.needsModeset)
        let step9 = scheduler.seatEnabled()
        #expect(step9)
        scheduler.drew(flipped: false, at: 3)
        #expect(!scheduler.needsModeset)
    }

    @Test("A refused flip pauses until the seat is back; an unplugged display until it is connected")
    func refusedAndUnplugged() {
        var scheduler = FlipScheduler()
        _ = scheduler.frameRequested()
        scheduler.refused()
        #expect(scheduler.isPaused)
        let step10 = scheduler.frameRequested()
        #expect(!step10)
        let step11 = scheduler.seatEnabled()
        #expect(step11)
        scheduler.drew(flipped: false, at: 1)
        scheduler.disconnected()
        let step12 = scheduler.frameRequested()
        #expect(!step12)
        let step13 = scheduler.connected()
        #expect(step13)
        #expect(scheduler.needsModeset)
    }

    @Test("A failed mode set keeps the mode set armed and the next request draws; a failed flip flips again")
    func failures() {
        var scheduler = FlipScheduler()
        let first = scheduler.frameRequested()
        scheduler.failed(modeSet: true)
        let retried = scheduler.frameRequested()
        #expect(first && retried)
        #expect(scheduler.needsModeset && !scheduler.isPaused)
        scheduler.drew(flipped: false, at: 1)
        _ = scheduler.frameRequested()
        scheduler.failed(modeSet: false)
        #expect(!scheduler.needsModeset)
        #expect(scheduler.deadline == nil)
        let again = scheduler.frameRequested()
        #expect(again)
    }

    @Test("Rows drawn are stale in both buffers until each is copied; all stale at first")
    func staleRows() {
        var stale = StaleRows(height: 10)
        var taken: [[Range<Int>]] = []
        taken.append(stale.take(buffer: 0))
        taken.append(stale.take(buffer: 0))
        stale.add([2..<4, 7..<8])
        taken.append(stale.take(buffer: 0))
        stale.add([3..<5, 12..<20])
        taken.append(stale.take(buffer: 1))
        taken.append(stale.take(buffer: 0))
        stale.addAll()
        taken.append(stale.take(buffer: 1))
        #expect(taken == [[0..<10], [], [2..<4, 7..<8], [0..<10], [3..<5], [0..<10]])
    }
}
