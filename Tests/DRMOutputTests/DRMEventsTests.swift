import Testing

@testable import DRMOutput

/// A `struct drm_event_vblank` as the kernel writes it (little-endian).
func vblankBytes(
    type: UInt32 = 2, length: UInt32 = 32, userData: UInt64 = 0, seconds: UInt32, microseconds: UInt32,
    sequence: UInt32 = 0, crtc: UInt32 = 33
) -> [UInt8] {
    func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    return word(type) + word(length) + word(UInt32(truncatingIfNeeded: userData))
        + word(UInt32(truncatingIfNeeded: userData >> 32)) + word(seconds) + word(microseconds) + word(sequence)
        + word(crtc)
}

@Suite("DRM events")
struct DRMEventsTests {
    @Test("Two flip events in one read decode in order with their monotonic times and CRTC")
    func twoFlips() {
        let bytes =
            vblankBytes(userData: 7, seconds: 12, microseconds: 500_000, crtc: 33)
            + vblankBytes(seconds: 12, microseconds: 750_000, sequence: 9, crtc: 34)
        let (events, malformed) = DRMEvents.decode(bytes)
        #expect(!malformed)
        #expect(
            events == [
                DRMEvent(kind: .flipComplete, time: 12.5, sequence: 0, crtc: 33, userData: 7),
                DRMEvent(kind: .flipComplete, time: 12.75, sequence: 9, crtc: 34),
            ])
    }

    @Test("An unknown event kind is kept without a time, and the next event still decodes")
    func unknownKind() {
        let unknown: [UInt8] = [9, 0, 0, 0, 12, 0, 0, 0, 1, 2, 3, 4]
        let (events, malformed) = DRMEvents.decode(unknown + vblankBytes(seconds: 1, microseconds: 0))
        #expect(!malformed)
        #expect(events.map(\.kind) == [DRMEvent.Kind(rawValue: 9), .flipComplete])
        #expect(events.map(\.time) == [0, 1])
    }

    @Test(
        "A header shorter than a header, longer than the bytes, or cut off ends decoding as malformed",
        arguments: [
            [UInt8](repeating: 0, count: 5),
            [2, 0, 0, 0, 4, 0, 0, 0],
            [2, 0, 0, 0, 64, 0, 0, 0] + [UInt8](repeating: 0, count: 24),
            [2, 0, 0, 0, 0, 0, 0, 0],
            [2, 0, 0, 0, 255, 255, 255, 255],
        ])
    func malformed(bytes: [UInt8]) {
        let (events, malformed) = DRMEvents.decode(vblankBytes(seconds: 3, microseconds: 0) + bytes)
        #expect(malformed)
        #expect(events.count == 1)
    }

    @Test("A flip event shorter than a vblank body is kept without a time")
    func shortFlip() {
        let (events, malformed) = DRMEvents.decode([2, 0, 0, 0, 8, 0, 0, 0] as [UInt8])
        #expect(!malformed)
        #expect(events == [DRMEvent(kind: .flipComplete, time: 0)])
    }
}
