import KioskExample
import LinuxKeyboard

// The kiosk on the console alone: the keyboards through evdev, else the terminal, drawn in the
// terminal. It links LinuxKeyboard only: no libwayland, libdrm, libinput, cairo, FreeType, HarfBuzz
// or fontconfig (EndToEndTests checks with ldd), for an embedded image with no screen stack.
MainActor.assumeIsolated {
    runKiosk(
        KioskBuild(platforms: { choice in
            switch choice {
            case .automatic, .console: [ConsolePlatform()]
            case .wayland, .display: nil
            }
        }))
}
