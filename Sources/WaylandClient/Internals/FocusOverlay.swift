internal import CWayland
internal import Glibc
internal import Graphics
internal import LinuxSystem
internal import ResponderChain

/// What a window's overlay shows in a frame: an opaque patch of the window (its focused item,
/// focused, with its effect and what lies under them), at a rectangle of whole points.
struct OverlayPlan {
    /// Which patch: one kept per key, until something under it changes.
    var key: OverlayKey
    /// Where, in points within the window.
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// Draws the patch into a buffer of its size at the window's scale (its top-left pixel is the
    /// rectangle's); called only when no kept patch serves.
    var draw: (PixelBuffer) -> Void
}

/// What a patch shows: the window with an item focused and a node first responder (in step with
/// focus, they are the same; an on-screen keyboard's key leaves the field it types into first
/// responder, and a field may resign while focused): the first responder draws its own look.
struct OverlayKey: Hashable {
    var item: ObjectIdentifier
    var firstResponder: ObjectIdentifier?
}

/// A `wl_subsurface` over a window's surface that shows its focused item, as Core Animation shows a
/// focused view's layer on tvOS: the window's own buffer draws every item at rest, so a focus move
/// changes nothing in it; the overlay shows the new item's patch, drawn once and kept (the most
/// recently shown, in at most the memory of one window buffer), and moves to it (`wl_subsurface.set_position`). A move back to an item
/// whose patch is kept draws nothing at all. The subsurface is synchronized (the default): its
/// buffer and position take effect with the window's next commit, so the window's frame and the
/// overlay change at once. Its input region is empty: pointer events stay the window's.
@MainActor
final class FocusOverlay {
    /// The most patches kept; fewer when they would take more memory than the window's own buffer.
    static let keptLimit = 16

    private let display: DisplayCore
    private var surface: OpaquePointer?
    private var subsurface: OpaquePointer?
    private var slots: [OverlaySlot] = []
    /// The slot attached (`nil`: nothing shown).
    private var shown: OverlaySlot?
    private var committedScale = 1
    private var useClock: UInt64 = 0
    /// How many patches were drawn, and how many frames showed a kept one.
    private(set) var patchesDrawn = 0
    private(set) var patchesReused = 0
    /// Whether the next patch to draw fails as if no shared memory were left (tests: the failure
    /// path cannot be brought about safely in a test process).
    var failsNextPatch = false
    /// Where the overlay is, in points, or `nil` while it shows nothing.
    private(set) var shownRect: (x: Int, y: Int, width: Int, height: Int)?

    init?(display: DisplayCore, parent: OpaquePointer, window: WindowCore) {
        guard let subcompositor = display.subcompositor, let compositor = display.compositor,
            let surface = wl_compositor_create_surface(compositor)
        else { return nil }
        self.display = display
        self.surface = surface
        subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent)
        // Taps and clicks on the overlay go to the window under it, at the same points.
        if let region = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        }
        self.window = window
    }

    private weak var window: WindowCore?

    /// Whether the overlay would change for a plan's key and rectangle at a scale: another patch, or
    /// the one shown no longer valid.
    func needsUpdate(key: OverlayKey?, x: Int, y: Int, width: Int, height: Int, scale: Int) -> Bool {
        guard let key else { return shown != nil }
        guard let shown else { return true }
        return !shown.serves(key: key, x: x, y: y, width: width, height: height, scale: scale)
    }

    /// Shows a plan (`nil`: nothing) in the window's next commit; returns whether anything changed,
    /// or `nil` when the plan could not be shown (no shared memory for its patch: the overlay then
    /// shows nothing).
    ///
    /// - Parameters:
    ///   - plan: What to show.
    ///   - scale: The window's buffer scale.
    ///   - budget: The bytes the kept patches may take (the window's buffer's size).
    func apply(_ plan: OverlayPlan?, scale: Int, budget: Int) -> Bool? {
        guard let surface, let subsurface else { return nil }
        guard let plan else {
            guard shown != nil else { return false }
            wl_surface_attach(surface, nil, 0, 0)
            wl_surface_commit(surface)
            shown = nil
            shownRect = nil
            return true
        }
        useClock += 1
        let slot: OverlaySlot
        if let kept = slots.first(where: {
            $0.serves(key: plan.key, x: plan.x, y: plan.y, width: plan.width, height: plan.height, scale: scale)
        }) {
            if kept === shown { return false }
            slot = kept
            patchesReused += 1
        } else {
            let (width, height) = (plan.width * scale, plan.height * scale)
            guard let free = freeSlot(for: plan.key, bytes: width * height * 4, budget: budget) else {
                return hideAfterFailure()
            }
            if failsNextPatch {
                failsNextPatch = false
                return hideAfterFailure()
            }
            do throws(WaylandError) {
                try free.prepare(shm: display.shm, width: width, height: height, window: window)
            } catch {
                return hideAfterFailure()
            }
            guard let buffer = free.buffer else { return hideAfterFailure() }
            plan.draw(
                PixelBuffer(
                    pixels: buffer.pixels, width: free.pixelWidth, height: free.pixelHeight, stride: free.stride,
                    format: .xrgb8888, scale: scale, needsFullRedraw: true))
            free.key = plan.key
            free.rect = (plan.x, plan.y, plan.width, plan.height)
            free.scale = scale
            free.valid = true
            slot = free
            patchesDrawn += 1
        }
        guard let buffer = slot.buffer else { return hideAfterFailure() }
        slot.lastUse = useClock
        if committedScale != scale {
            wl_surface_set_buffer_scale(surface, Int32(scale))
            committedScale = scale
        }
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(slot.pixelWidth), Int32(slot.pixelHeight))
        wl_subsurface_set_position(subsurface, Int32(plan.x), Int32(plan.y))
        wl_surface_commit(surface)
        buffer.busy = true
        shown = slot
        shownRect = (plan.x, plan.y, plan.width, plan.height)
        trim(budget: budget)
        return true
    }

    private func hideAfterFailure() -> Bool? {
        _ = apply(nil, scale: committedScale, budget: 0)
        return nil
    }

    /// A slot to draw a new patch of `bytes` into: one the compositor does not hold and not shown,
    /// the same key's first, else an unused one, else a new one while the kept patches fit the budget
    /// and the limit, else the least recently shown; a new one when every slot is held.
    private func freeSlot(for key: OverlayKey, bytes: Int, budget: Int) -> OverlaySlot? {
        let free = slots.filter { $0 !== shown && !($0.buffer?.busy ?? false) }
        if let same = free.first(where: { $0.key == key }) { return same }
        if let unused = free.first(where: { !$0.valid }) { return unused }
        let kept = slots.reduce(0) { $0 + $1.capacity }
        if free.isEmpty || (slots.count < Self.keptLimit && kept + bytes <= budget) {
            let slot = OverlaySlot()
            slots.append(slot)
            return slot
        }
        return free.min { $0.lastUse < $1.lastUse }
    }

    /// Lets go of the least recently shown free slots while the kept patches pass the budget or the
    /// limit (after a slot grew, a new one was needed, or the window shrank).
    private func trim(budget: Int) {
        var kept = slots.reduce(0) { $0 + $1.capacity }
        while kept > budget || slots.count > Self.keptLimit {
            let free = slots.filter { $0 !== shown && !($0.buffer?.busy ?? false) }
            guard let oldest = free.min(by: { ($0.valid ? 1 : 0, $0.lastUse) < ($1.valid ? 1 : 0, $1.lastUse) }) else {
                return
            }
            kept -= oldest.capacity
            oldest.destroy()
            slots.removeAll { $0 === oldest }
        }
    }

    /// Forgets the patches that meet a rectangle in points: something under them changed.
    func invalidate(intersecting rect: Rect) {
        for slot in slots where slot.valid {
            let (x, y, width, height) = slot.rect
            let area = Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
            if area.intersects(rect) { slot.valid = false }
        }
    }

    /// Forgets every patch.
    func invalidateAll() {
        for slot in slots { slot.valid = false }
    }

    func destroy() {
        // The surface first: its buffers are no longer attached when they go.
        if let subsurface { wl_subsurface_destroy(subsurface) }
        if let surface { wl_surface_destroy(surface) }
        subsurface = nil
        surface = nil
        for slot in slots { slot.destroy() }
        slots = []
        shown = nil
        shownRect = nil
    }
}

/// One kept patch: its own memfd (grown, never shrunk), a `wl_buffer` of the patch's size in it.
@MainActor
final class OverlaySlot {
    var key: OverlayKey?
    var rect: (x: Int, y: Int, width: Int, height: Int) = (0, 0, 0, 0)
    var scale = 0
    var valid = false
    var lastUse: UInt64 = 0
    private(set) var buffer: ShmBuffer?
    private(set) var pixelWidth = 0
    private(set) var pixelHeight = 0
    var stride: Int { pixelWidth * 4 }
    private var fd: Int32 = -1
    private var mapping: UnsafeMutableRawPointer?
    /// The bytes its memfd holds.
    private(set) var capacity = 0

    func serves(key: OverlayKey, x: Int, y: Int, width: Int, height: Int, scale: Int) -> Bool {
        valid && self.key == key && rect == (x, y, width, height) && self.scale == scale
    }

    /// Makes the buffer the given size in device pixels (a new `wl_buffer`, and a larger memfd when
    /// it does not fit). Only for a slot the compositor does not hold.
    func prepare(shm: OpaquePointer?, width: Int, height: Int, window: WindowCore?) throws(WaylandError) {
        valid = false
        if buffer != nil, width == pixelWidth, height == pixelHeight { return }
        buffer?.destroy()
        buffer = nil
        let size = width * height * 4
        if size > capacity {
            release()
            let (fd, mapping) = try mapSharedMemory(
                size: size, name: "responderchain-wl_shm-overlay", for: "a \(width)x\(height)-pixel focus layer")
            self.fd = fd
            self.mapping = mapping
            capacity = size
        }
        guard let mapping else { return }
        let pool = wl_shm_create_pool(shm, fd, Int32(capacity))
        // WL_SHM_FORMAT_XRGB8888: the patch is opaque, the compositor copies it without blending.
        guard let made = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(width * 4), 1) else {
            wl_shm_pool_destroy(pool)
            return
        }
        wl_shm_pool_destroy(pool)
        let shmBuffer = ShmBuffer(buffer: made, pixels: UnsafeMutableRawBufferPointer(start: mapping, count: size))
        shmBuffer.window = window
        shmBuffer.listen()
        buffer = shmBuffer
        pixelWidth = width
        pixelHeight = height
    }

    private func release() {
        if let mapping { munmap(mapping, capacity) }
        if fd >= 0 { Glibc.close(fd) }
        mapping = nil
        fd = -1
        capacity = 0
    }

    func destroy() {
        buffer?.destroy()
        buffer = nil
        release()
        valid = false
    }
}
