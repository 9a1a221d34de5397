// A kiosk that runs wherever it is started imports this one product: every platform, and
// LinuxKeyboard's API with them.
@_exported public import LinuxKeyboard
@_exported public import PlatformDisplay
@_exported public import PlatformWayland

extension KeyboardApp {
    /// Every platform, in the order a kiosk prefers: a compositor's window when one is named, the
    /// display when the app has no terminal (a systemd service), else the console (the keyboards,
    /// else the terminal), as wlroots' `wlr_backend_autocreate` picks its backend.
    ///
    /// - Parameters:
    ///   - wayland: The window's options.
    ///   - display: The display's options.
    /// - Returns: `[WaylandPlatform, DisplayPlatform, ConsolePlatform]`.
    public static func kioskPlatforms(
        wayland: WaylandPlatform.Options = WaylandPlatform.Options(),
        display: DisplayPlatform.Options = DisplayPlatform.Options()
    ) -> [any AppPlatform] {
        [WaylandPlatform(options: wayland), DisplayPlatform(options: display), ConsolePlatform()]
    }
}
