import ArgumentParser
import FoundationEssentials
import KeytraceKit
import LinuxKeyboard

struct KeytraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keytrace",
        abstract: "Watch key dispatch live: every key, which stage took it, and why.",
        discussion: """
            Input (one at a time): --keys, --replay, the keyboards (all, or --device), or the terminal. \
            With none of them, keytrace reads the keyboards when it can and the terminal otherwise, and says which. \
            Without --scene it traces the built-in demo (keytrace --print-demo-scene shows it). \
            In the live view F2 numbers the tab loop, F3 names the focus groups, Ctrl-C quits.

            Key sequences: chords separated by spaces, modifiers joined with +, for example
              --keys "tab tab down return shift+tab ctrl+f"
            Keys: a character (a, 1, /, ?), or tab, return, esc, space, backspace, delete, up, down, left, right, \
            home, end, pageup, pagedown, f1…f24, or a W3C or kernel name (KeyA, KEY_A). Modifiers: ctrl, alt, \
            shift, cmd (also super, meta).

            Files: a scene may be up to 4 MiB and a recording up to 64 MiB; a FIFO or pipe (such as <(cat file)) \
            is read with the same bounds, and one that sends nothing for 10 s is an error.

            Exit status: 0 when done (or the attached app exited); 1 when --conflicts found conflicts; 2 for bad \
            input: a scene, recording or key sequence that is malformed or cannot be read, an unknown layout, \
            variant, model, option or rules, keyboards that cannot be read, no app (or several) to attach to, an \
            app that refused keytrace or sent a malformed line; 64 for a usage error: an unknown flag, a missing or empty value, or \
            flags that do not go together; 74 when the output cannot be written (a full disk, a closed output; \
            quietly when the reader of a pipe went away).

            --record leaves out the keys typed into a secure text field, with a comment line that says where and \
            how many; the rest still replays, every key released.

            A running app: every KeyboardApp serves an inspection socket in $XDG_RUNTIME_DIR/responderchain \
            (/tmp/responderchain-UID when it is unset) that only its user and root may read. \
            keytrace --list-apps lists the apps running (pid, user, name, input, watchers); \
            keytrace --attach [PID|NAME] watches one (by pid, or by name: exact, else a unique prefix; \
            without either, the one app running): its own tree in the live view (F2, F3 and Ctrl-C are the only \
            keys read; nothing typed reaches the app), or its lines with --plain or --json (the lines as the app \
            sent them). --conflicts and --focus-debug report on its tree as it is now. When the app exits, keytrace \
            says so and exits 0. As root, keytrace also finds the apps of every user (ssh kiosk keytrace --attach). \
            Nothing found: run keytrace as the app's user or as root, with the app's XDG_RUNTIME_DIR; \
            RESPONDERCHAIN_INSPECT=0 in the app's environment, or its configuration, turns its socket off. \
            --attach takes no input, scene or layout flag: it watches the app's own.

            --speak says what a listener would hear, through speech-dispatcher (SPEECHD_ADDRESS, else \
            $XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock), as the client "keytrace": on the demo or a scene, \
            VoiceOver's rules as an app with speech on follows them (focus moves, dialogs, announcements, typing; \
            a secure field's characters as "dot"), with the listener's keys (Ctrl+Alt+S on and off, R repeat, \
            X stop, W where am I, K the key commands, arrows rate, Page Up/Down volume) in the live view; with \
            --attach, what the app says (a secure field's typing as "dot"). Each utterance is an announce event. \
            With --keys or --replay keytrace waits up to 2 s at exit for what it said to reach the daemon. \
            Without a daemon, one line on standard error says where it looked and the fix, and the trace goes on. \
            --speak does not go with --conflicts, --focus-debug or the modes that list or print and exit.
            """)

    @Option(name: .long, help: ArgumentHelp("A scene file (JSON); the built-in demo without it.", valueName: "file"))
    var scene: String?

    // Unconditional: a sequence may begin with the minus key ("- a").
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Type this key sequence and exit.", valueName: "sequence"))
    var keys: String?

    @Option(name: .long, help: ArgumentHelp("Replay an evemu recording and exit.", valueName: "file"))
    var replay: String?

    @Flag(name: .customLong("real-time"), help: "Replay at the recorded pace (default: as fast as possible).")
    var realTime = false

    @Option(
        name: .long,
        help: ArgumentHelp("Read this keyboard (a path or part of its name); repeatable.", valueName: "device"))
    var device: [String] = []

    @Flag(name: .long, help: "Grab the keyboards: their keys stop reaching the console and other programs.")
    var grab = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the keyboards of this seat (udev ID_SEAT; default: the seat libseat opened, else seat0).",
            valueName: "name"))
    var seat: String?

    @Flag(name: .long, help: "Read the terminal even when keyboards are readable.")
    var terminal = false

    @Flag(
        name: .long,
        help:
            "Run in a window of the Wayland compositor WAYLAND_DISPLAY names: its seat's keys, clicks and taps; the live view in the window."
    )
    var wayland = false

    @Option(name: .long, help: ArgumentHelp("xkb layout, such as de or us,ru.", valueName: "layout"))
    var layout: String?

    @Option(name: .long, help: ArgumentHelp("xkb variant, such as dvorak.", valueName: "variant"))
    var variant: String?

    @Option(name: .long, help: ArgumentHelp("xkb model, such as pc105.", valueName: "model"))
    var model: String?

    @Option(
        name: .customLong("xkb-options"), help: ArgumentHelp("xkb options, such as ctrl:nocaps.", valueName: "options"))
    var xkbOptions: String?

    @Option(name: .long, help: ArgumentHelp("xkb rules (default evdev).", valueName: "rules"))
    var rules: String?

    @Flag(name: .long, help: "Make the window right-to-left.")
    var rtl = false

    @Flag(name: .long, help: "One JSON object per line (schema in docs/json-lines.md).")
    var json = false

    @Flag(name: .long, help: "One readable line per event, also on a terminal.")
    var plain = false

    @Flag(
        name: .long, inversion: .prefixedNo,
        help: "Show every pipeline stage's decision and reason for each key (default: on in the live view).")
    var explain: Bool?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Speak what a listener would hear, through speech-dispatcher (SPEECHD_ADDRESS, else its default socket): "
                + "the scene narrated as an app with speech on narrates it, or with --attach what the app says; "
                + "each utterance an announce event in the trace."))
    var speak = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Print the key-command conflict report and where taps and clicks land, and exit (status 1 when there "
                + "are conflicts: a command that can never fire, an item a tap can never reach)."))
    var conflicts = false

    @Flag(name: .customLong("all-focus"), help: "With --conflicts: report at every focusable item.")
    var allFocus = false

    @Flag(name: .customLong("focus-debug"), help: "Print the focus groups and the tab loop and exit.")
    var focusDebug = false

    @Option(name: .long, help: ArgumentHelp("Write what the keyboard sends to an evemu recording.", valueName: "file"))
    var record: String?

    @Flag(
        name: .customLong("list-devices"),
        help: "List the input devices (path, name, whether it is a keyboard, stable links for --device) and exit.")
    var listDevices = false

    @Flag(name: .customLong("print-demo-scene"), help: "Print the built-in demo scene and exit.")
    var printDemoScene = false

    @Flag(
        name: .long,
        help: "Watch a running app (its pid or name as the argument; the one running without it) instead of a scene.")
    var attach = false

    @Flag(
        name: .customLong("list-apps"),
        help: "List the running apps that keytrace can attach to (pid, user, name, input, watchers) and exit.")
    var listApps = false

    @Argument(help: ArgumentHelp("With --attach: the app's pid or name.", valueName: "pid-or-name"))
    var target: String?

    /// The command line as ``KeytraceOptions``.
    var options: KeytraceOptions {
        var options = KeytraceOptions()
        options.scenePath = scene
        options.keys = keys
        options.replayPath = replay
        options.realTime = realTime
        options.devices = device
        options.grab = grab
        options.seatName = seat
        options.terminal = terminal
        options.wayland = wayland
        options.keymap = KeymapNames(rules: rules, model: model, layout: layout, variant: variant, options: xkbOptions)
        options.rightToLeft = rtl
        options.format = json ? .json : plain ? .plain : .live
        options.explain = explain
        options.speak = speak
        options.conflicts = conflicts
        options.allFocus = allFocus
        options.focusDebug = focusDebug
        options.recordPath = record
        options.listDevices = listDevices
        options.printDemoScene = printDemoScene
        options.attach = attach
        options.attachTarget = target
        options.listApps = listApps
        return options
    }

    func validate() throws {
        if json && plain { throw ValidationError("choose one of --json and --plain") }
        do { try options.validate() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        do {
            // main() parses and runs on the main thread, so the main actor's isolation holds here.
            let options = self.options
            let status = try MainActor.assumeIsolated { () throws(KeytraceError) in try Keytrace.run(options) }
            if status != 0 { throw ExitCode(status) }
        } catch let error as KeytraceError {
            if !error.description.isEmpty { printError("keytrace: \(error)") }
            throw ExitCode(error.exitStatus)
        }
    }
}

// As `KeytraceCommand.main()`, but every message goes through OutputBuffer, which escapes control
// characters (an unknown option is quoted back) and reports a help text that could not be written.
do {
    var command = try KeytraceCommand.parseAsRoot()
    try command.run()
} catch {
    let status = KeytraceCommand.exitCode(for: error)
    let message = KeytraceCommand.fullMessage(for: error)
    if status == .success {
        exitKeytrace(printOutput(message))
    } else if !message.isEmpty {
        printError(message)
    }
    exitKeytrace(status.rawValue)
}
