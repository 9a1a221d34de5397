public import AppRuntime
internal import CairoGraphics
public import LinuxKeyboard
internal import PixelCanvas
// Its options name WaylandClient's types (`WaylandWindow.Options`): an app that lists the platform
// names them without another product.
@_exported public import WaylandClient

/// A window of the app's own under a Wayland compositor (cage, sway, weston): the compositor's
/// seat for keyboard, pointer and touch, the app's canvas drawn in pixels.
///
/// Probed: it runs when `WAYLAND_DISPLAY` (or `WAYLAND_SOCKET`) names a compositor. Each round
/// trip at start (the registry, the globals, the window's first configure) waits at most
/// ``Options/timeout``. The compositor going away stops the app with its message; closing the
/// window stops it.
///
/// ```swift
/// let app = try KeyboardApp(window: window, root: root, platforms: [WaylandPlatform(), ConsolePlatform()])
/// ```
@MainActor
public final class WaylandPlatform: AppPlatform {
    /// The window an app asks of the compositor: title and app id, full screen, the size when the
    /// compositor leaves it to the app, the pixel format (`WaylandWindow.Options`).
    public typealias WindowOptions = WaylandWindow.Options

    /// The window asked of the compositor and how the canvas is drawn in it.
    public struct Options: Sendable {
        /// The window: title and app id (`nil`: the program's name), full screen (on by default).
        public var window = WaylandWindow.Options()
        /// The font cells are drawn in: a family fontconfig knows.
        public var fontFamily = "DejaVu Sans Mono"
        /// The font's em size in device pixels (px, not points): 16 gives DejaVu Sans Mono cells of
        /// 10x19 px, 80x31 cells in an 800x600 window.
        public var fontSize = 16.0
        /// How long, in seconds, the compositor has to answer each round trip at start before the
        /// app gives up on it.
        public var timeout = 5.0

        /// The defaults: a full-screen window named after the program, DejaVu Sans Mono at 16 px.
        public init() {}
    }

    /// What the app runs on under the compositor: the connection, the window, the output
    /// drawing the app's canvas in it, and the seat's input.
    public struct Session {
        /// The connection to the compositor.
        public let connection: WaylandConnection
        /// The app's window (`onClose` stops the app unless the app sets its own).
        public let window: WaylandWindow
        /// Where the app's canvas goes, when it draws one (`screenDrawing` `.canvas`, the default).
        public let output: WaylandCanvasOutput?
        /// Where the window's nodes are drawn, when they draw themselves (`screenDrawing` `.nodes`).
        public let nodeOutput: WaylandNodeOutput?
        /// The seat's keyboard, pointer and touch.
        public let seat: WaylandSeatSource
    }

    /// The options.
    public let options: Options
    /// The compositor, window, output and seat, once open.
    public private(set) var session: Session?
    private var fonts: PixelRenderer.Loading?
    private var fontsPrepared = false
    /// Whether the cell font is loading or loaded (``prepare(_:)``), for tests.
    package var isLoadingCellFont: Bool { fonts != nil }

    /// The Wayland platform.
    ///
    /// - Parameter options: The window and its font.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// `wayland`.
    public var name: String { "wayland" }
    /// `the compositor`.
    public var title: String { "the compositor" }

    /// Runs when the environment names a compositor and the configuration leaves the input to the
    /// app (`KeyboardApp.InputChoice.automatic`: the keyboards or the terminal asked for are the
    /// console's).
    ///
    /// - Parameter environment: The app's environment.
    /// - Returns: `nil`, or why not.
    public func probe(_ environment: PlatformEnvironment) -> String? {
        switch environment.configuration.input {
        case .keyboards: return "the configuration asks for the keyboards"
        case .terminal: return "the configuration asks for the terminal"
        case .automatic: return environment.namesCompositor ? nil : "no compositor: WAYLAND_DISPLAY is not set"
        }
    }

    /// `false`: the compositor sends its keymap with the seat's keyboard (`wl_keyboard.keymap`),
    /// and keys go through that one; the app's own is not compiled for this platform.
    ///
    /// - Parameter environment: Unused.
    /// - Returns: `false`.
    public func usesKeymap(_ environment: PlatformEnvironment) -> Bool { false }

    /// Starts loading the font on a thread.
    ///
    /// - Parameter environment: Unused.
    public func prepare(_ environment: PlatformEnvironment) {
        // Nodes draw themselves with Cairo and Pango: the cell font would be loaded for nothing
        // (its glyphs, FreeType's faces and a thread, in memory for the app's life); fontconfig,
        // which Pango reads at the first text, is read meanwhile instead.
        if environment.configuration.screenDrawing == .nodes {
            if !fontsPrepared { fontsPrepared = CairoRenderer.prepareFonts() }
            return
        }
        guard fonts == nil else { return }
        fonts = PixelRenderer.Loading(fontFamily: options.fontFamily, pixelSize: options.fontSize)
    }

    /// Connects to the compositor, makes the window, its output and the seat's input, and sets
    /// them on the app.
    ///
    /// - Parameter context: The app.
    /// - Throws: `AppError` with code ``AppRuntime/AppError/Code/wayland``.
    public func open(_ context: PlatformContext) throws(AppError) {
        do { try openSession(context) } catch {
            // The font (FreeType, cairo, fontconfig) is not kept for an app that goes on without it.
            fonts = nil
            throw error
        }
    }

    private func openSession(_ context: PlatformContext) throws(AppError) {
        let application = context.application
        let variables = context.environment.variables
        prepare(context.environment)
        do {
            let connection = try WaylandConnection(
                loop: application.loop,
                environment: WaylandEnvironment(
                    display: variables["WAYLAND_DISPLAY"], socket: variables["WAYLAND_SOCKET"],
                    runtimeDirectory: variables["XDG_RUNTIME_DIR"]),
                timeout: options.timeout)
            let window = try WaylandWindow(connection: connection, options: options.window)
            let seat = WaylandSeatSource(
                connection: connection, window: window, loop: application.loop, context: application.inputContext)
            var canvasOutput: WaylandCanvasOutput?
            var nodeOutput: WaylandNodeOutput?
            if application.configuration.screenDrawing == .nodes {
                // The nodes draw themselves with Cairo and Pango: the cell font is not needed.
                fonts = nil
                // SVG icons drawn by an earlier run come from the disk: librsvg is opened only for new ones.
                let renderer = CairoRenderer()
                renderer.svgCache = RenderedSVGCache.standard(environment: variables)
                let output = WaylandNodeOutput(window: window, showing: application.window, renderer: renderer)
                seat.surface = output
                application.setNodeOutput(output)
                nodeOutput = output
            } else {
                let renderer: PixelRenderer
                do {
                    renderer = try
                        (fonts ?? PixelRenderer.Loading(fontFamily: options.fontFamily, pixelSize: options.fontSize))
                        .wait()
                } catch {
                    throw AppError(code: .wayland, message: "\(error)")
                }
                let output = WaylandCanvasOutput(window: window, renderer: renderer)
                seat.surface = output
                application.setOutput(output)
                canvasOutput = output
            }
            window.onClose = { [unowned application] in application.stop() }
            connection.onDisconnect = { [unowned application, unowned seat] error in
                seat.connectionLost()
                application.stop(failing: AppError(error))
            }
            application.setPrimaryInput(seat, fallsBackToTerminal: false)
            session = Session(
                connection: connection, window: window, output: canvasOutput, nodeOutput: nodeOutput, seat: seat)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(code: .wayland, message: "\(error)")
        }
    }
}

extension KeyboardApp {
    /// The compositor, window, output and seat when the app runs under Wayland.
    public var wayland: WaylandPlatform.Session? { (platform as? WaylandPlatform)?.session }
}

extension AppError.Code {
    /// The Wayland compositor could not be reached, refused, lacks what a window needs, or went away.
    public static let wayland = AppError.Code(rawValue: "wayland")
}

extension AppError {
    /// A Wayland failure: code ``Code/wayland``, with the message naming the variable, the
    /// socket or the global, and the fix.
    ///
    /// - Parameter error: The Wayland error.
    public init(_ error: WaylandError) {
        self.init(code: .wayland, message: error.message)
    }
}
