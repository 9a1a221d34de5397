public import ResponderChain

/// Where auto-repeats come from. A device never gets both kernel and software repeats.
public enum RepeatMode: Hashable, Sendable {
    /// The kernel's repeats (`EV_KEY` value 2) for devices that declare `EV_REP` (most
    /// keyboards), software repeats with this timing for devices that do not (uinput devices,
    /// some remotes).
    case automatic(RepeatTiming)
    /// Software repeats with this timing on every device; the kernel's repeats are dropped.
    /// What libinput-based compositors do, so every keyboard repeats alike.
    case software(RepeatTiming)
    /// No repeats at all; the kernel's are dropped.
    case off
}
