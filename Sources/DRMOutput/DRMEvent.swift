/// An event the kernel's DRM device delivers on its descriptor: a page flip done, a vertical
/// blank. Decoded from the bytes `read(2)` returns by ``DRMEvents/decode(_:)``.
public struct DRMEvent: Hashable, Sendable {
    /// What happened.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        /// The kernel's event type (`DRM_EVENT_*`).
        public var rawValue: UInt32

        /// A kind by the kernel's number.
        ///
        /// - Parameter rawValue: The `DRM_EVENT_*` value.
        public init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        /// `DRM_EVENT_VBLANK`: a vertical blank asked for with `drmWaitVBlank`.
        public static let verticalBlank = Kind(rawValue: 1)
        /// `DRM_EVENT_FLIP_COMPLETE`: a page flip is on the screen.
        public static let flipComplete = Kind(rawValue: 2)
        /// `DRM_EVENT_CRTC_SEQUENCE`: a CRTC sequence reached.
        public static let crtcSequence = Kind(rawValue: 3)
    }

    /// What happened.
    public var kind: Kind
    /// When, in seconds of `CLOCK_MONOTONIC` (the clock `DRM_CAP_TIMESTAMP_MONOTONIC` says the
    /// kernel uses): for a flip, when it reached the screen. 0 for kinds without a time.
    public var time: Double
    /// The vertical-blank counter (0 on drivers without one, such as virtio-gpu).
    public var sequence: UInt32
    /// The CRTC it happened on (0 on kernels before 4.12).
    public var crtc: UInt32
    /// The value given with the request.
    public var userData: UInt64

    /// An event.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - time: When (`CLOCK_MONOTONIC` seconds).
    ///   - sequence: The vertical-blank counter.
    ///   - crtc: The CRTC.
    ///   - userData: The request's value.
    public init(kind: Kind, time: Double, sequence: UInt32 = 0, crtc: UInt32 = 0, userData: UInt64 = 0) {
        self.kind = kind
        self.time = time
        self.sequence = sequence
        self.crtc = crtc
        self.userData = userData
    }
}

/// Decodes the events a DRM device's descriptor delivers (`struct drm_event` headers, each
/// followed by its body: `struct drm_event_vblank` for flips and vertical blanks), without
/// libdrm's callbacks.
public enum DRMEvents {
    /// The bytes one `struct drm_event_vblank` takes: the 8-byte header, `user_data`, `tv_sec`,
    /// `tv_usec`, `sequence`, `crtc_id`.
    public static let vblankSize = 32

    /// The events in the bytes one `read(2)` returned, in order. An event of a kind not known
    /// here is kept with its kind and no time; a header whose length is shorter than a header
    /// or runs past the bytes ends the decoding (the kernel never splits an event across reads,
    /// so what follows cannot be trusted).
    ///
    /// - Parameter bytes: What `read(2)` returned.
    /// - Returns: The events, and whether the bytes ended in a malformed header.
    public static func decode(_ bytes: some Collection<UInt8>) -> (events: [DRMEvent], malformed: Bool) {
        let bytes = Array(bytes)
        var events: [DRMEvent] = []
        var offset = 0
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else { return (events, true) }
            let type = word(offset)
            let length = Int(word(offset + 4))
            guard length >= 8, length <= bytes.count - offset else { return (events, true) }
            let kind = DRMEvent.Kind(rawValue: type)
            if [.verticalBlank, .flipComplete].contains(kind), length >= vblankSize {
                let userData = UInt64(word(offset + 8)) | UInt64(word(offset + 12)) << 32
                let seconds = Double(word(offset + 16))
                let microseconds = Double(word(offset + 20))
                events.append(
                    DRMEvent(
                        kind: kind, time: seconds + microseconds / 1_000_000, sequence: word(offset + 24),
                        crtc: word(offset + 28), userData: userData))
            } else {
                events.append(DRMEvent(kind: kind, time: 0))
            }
            offset += length
        }
        return (events, false)
    }
}
