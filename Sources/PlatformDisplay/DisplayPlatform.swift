public import AppRuntime
internal import CairoGraphics
// Its options and session name these modules' types (`DisplayOptions`, `DRMNodeOutput`,
// `LibinputSource.Options`): an app that lists the platform names them without another product.
@_exported public import DRMOutput
public import EvdevInput
@_exported public import LibinputInput
public import LinuxKeyboard
internal import PixelCanvas
public import Seat
internal import TerminalIO
internal import Udev

/// The display straight through DRM/KMS, with no compositor: the keyboards through evdev and
/// touch screens, mice, touchpads and tablets through libinput, all on one seat (seatd or
/// logind through libseat, as cage and weston open theirs).
///
/// Probed: it runs when the app has no terminal (a systemd service), no compositor is named, and
/// a DRM device exists; listed alone (`kiosk-example --display`), it runs from a terminal too.
///
/// What it shows follows the app's `screenDrawing`: the `Canvas` the app draws, in cells of a
/// monospace font (`DRMCanvasOutput`, the default), or the window's nodes drawing themselves in
/// points at the display's scale (`DRMNodeOutput`, for `.nodes`).
///
/// ```swift
/// let app = try KeyboardApp(window: window, root: root, platforms: [DisplayPlatform(), ConsolePlatform()])
/// ```
@MainActor
public final class DisplayPlatform: AppPlatform {
    /// The display and how the canvas or the nodes are drawn on it.
    public struct Options: Sendable {
        /// The display's device, connector and mode.
        public var display = DisplayOptions()
        /// Pixels per point when the app draws nodes (`screenDrawing` `.nodes`): `nil` (the default)
        /// for the display's own (`DisplayScale`, DRMOutput), from its size and mode.
        public var scale: Double?
        /// The font cells are drawn in (a canvas): a family fontconfig knows.
        public var fontFamily = "DejaVu Sans Mono"
        /// The font's em size in device pixels (px, not points).
        public var fontSize = 16.0
        /// Whether touch screens, mice, touchpads and tablets are read through libinput (taps and
        /// clicks hit-test the focus tree; a mouse draws a pointer). On by default.
        public var readsTouchAndPointer = true
        /// Which pointing devices and how: `devices` (paths or names), `tapToClick`, `releaseGrace`.
        /// The seat and hot-plug follow the app's configuration unless set here; the connector is
        /// the display's.
        public var pointer = LibinputSource.Options()
        /// Whether the app fails to start without a keyboard. `nil` (the default): only when touch
        /// and pointer are not read, so that a touch-only kiosk starts with none (keyboards plugged
        /// in later are read).
        public var requiresKeyboard: Bool?

        /// The defaults: the first connected display at its preferred mode, DejaVu Sans Mono at
        /// 16 px, touch and pointer read.
        public init() {}
    }

    /// What the app runs on straight on a display: the output and the seat it shares with the
    /// keyboards and the pointer.
    public struct Session {
        /// Where frames go (``canvasOutput`` or ``nodeOutput``): its device, connector and mode, its
        /// changes and the frames it shows (`onChange`, `onPresented`), the pointer.
        public let output: any DisplayOutput
        /// The output when the app draws a `Canvas` (the app's output is this), else `nil`.
        public let canvasOutput: DRMCanvasOutput?
        /// The output when the app draws nodes (the app's node output is this), else `nil`.
        public let nodeOutput: DRMNodeOutput?
        /// The seat the display and the keyboards are opened through; `nil` when they are opened
        /// directly (root, or a user in the devices' groups: VT switches are then not followed).
        public let seat: Seat?
        /// Touch screens, mice, touchpads and tablets through libinput, on the same seat; `nil`
        /// when ``Options/readsTouchAndPointer`` is off or udevd does not run (``note`` says so).
        public let pointer: LibinputSource?
        /// The keyboards, on the same seat.
        public let keyboards: EvdevSource
    }

    /// The options.
    public let options: Options
    /// The display, seat, pointer and keyboards, once open.
    public private(set) var session: Session?
    /// What the display runs without: no seat manager (VT switches not followed), no udevd for
    /// touch, no hot-plug of displays.
    public private(set) var note: String?
    private var fonts: PixelRenderer.Loading?
    private var fontsPrepared = false
    /// Whether the cell font is loading or loaded (``prepare(_:)``), for tests.
    package var isLoadingCellFont: Bool { fonts != nil }
    private var seatWatch: EventLoop.Watch?
    private var loop: EventLoop?

    /// The display platform.
    ///
    /// - Parameter options: The display and its font.
    public init(options: Options = Options()) {
        self.options = options
    }

    isolated deinit {
        if let seatWatch { loop?.unwatch(seatWatch) }
    }

    /// The DRM devices that can show the app (`/dev/dri/card*`): none, and the probe passes the
    /// display over.
    nonisolated public static var devices: [String] { DRMCanvasOutput.devicePaths }

    /// `display`.
    public var name: String { "display" }
    /// `the display`.
    public var title: String { "the display" }

    /// Runs when nothing else can show the app: no terminal, no compositor, and a DRM device.
    ///
    /// - Parameter environment: The app's environment.
    /// - Returns: `nil`, or why not.
    public func probe(_ environment: PlatformEnvironment) -> String? {
        if environment.namesCompositor { return "a compositor is named (WAYLAND_DISPLAY)" }
        if environment.hasTerminal { return "started from a terminal (list DisplayPlatform alone to take the display)" }
        if environment.configuration.input == .terminal { return "the configuration asks for the terminal" }
        if Self.devices.isEmpty { return "no DRM device (/dev/dri/card*)" }
        return nil
    }

    /// Starts loading the font on a thread, for a canvas (nodes load their fonts through Pango as
    /// they draw).
    ///
    /// - Parameter environment: The app's configuration.
    public func prepare(_ environment: PlatformEnvironment) {
        // Nodes draw with Pango: fontconfig is read meanwhile, not the cell font.
        if environment.configuration.screenDrawing == .nodes {
            if !fontsPrepared { fontsPrepared = CairoRenderer.prepareFonts() }
            return
        }
        guard fonts == nil else { return }
        fonts = PixelRenderer.Loading(fontFamily: options.fontFamily, pixelSize: options.fontSize)
    }

    /// Opens the seat (unless the configuration asks for direct access), the display through it,
    /// the pointer and the keyboards, and sets them on the app.
    ///
    /// - Parameter context: The app.
    /// - Throws: `AppError` with code ``AppRuntime/AppError/Code/display``.
    public func open(_ context: PlatformContext) throws(AppError) {
        do { try openSession(context) } catch {
            // The font (FreeType, cairo, fontconfig) is not kept for an app that goes on without it.
            fonts = nil
            throw error
        }
    }

    private func openSession(_ context: PlatformContext) throws(AppError) {
        let application = context.application
        let configuration = context.configuration
        prepare(context.environment)
        var seat: Seat?
        var note: String?
        var seatError: InputError?
        if configuration.seatAccess != .direct {
            do {
                seat = try Seat()
            } catch {
                guard configuration.seatAccess == .automatic else { throw AppError(error) }
                seatError = error
                note =
                    "the display and keyboards are opened directly, and a switch to another VT is not followed "
                    + "(\(error.message))"
            }
        }
        let drawsNodes = application.configuration.screenDrawing == .nodes
        var renderer: PixelRenderer?
        if !drawsNodes {
            let loading = fonts ?? PixelRenderer.Loading(fontFamily: options.fontFamily, pixelSize: options.fontSize)
            do { renderer = try loading.wait() } catch { throw AppError(code: .display, message: "\(error)") }
        }
        let output: any DisplayOutput
        var canvasOutput: DRMCanvasOutput?
        var nodeOutput: DRMNodeOutput?
        do {
            if let renderer {
                let canvas = try DRMCanvasOutput(
                    loop: application.loop, renderer: renderer, seat: seat, options: options.display)
                canvasOutput = canvas
                output = canvas
            } else {
                // SVG icons drawn by an earlier run come from the disk: librsvg is opened only for new ones.
                let renderer = CairoRenderer()
                renderer.svgCache = RenderedSVGCache.standard(environment: context.environment.variables)
                let nodes = try DRMNodeOutput(
                    loop: application.loop, window: application.window, renderer: renderer, seat: seat,
                    options: DRMNodeOutput.Options(display: options.display, scale: options.scale))
                nodeOutput = nodes
                output = nodes
            }
        } catch {
            guard error.code == .permission, let seatError else { throw AppError(error) }
            throw AppError(code: .display, message: "\(error.message) (no seat either: \(seatError.message))")
        }
        var pointer: LibinputSource?
        if options.readsTouchAndPointer {
            if UdevEnumeration.udevIsRunning {
                var pointerOptions = options.pointer
                pointerOptions.seatName = pointerOptions.seatName ?? configuration.seatName
                pointerOptions.hotPlug = pointerOptions.hotPlug && configuration.hotPlug
                pointerOptions.outputName = output.connector.name
                let source = LibinputSource(
                    loop: application.loop, context: application.inputContext, seat: seat, options: pointerOptions)
                source.surface = output
                pointer = source
            } else {
                note = [note, "touch screens and mice are not read: libinput needs udevd (start systemd-udevd)"]
                    .compactMap { $0 }.joined(separator: "; ")
            }
        }
        if let hotPlug = output.hotPlugNote { note = [note, hotPlug].compactMap { $0 }.joined(separator: "; ") }
        if let seat {
            // Before the app is given anything: a failure leaves it as it was.
            do {
                seatWatch = try application.loop.watch(seat.fileDescriptor) { [unowned seat] in seat.dispatch() }
            } catch { throw AppError(code: .display, message: "the seat from \(seat.backend): \(error)") }
            loop = application.loop
        }
        var keyboardOptions = context.keyboardOptions(direct: seat == nil)
        keyboardOptions.requireKeyboard = options.requiresKeyboard ?? (pointer == nil)
        let keyboards = EvdevSource(
            loop: application.loop, context: application.inputContext, options: keyboardOptions, seat: seat)
        if let canvasOutput { application.setOutput(canvasOutput) }
        if let nodeOutput { application.setNodeOutput(nodeOutput) }
        application.setPrimaryInput(keyboards, fallsBackToTerminal: false)
        if let pointer { application.add(pointer) }
        self.note = note
        session = Session(
            output: output, canvasOutput: canvasOutput, nodeOutput: nodeOutput, seat: seat, pointer: pointer,
            keyboards: keyboards)
    }
}

extension KeyboardApp {
    /// The display, seat and pointer when the app runs straight on a display.
    public var display: DisplayPlatform.Session? { (platform as? DisplayPlatform)?.session }
}

extension AppError.Code {
    /// The display could not be opened or used: no DRM device, no permission, no connected display.
    public static let display = AppError.Code(rawValue: "display")
}

extension AppError {
    /// A display failure: code ``Code/display``, with the message naming the device and the fix.
    ///
    /// - Parameter error: The display error.
    public init(_ error: DisplayError) {
        self.init(code: .display, message: error.message)
    }
}
