import ResponderChain
import Testing

@testable import DRMOutput

/// wlroots' damage ring kept per buffer: what each of the two buffers missed since it was last
/// drawn into.
@Suite("What each buffer missed")
struct DamageRingTests {
    let screen = DisplayRect(x: 0, y: 0, width: 1280, height: 800)
    let first = DisplayRect(x: 100, y: 100, width: 200, height: 80)
    let second = DisplayRect(x: 700, y: 500, width: 200, height: 80)
    let third = DisplayRect(x: 400, y: 300, width: 120, height: 40)

    @Test("A buffer never drawn into missed everything; then each takes this frame's damage and what it missed")
    func bufferAge() {
        var ring = DamageRing(bounds: screen)
        // Frame 1 into A (the mode set): everything.
        #expect(ring.take(buffer: 0) == [screen])
        // Frame 2 into B: B was never drawn into, so everything, whatever frame 2 damaged.
        ring.add([first])
        #expect(ring.take(buffer: 1) == [screen])
        // Frame 3 into A: its own damage and frame 2's, which A missed while B was shown.
        ring.add([second])
        #expect(ring.take(buffer: 0) == [first, second])
        // Frame 4 into B: frame 3's and its own; not frame 2's, which B has.
        ring.add([third])
        #expect(ring.take(buffer: 1) == [second, third])
        #expect(ring.missed(buffer: 0) == [third])
        #expect(ring.missed(buffer: 1).isEmpty)
    }

    @Test("Lost buffers miss everything again; an empty frame adds nothing")
    func lost() {
        var ring = DamageRing(bounds: screen)
        _ = ring.take(buffer: 0)
        _ = ring.take(buffer: 1)
        ring.add([DisplayRect]())
        ring.add([DisplayRect(x: 5, y: 5, width: 0, height: 10)])
        #expect(ring.missed(buffer: 0).isEmpty && ring.missed(buffer: 1).isEmpty)
        ring.addAll()
        #expect(ring.take(buffer: 0) == [screen] && ring.take(buffer: 1) == [screen])
    }

    @Test("Rectangles are clipped to the screen, merged when they touch and waste little, capped at 16")
    func coalescing() {
        let merged = DisplayRect.coalesced(
            [
                DisplayRect(x: -10, y: -10, width: 30, height: 30), DisplayRect(x: 20, y: 0, width: 20, height: 20),
                DisplayRect(x: 600, y: 600, width: 10, height: 10), DisplayRect(x: 602, y: 602, width: 4, height: 4),
            ], within: screen, limit: 16)
        #expect(
            merged == [
                DisplayRect(x: 0, y: 0, width: 40, height: 20), DisplayRect(x: 600, y: 600, width: 10, height: 10),
            ])
        // A diagonal pair that touches at a corner wastes too much to merge.
        let apart = DisplayRect.coalesced(
            [DisplayRect(x: 0, y: 0, width: 10, height: 10), DisplayRect(x: 10, y: 10, width: 10, height: 10)],
            within: screen, limit: 16)
        #expect(apart.count == 2)
        let many = (0..<40).map { DisplayRect(x: $0 * 30, y: ($0 % 5) * 150, width: 10, height: 10) }
        #expect(DisplayRect.coalesced(many, within: screen, limit: 16).count == 16)
        // Three quarters of the screen or more: the screen, one copy of whole rows.
        let most = [
            DisplayRect(x: 0, y: 0, width: 1280, height: 300), DisplayRect(x: 0, y: 400, width: 1280, height: 300),
        ]
        #expect(DisplayRect.coalesced(most, within: screen, limit: 16) == [screen])
    }

    @Test("A rectangle in points covers the pixels it touches at a scale, rounded outward")
    func enclosing() {
        #expect(
            DisplayRect(enclosing: Rect(x: 10.5, y: 3, width: 20, height: 7.25), scale: 1)
                == DisplayRect(x: 10, y: 3, width: 21, height: 8))
        #expect(
            DisplayRect(enclosing: Rect(x: 10, y: 10, width: 20, height: 20), scale: 1.5)
                == DisplayRect(x: 15, y: 15, width: 30, height: 30))
        #expect(
            DisplayRect(enclosing: Rect(x: 1, y: 1, width: 1, height: 1), scale: 1.25)
                == DisplayRect(x: 1, y: 1, width: 2, height: 2))
        #expect(DisplayRect(enclosing: Rect(x: .nan, y: 0, width: 5, height: 5), scale: 2).isEmpty)
    }
}
