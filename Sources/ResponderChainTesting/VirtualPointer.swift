import ResponderChain

/// A touch screen and a mouse that tap and click into a dispatcher, for tests: the same
/// `InputEvent.pointer` values a libinput or Wayland source sends, so a tap goes through the one
/// hit test and activation path the app uses.
///
/// ```swift
/// let app = AppHarness(window: window, root: root)
/// app.pointer.tap(at: Point(x: 12, y: 3))                 // a finger down and up: the tile's action runs
/// try app.pointer.tap(#require(app.pointerTargets.entry("pay")?.tapPoint))
/// app.pointer.touch(down: [Point(x: 5, y: 5), Point(x: 30, y: 5)])   // two fingers: nothing activates
/// ```
@MainActor
public final class VirtualPointer {
    /// The dispatcher this pointer sends to.
    public let dispatcher: Dispatcher
    /// This pointer's device.
    public let device: DeviceID
    /// The timestamp of the next event, in seconds.
    public var clock: Double
    /// How far the clock advances per event, in seconds.
    public var step: Double
    /// Called after each event: an ``AppHarness`` brings focus up to date there.
    package var afterEvent: (() -> Void)?

    /// Creates a virtual pointer.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher to send to.
    ///   - device: The device number (a keyboard's is `DeviceID.primary`: give the pointer its own).
    ///   - clock: The first timestamp, in seconds.
    ///   - step: How far the clock advances per event.
    public init(
        _ dispatcher: Dispatcher, device: DeviceID = DeviceID(rawValue: 90), clock: Double = 0, step: Double = 0.01
    ) {
        self.dispatcher = dispatcher
        self.device = device
        self.clock = clock
        self.step = step
    }

    /// Sends one pointer event.
    ///
    /// - Parameters:
    ///   - phase: What the contact does.
    ///   - kind: A finger or a mouse button.
    ///   - contact: The finger's id (a mouse has one).
    ///   - point: Where, in the window's coordinates.
    public func send(
        _ phase: PointerEvent.Phase, _ kind: PointerEvent.Kind, contact: Int = PointerActivationTracker.pointerID,
        at point: Point
    ) {
        dispatcher.receive(
            .pointer(PointerEvent(phase, kind, contact: contact, at: point, device: device, timestamp: clock)))
        clock += step
        afterEvent?()
    }

    /// A finger down and up at one point: what a touch screen's tap sends.
    ///
    /// - Parameter point: Where, in the window's coordinates.
    public func tap(at point: Point) {
        send(.down, .touch, contact: 0, at: point)
        send(.up, .touch, contact: 0, at: point)
    }

    /// The left button down and up at one point.
    ///
    /// - Parameter point: Where, in the window's coordinates.
    public func click(at point: Point) {
        send(.down, .mouse, at: point)
        send(.up, .mouse, at: point)
    }

    /// Fingers down together, then lifted in the same order: a multi-finger touch (which
    /// activates nothing).
    ///
    /// - Parameter points: Where each finger touches.
    public func touch(down points: [Point]) {
        for (contact, point) in points.enumerated() { send(.down, .touch, contact: contact, at: point) }
        for (contact, point) in points.enumerated() { send(.up, .touch, contact: contact, at: point) }
    }

    /// A finger down, then the touch cancelled (the device went away, the system took it).
    ///
    /// - Parameter point: Where the finger went down.
    public func touchCancelled(at point: Point) {
        send(.down, .touch, contact: 0, at: point)
        send(.cancel, .touch, contact: 0, at: point)
    }
}
