import Glibc
import KioskExample
import KioskPlatforms

// The kiosk on every platform: a Wayland window when a compositor is named, the display when it
// runs with no terminal (a systemd service), else the keyboards or the terminal. kiosk-console-example
// is the same kiosk on the console alone.
MainActor.assumeIsolated {
    runKiosk(
        KioskBuild(
            platforms: { choice in
                switch choice {
                case .automatic: KeyboardApp.kioskPlatforms()
                case .wayland: [WaylandPlatform()]
                case .display: [DisplayPlatform()]
                case .console: [ConsolePlatform()]
                }
            },
            setUpDisplay: { app, frameLogPath, readyPath in
                guard let display = app.display else { return false }
                // A display shows what went wrong too: the operator may have no terminal to look at.
                display.output.onChange = { change in
                    switch change {
                    case .failed(let error): app.report(error.message)
                    case .disconnected(let connector): printError("the display on \(connector) was unplugged")
                    case .connected(let connector, let mode): printError("a display on \(connector) shows \(mode)")
                    case .paused, .resumed: break
                    }
                }
                var frameLog: OutputBuffer?
                if let frameLogPath {
                    do { frameLog = try OutputBuffer(path: frameLogPath) } catch { fail("--frame-log: \(error)") }
                }
                display.output.onPresented = { frame in
                    if let frameLog {
                        // Monotonic seconds, as the kernel stamps input events: a script matches keys to frames.
                        frameLog.line(
                            "frame \(frame.number) started \(frame.started) shown \(frame.shown) rows \(frame.rowsCopied)"
                                + (frame.byModeSet ? " modeset" : ""))
                        frameLog.flush()
                    }
                    guard frame.number == 1, let readyPath else { return }
                    let descriptor = open(readyPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    if descriptor >= 0 {
                        close(descriptor)
                    } else {
                        printError("--ready-file: cannot create \(readyPath)")
                    }
                }
                return true
            },
            connector: { $0.display?.output.connector.name },
            snapshot: drawSnapshot))
}
