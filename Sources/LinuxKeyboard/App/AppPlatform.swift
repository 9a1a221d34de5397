public import AppRuntime
public import EvdevInput

/// What an app runs on: where its input comes from and where its frames go, behind one interface,
/// as Qt's platform plug-ins and wlroots' backends are.
///
/// This module has ``ConsolePlatform`` (the keyboards through evdev, else the terminal, drawing in
/// the terminal). `PlatformWayland` has a compositor's window and seat, `PlatformDisplay` the
/// display through DRM with touch and mice through libinput; an app links only the platforms it
/// lists, and a console app links none of the graphics stack. `KeyboardApp` tries the platforms in
/// the order the app lists them:
///
/// 1. ``probe(_:)`` says, without opening anything, whether the platform should run here (a
///    compositor's socket, a display and no terminal); the reason it should not is kept for
///    ``KeyboardApp/platformNote``. A platform listed alone is not probed: the app asked for it.
/// 2. ``prepare(_:)`` starts slow work on a thread (a font) while the keymap compiles.
/// 3. ``open(_:)`` opens its inputs and its output on the app's `Application`. When it throws and
///    another platform is listed after it, the app says why in its note and tries that one.
///
/// A new platform (fbdev, a VNC server) is a module of its own with a type conforming to this
/// protocol: no other platform and no runtime code changes.
@MainActor
public protocol AppPlatform: AnyObject {
    /// Its name for notes and traces: `console`, `wayland`, `display`.
    var name: String { get }
    /// What the app would go on without when it fails to open, in a sentence: `the compositor`.
    var title: String { get }
    /// Whether the app should pick this platform by itself here, found without opening anything
    /// lasting (an environment variable, a device node, whether a terminal is attached).
    ///
    /// - Parameter environment: The app's environment and configuration.
    /// - Returns: `nil` when it should; else why not (`no WAYLAND_DISPLAY`), for the app's note.
    func probe(_ environment: PlatformEnvironment) -> String?
    /// Starts slow work ``open(_:)`` will need (a font loading on a thread), so that it overlaps
    /// the keymap's compile. Called once, before ``open(_:)``; nothing by default.
    ///
    /// - Parameter environment: The app's environment and configuration.
    func prepare(_ environment: PlatformEnvironment)
    /// Opens what the platform reads and where it draws, on the app: the primary input
    /// (`Application.setPrimaryInput(_:fallsBackToTerminal:)`), other sources
    /// (`Application.add(_:)`), the output (`Application.setOutput(_:)`). When it throws, the app
    /// takes back whatever it registered and may go on with another platform; the platform lets
    /// go of what it opened (its seat, its font).
    ///
    /// - Parameter context: The app, its environment and what its keyboards are asked to do.
    /// - Throws: `AppError` naming the thing that failed and the fix.
    func open(_ context: PlatformContext) throws(AppError)
    /// What the platform runs without, once open (no seat manager, touch not read): part of the
    /// app's ``KeyboardApp/inputNote``. `nil` by default.
    var note: String? { get }
    /// Whether keys read on this platform go through the app's keymap (``KeyboardApp/layout``), so
    /// that the app compiles it: `true` by default. A platform whose keys arrive already typed (the
    /// terminal) says `false`, and an app whose platforms all say so skips the compile.
    ///
    /// - Parameter environment: The app's environment and configuration.
    /// - Returns: Whether the keymap is needed.
    func usesKeymap(_ environment: PlatformEnvironment) -> Bool
}

extension AppPlatform {
    /// Nothing to start early.
    ///
    /// - Parameter environment: Unused.
    public func prepare(_ environment: PlatformEnvironment) {}
    /// No note.
    public var note: String? { nil }
    /// `true`: keys go through the app's keymap.
    ///
    /// - Parameter environment: Unused.
    /// - Returns: `true`.
    public func usesKeymap(_ environment: PlatformEnvironment) -> Bool { true }
}

/// What a platform looks at to decide whether it runs here: the environment and the app's
/// configuration. Nothing in it is opened.
public struct PlatformEnvironment: Sendable {
    /// The environment variables (the configuration's, else the process's).
    public var variables: [String: String]
    /// The app's configuration: the keyboards, the terminal, the keymap.
    public var configuration: KeyboardApp.Configuration
    /// Whether standard input, the terminal output or standard error is a terminal: a person
    /// started the app from one (a systemd service has none).
    public var hasTerminal: Bool

    /// An environment.
    ///
    /// - Parameters:
    ///   - variables: The environment variables.
    ///   - configuration: The app's configuration.
    ///   - hasTerminal: Whether a terminal is attached.
    public init(variables: [String: String], configuration: KeyboardApp.Configuration, hasTerminal: Bool) {
        self.variables = variables
        self.configuration = configuration
        self.hasTerminal = hasTerminal
    }

    /// Whether a Wayland compositor is named (`WAYLAND_DISPLAY` or `WAYLAND_SOCKET` set).
    public var namesCompositor: Bool {
        [variables["WAYLAND_DISPLAY"], variables["WAYLAND_SOCKET"]].contains { !($0 ?? "").isEmpty }
    }
}

/// What a platform opens on: the app's runtime, its environment, and the keyboards' options the
/// app's configuration asks for.
@MainActor
public struct PlatformContext {
    /// The runtime: its loop, its `Application.inputContext` for sources, its output.
    public let application: Application
    /// The environment the platform was probed in.
    public let environment: PlatformEnvironment
    /// Whether the app may go on with another platform when this one fails (it was chosen by its
    /// probe, not asked for alone).
    public let hasAlternative: Bool

    /// A context.
    ///
    /// - Parameters:
    ///   - application: The runtime.
    ///   - environment: The environment.
    ///   - hasAlternative: Whether another platform follows.
    public init(application: Application, environment: PlatformEnvironment, hasAlternative: Bool) {
        self.application = application
        self.environment = environment
        self.hasAlternative = hasAlternative
    }

    /// The configuration.
    public var configuration: KeyboardApp.Configuration { environment.configuration }

    /// The evdev keyboards' options the configuration asks for (devices, grab, repeat, hot-plug,
    /// the seat).
    ///
    /// - Parameter direct: Whether they are opened without a seat manager (the platform found none).
    /// - Returns: The options for an `EvdevSource`.
    public func keyboardOptions(direct: Bool = false) -> EvdevSource.Options {
        var options = EvdevSource.Options(
            devices: configuration.devices, hotPlug: configuration.hotPlug, grab: configuration.grab,
            repeatMode: configuration.repeatMode)
        options.locksFromLEDs = configuration.initialLocks == nil
        options.seatAccess = direct ? .direct : configuration.seatAccess
        options.seatName = configuration.seatName
        return options
    }
}

/// The console: the keyboards through evdev (``KeyboardApp/Configuration/devices`` narrows them),
/// else the terminal, and frames drawn in the terminal. The platform a `KeyboardApp` runs on when
/// the app lists none, and the last one a kiosk lists: it runs anywhere (a terminal, or keyboards
/// alone). ``KeyboardApp/Configuration/input`` chooses between keyboards and terminal. Started
/// with no terminal (a systemd service), it has nowhere to draw: its ``note`` says so, and which
/// platform would show the app.
@MainActor
public final class ConsolePlatform: AppPlatform {
    /// The keyboards it read, once open (`nil` when the configuration asked for the terminal).
    public private(set) var keyboards: EvdevSource?
    /// Why frames go nowhere, when the app was started with no terminal.
    public private(set) var note: String?

    /// The console platform.
    public init() {}

    /// `console`.
    public var name: String { "console" }
    /// `the console`.
    public var title: String { "the console" }

    /// `nil`: it runs anywhere.
    ///
    /// - Parameter environment: Unused.
    /// - Returns: `nil`.
    public func probe(_ environment: PlatformEnvironment) -> String? { nil }

    /// Whether the keyboards are read (not when the configuration asks for the terminal alone,
    /// whose characters arrive already typed).
    ///
    /// - Parameter environment: The app's configuration.
    /// - Returns: `false` for ``KeyboardApp/InputChoice/terminal``.
    public func usesKeymap(_ environment: PlatformEnvironment) -> Bool {
        environment.configuration.input != .terminal
    }

    /// Sets the keyboards as the app's primary input, with the terminal standing in when none can
    /// be read (``KeyboardApp/InputChoice/automatic``); with ``KeyboardApp/InputChoice/terminal``,
    /// nothing: the app reads its terminal.
    ///
    /// - Parameter context: The app.
    public func open(_ context: PlatformContext) throws(AppError) {
        // An app that draws in the terminal (not a tool that writes lines) and has none is not shown.
        if !context.environment.hasTerminal && context.configuration.usesTerminalForOutput {
            note =
                "no terminal to draw on: the app is not shown (a screen needs DisplayPlatform or WaylandPlatform: "
                + "import KioskPlatforms and list KeyboardApp.kioskPlatforms())"
        }
        let input = context.configuration.input
        guard input != .terminal else { return }
        let application = context.application
        let keyboards = EvdevSource(
            loop: application.loop, context: application.inputContext, options: context.keyboardOptions())
        application.setPrimaryInput(keyboards, fallsBackToTerminal: input == .automatic)
        self.keyboards = keyboards
    }
}
