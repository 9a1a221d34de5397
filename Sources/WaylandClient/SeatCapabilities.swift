/// What the compositor's seat (`wl_seat`) offers now: a keyboard, a pointer, a touch screen.
/// Each can appear and go away while the app runs.
public struct SeatCapabilities: OptionSet, Hashable, Sendable {
    /// The raw `wl_seat.capabilities` bits.
    public var rawValue: UInt32

    /// Creates capabilities from `wl_seat.capabilities` bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The seat has a pointer (`WL_SEAT_CAPABILITY_POINTER`).
    public static let pointer = SeatCapabilities(rawValue: 1)
    /// The seat has a keyboard (`WL_SEAT_CAPABILITY_KEYBOARD`).
    public static let keyboard = SeatCapabilities(rawValue: 2)
    /// The seat has a touch screen (`WL_SEAT_CAPABILITY_TOUCH`).
    public static let touch = SeatCapabilities(rawValue: 4)
}
