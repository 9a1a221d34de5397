internal import Inspection
internal import LinuxKeyboard
internal import LinuxSystem
import TerminalCanvas

extension Keytrace {
    /// keytrace's own window while attached: it takes the keys typed into keytrace's terminal
    /// (F2, F3 and Ctrl-C are reserved above it) and has nothing to move focus to, so no key
    /// reaches the mirror or the app.
    static let attachedWindowJSON = """
        {"name": "keytrace", "root": {"id": "keytrace", "frame": [0, 0, 1, 1], "firstResponder": true}}
        """

    /// The live view on a mirror of the app, drawn on the terminal by an `Application` on keytrace's
    /// own window, whose loop also reads the socket; until the app exits or Ctrl-C. With `speech`
    /// (the environment holding the daemon's address), each `announce` event is spoken; a speech
    /// problem is said on standard error once the terminal is given back.
    static func watchLive(
        _ connection: InspectionConnection, explain: Bool, speech: [String: String]? = nil, output: OutputBuffer
    ) throws(KeytraceError) -> AttachEnd {
        let mirror = AttachMirror(explain: explain)
        let app = try makeAttachedApplication(mirror)
        var speechProblems: [String] = []
        defer { for line in speechProblems { printError(line) } }
        let voice = speech.flatMap { environment in
            KeytraceVoice.make(loop: app.loop, environment: environment) { line in speechProblems.append(line) }
        }
        var end = AttachEnd.interrupted
        var failure: KeytraceError?
        // An app that does not answer (stopped, hung) is said on the screen, in place of the tree.
        let silence = SilenceWatch(connection, loop: app.loop) { [unowned app] line in
            mirror.waitingNote = line
            app.setNeedsFrame()
        }
        // A batch reads at most 1 MiB from the socket, so that F2 and Ctrl-C stay quick under a
        // flood; the loop comes back for the rest.
        let readConnection: (EventLoop.Readiness) -> Void = { [unowned app] _ in
            do throws(KeytraceError) {
                let ended = try pump(connection, budget: 1 << 20) { (_, message) throws(KeytraceError) in
                    if case .trace(let event) = message { voice?.speak(event) }
                    do { try mirror.apply(message) } catch {
                        throw KeytraceError(
                            "the tree \(connection.appDescription) sent cannot be rebuilt: "
                                + "\(String(describing: error).escapingControlCharacters())")
                    }
                }
                if ended {
                    end = .exited
                    app.stop()
                }
            } catch {
                failure = error
                app.stop()
            }
        }
        let token: EventLoop.Watch
        do { token = try app.loop.watch(connection.fileDescriptor, onReady: readConnection) } catch {
            throw KeytraceError("the connection to \(connection.appDescription): \(error)")
        }
        var drawn = -1
        var shown: Canvas?
        func draw(force: Bool) {
            guard let terminal = app.terminal, force || mirror.generation != drawn else { return }
            drawn = mirror.generation
            let size = terminal.size ?? (80, 24)
            let canvas = mirror.canvas(columns: size.columns, rows: size.rows)
            terminal.write(canvas.frame(replacing: shown))
            shown = canvas
        }
        app.onChange = { change in
            guard case .resized = change else { return }
            shown = nil
            draw(force: true)
        }
        // Once per batch of the loop, however many lines it read.
        app.onFrame = { draw(force: false) }
        output.isMuted = true
        defer { output.isMuted = false }
        do { try app.run() } catch { throw KeytraceError("\(error)") }
        app.loop.unwatch(token)
        voice?.handOver()
        if let failure { throw failure }
        try silence.checkAnswered()
        return end
    }

    /// The application that reads keytrace's terminal: F2 and F3 toggle the mirror's overlays,
    /// Ctrl-C quits; the terminal is taken whole (the alternate screen) and given back on exit.
    static func makeAttachedApplication(_ mirror: AttachMirror) throws(KeytraceError) -> Application {
        let window: Scene
        do { window = try Scene(json: attachedWindowJSON, file: "keytrace") } catch {
            throw KeytraceError("keytrace's own window is broken: \(error)")
        }
        var configuration = Application.Configuration()
        configuration.readsTerminal = true
        configuration.fullScreen = true
        // keytrace is the watcher: nothing to watch in it.
        configuration.inspection.isEnabled = false
        configuration.quitCommand = KeyCommand("c", modifierFlags: .control, action: "quit", title: "keytrace: quit")
        let app: Application
        do { app = try Application(window: window.window, root: window.root, configuration: configuration) } catch {
            throw KeytraceError("\(error)")
        }
        reserveOverlayKeys(on: app.dispatcher, tabLoop: { mirror.showsTabLoop.toggle() }) {
            mirror.showsGroups.toggle()
        }
        return app
    }

    /// F2 (the tab-loop overlay) and F3 (the group overlay), reserved above everything: in the
    /// live view of the demo, a scene or an attached app.
    static func reserveOverlayKeys(
        on dispatcher: Dispatcher, tabLoop: @escaping () -> Void, groups: @escaping () -> Void
    ) {
        dispatcher.reserve(
            ReservedShortcut(KeyCommand(.f2, action: "tabLoopOverlay", title: "keytrace: tab loop overlay")) { _ in
                tabLoop()
            })
        dispatcher.reserve(
            ReservedShortcut(KeyCommand(.f3, action: "groupOverlay", title: "keytrace: group overlay")) { _ in
                groups()
            })
    }
}
