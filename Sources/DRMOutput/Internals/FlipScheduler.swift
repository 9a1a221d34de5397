/// When a DRM output may draw: one page flip in flight at a time, nothing while the seat is away or
/// the display unplugged, only the newest frame kept meanwhile. Pure, so that every transition is
/// tested without a GPU.
struct FlipScheduler: Hashable {
    /// How long a flip may stay pending before its event is taken as lost (weston's page-flip
    /// timeout): the next frame is then drawn anyway.
    static let flipTimeout = 1.0

    /// A frame waits to be drawn.
    private(set) var frameWaits = false
    /// When the flip in flight was asked for, if one is.
    private(set) var flipPendingSince: Double?
    /// The seat is away (another VT): the device is not ours to draw on.
    private(set) var isPaused = false
    /// The display is unplugged.
    private(set) var isDisconnected = false
    /// The next frame must set the mode (`drmModeSetCrtc`), not flip: at start, after the seat
    /// came back, after the display came back or changed.
    private(set) var needsModeset = true

    /// Whether a frame may be drawn now.
    var mayDraw: Bool { frameWaits && flipPendingSince == nil && !isPaused && !isDisconnected }

    /// The deadline to wake up at: only while a flip is pending, so an idle display never wakes.
    var deadline: Double? { flipPendingSince.map { $0 + Self.flipTimeout } }

    /// A frame was asked for. Returns whether to draw it now.
    mutating func frameRequested() -> Bool {
        frameWaits = true
        return mayDraw
    }

    /// A frame was drawn: by a mode set (on the screen at once) or a flip (pending until its event).
    mutating func drew(flipped: Bool, at now: Double) {
        frameWaits = false
        needsModeset = false
        flipPendingSince = flipped ? now : nil
    }

    /// The frame asked for showed nothing new (an unchanged frame): no flip, and no frame waits.
    mutating func nothingToDraw() {
        frameWaits = false
    }

    /// Drawing was refused (the device is not ours: DRM master went with the seat). Returns
    /// nothing to do until the seat comes back.
    mutating func refused() {
        isPaused = true
        needsModeset = true
    }

    /// Drawing failed otherwise (another master without a seat, a driver's error): the frame still
    /// waits, for the next request, and a refused mode set is tried again.
    mutating func failed(modeSet: Bool) {
        frameWaits = false
        flipPendingSince = nil
        if modeSet { needsModeset = true }
    }

    /// The flip in flight is on the screen (its event), or was given up (the timeout). Returns
    /// whether to draw the frame that waits. A flip asked for before the seat went may complete
    /// while it is away: the buffers swap, nothing is drawn.
    mutating func flipCompleted() -> Bool {
        flipPendingSince = nil
        return mayDraw
    }

    /// The seat is away: no drawing until ``seatEnabled()``.
    mutating func seatDisabled() {
        isPaused = true
        needsModeset = true
    }

    /// The seat is back: the mode is set again and the whole frame drawn. Returns whether to draw
    /// now (a frame is always wanted: the screen shows another program's).
    mutating func seatEnabled() -> Bool {
        isPaused = false
        needsModeset = true
        frameWaits = true
        return mayDraw
    }

    /// The display was unplugged (or its connector is gone).
    mutating func disconnected() {
        isDisconnected = true
        needsModeset = true
    }

    /// The display is back, or its mode changed: the mode is set again and the whole frame drawn.
    /// Returns whether to draw now.
    mutating func connected() -> Bool {
        isDisconnected = false
        needsModeset = true
        frameWaits = true
        return mayDraw
    }
}

/// Which pixel rows of each of two buffers are stale: a row drawn into the shadow is stale in
/// both buffers until copied into each (the front buffer's copy waits until it is the back one
/// again). Pure, tested without a GPU.
struct StaleRows: Hashable {
    private var stale: [[Bool]]

    /// Every row of both buffers stale.
    init(height: Int) {
        stale = Array(repeating: Array(repeating: true, count: max(0, height)), count: 2)
    }

    /// Rows drawn into the shadow: stale in both buffers.
    mutating func add(_ ranges: [Range<Int>]) {
        for index in 0..<2 {
            for range in ranges {
                for row in range where stale[index].indices.contains(row) { stale[index][row] = true }
            }
        }
    }

    /// Every row stale in both buffers (their contents are unknown).
    mutating func addAll() {
        for index in 0..<2 { stale[index] = Array(repeating: true, count: stale[index].count) }
    }

    /// The stale rows of one buffer, merged into ranges, and marks them fresh: they are about to
    /// be copied.
    mutating func take(buffer index: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (row, isStale) in stale[index].enumerated() {
            if isStale, start == nil { start = row }
            if !isStale, let first = start {
                ranges.append(first..<row)
                start = nil
            }
        }
        if let first = start { ranges.append(first..<stale[index].count) }
        stale[index] = Array(repeating: false, count: stale[index].count)
        return ranges
    }
}
