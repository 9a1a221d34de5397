// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ResponderChain",
    products: [
        .library(name: "ResponderChain", targets: ["ResponderChain"]),
        .library(name: "ResponderChainTesting", targets: ["ResponderChainTesting"]),
        // A console app: KeyboardApp on the console platform (keyboards through evdev, the terminal).
        // Links no graphics: no libwayland, libdrm, libinput, cairo, FreeType, HarfBuzz or fontconfig.
        .library(name: "LinuxKeyboard", targets: ["LinuxKeyboard"]),
        // A kiosk that runs anywhere: LinuxKeyboard with every platform (a Wayland window, the display).
        .library(name: "KioskPlatforms", targets: ["KioskPlatforms"]),
        .library(name: "Graphics", targets: ["Graphics"]),
        // One platform each, for an app that lists only some.
        .library(name: "PlatformWayland", targets: ["PlatformWayland"]),
        .library(name: "PlatformDisplay", targets: ["PlatformDisplay"]),
        // The runtime alone: a terminal app, or one whose input comes from another backend.
        .library(name: "AppRuntime", targets: ["AppRuntime"]),
        // The parts, for an app that wants only some of them.
        .library(name: "EventLoop", targets: ["EventLoop"]),
        // libc for the Linux modules: Errno, InputError, the one write path (its types are in every error).
        .library(name: "LinuxSystem", targets: ["LinuxSystem"]),
        .library(name: "XKBKeymap", targets: ["XKBKeymap"]),
        .library(name: "EvdevInput", targets: ["EvdevInput"]),
        .library(name: "TerminalIO", targets: ["TerminalIO"]),
        // A grid of styled cells drawn to a terminal: keytrace's live view and the kiosk example.
        .library(name: "TerminalCanvas", targets: ["TerminalCanvas"]),
        // The same canvas as pixels (FreeType, HarfBuzz and Cairo): for a Wayland window and, later, a DRM display.
        .library(name: "PixelCanvas", targets: ["PixelCanvas"]),
        // Views that draw in points: a GraphicsContext on Cairo, text through Pango, PNG and SVG (librsvg) images.
        .library(name: "CairoGraphics", targets: ["CairoGraphics"]),
        // keytrace's trace (events, JSON lines, text) for any window: `--trace FILE` in an app.
        .library(name: "DispatchTrace", targets: ["DispatchTrace"]),
        // The inspection protocol: what an app's socket sends and keytrace --attach reads.
        .library(name: "Inspection", targets: ["Inspection"]),
        // keytrace's engine (scene sessions, live view), for the benchmarks; not a stable API.
        .library(name: "KeytraceKit", targets: ["KeytraceKit"]),
        // A window under a Wayland compositor: the connection, an xdg_toplevel, wl_shm buffers on the loop.
        .library(name: "WaylandClient", targets: ["WaylandClient"]),
        // The canvas straight on a display through DRM/KMS (no compositor), through the seat.
        .library(name: "DRMOutput", targets: ["DRMOutput"]),
        // What udev knows of devices, as values: input nodes and their tags, a hot-plug monitor per subsystem.
        .library(name: "Udev", targets: ["Udev"]),
        // Touch screens, mice, touchpads and tablets through libinput, into the focus tree's pointer path.
        .library(name: "LibinputInput", targets: ["LibinputInput"]),
        // What a screen reader says about a focus tree (VoiceOver's rules): a Narrator and its utterances.
        .library(name: "Accessibility", targets: ["Accessibility"]),
        // Speech through speech-dispatcher: its SSIP protocol over its socket, on the one loop.
        .library(name: "SpeechDispatcher", targets: ["SpeechDispatcher"]),
        // Speech for any Application (a terminal app too): the narrator through speech-dispatcher, the
        // listener's key commands, the listener's settings kept; no display or device library.
        .library(name: "AppSpeech", targets: ["AppSpeech"]),
        .executable(name: "keytrace", targets: ["keytrace"]),
        // Clicks and taps for an app's own tests under sway (zwlr_virtual_pointer_v1): docs/kiosk-example.md.
        .executable(name: "wayland-pointer", targets: ["wayland-pointer"]),
    ],
    // keytrace's command line is the package's one outside dependency. A package that uses the libraries
    // alone depends on this one with `traits: []`, and SwiftPM then never fetches swift-argument-parser.
    traits: [
        .trait(name: "Keytrace", description: "keytrace's command line (swift-argument-parser)"),
        .default(enabledTraits: ["Keytrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .target(name: "ResponderChain"),
        .target(name: "ResponderChainTesting", dependencies: ["ResponderChain"]),
        .target(name: "Accessibility", dependencies: ["ResponderChain"]),
        // The README's example as a program, linked without Foundation: if the core ever needs
        // libm or Foundation, `swift build` fails here instead of in a user's app.
        .executableTarget(name: "readme-example", dependencies: ["ResponderChain"]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(
            name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev", "xkb-data"])]),
        // Seat access as an ordinary user (seatd, or logind through libseat), as cage and weston do.
        .systemLibrary(name: "CSeat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        .systemLibrary(
            name: "CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        // xdg-shell's glue from wayland-scanner, checked in (Tools/wayland-glue; --check in Tools/test).
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"]),
        // wlr-virtual-pointer's glue (Tools/wayland-glue, XML in Tools/protocols), for the test tool alone.
        .target(name: "CWaylandTestProtocols", dependencies: ["CWayland"]),
        // Tests' pointer under sway: moves and clicks through zwlr_virtual_pointer_v1; not a product.
        .executableTarget(
            name: "wayland-pointer", dependencies: ["CWayland", "CWaylandTestProtocols", "LinuxSystem"]),
        // A Wayland client on the one loop: the display, registry globals, an xdg_toplevel window, wl_shm.
        .target(
            name: "WaylandClient",
            dependencies: [
                "LinuxSystem", "EventLoop", "CWayland", "CWaylandProtocols", "ResponderChain", "XKBKeymap",
                "TerminalCanvas", "PixelCanvas", "Graphics", "CairoGraphics",
            ]),
        // epoll and eventfd, which Swift's Glibc module leaves out; header only, nothing to link.
        .systemLibrary(name: "CLinuxEvents"),
        // libc for the Linux modules: descriptors, the one write path and OutputBuffer, files read with
        // limits, the environment, the clock, errors (Errno). Depends on nothing, not even the core.
        .target(name: "LinuxSystem", dependencies: []),
        // The one epoll loop: descriptors, deadlines, signals, the main queue; no dispatcher needed.
        .target(name: "EventLoop", dependencies: ["LinuxSystem", "CLinuxEvents"]),
        // A speech-dispatcher client: SSIP over its socket, non-blocking on the loop; no libspeechd.
        .target(name: "SpeechDispatcher", dependencies: ["EventLoop", "LinuxSystem"]),
        // Mode setting through libdrm: the display straight on a DRM device, no compositor.
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // The app's canvas or its nodes on a display: KMS, dumb buffers, page flips, through the seat.
        .target(
            name: "DRMOutput",
            dependencies: [
                "LinuxSystem", "EventLoop", "Seat", "CDRM", "PixelCanvas", "TerminalCanvas", "ResponderChain", "Udev",
                "Graphics", "CairoGraphics",
            ]),
        // udev's devices as values (enumeration with ID_INPUT_* tags, a monitor per subsystem), on CUdev.
        .target(name: "Udev", dependencies: ["LinuxSystem", "CUdev"]),
        // libinput: touch slots, pointer acceleration, calibration, palms.
        .systemLibrary(name: "CInput", pkgConfig: "libinput", providers: [.apt(["libinput-dev"])]),
        // Touch and pointer through libinput's path backend, fed by Udev, opened through the Seat.
        .target(
            name: "LibinputInput",
            dependencies: ["LinuxSystem", "EventLoop", "Seat", "Udev", "CInput", "ResponderChain"]),
        // Seat access through libseat (seatd or logind), shared by every device source.
        .target(name: "Seat", dependencies: ["LinuxSystem", "CSeat"]),
        // Keymaps and key state through xkbcommon: evdev's, and later the one a Wayland compositor sends.
        .target(name: "XKBKeymap", dependencies: ["ResponderChain", "LinuxSystem", "CXKBCommon"]),
        // Keyboards, keypads and remotes through evdev, found through Udev; evemu recordings; software repeat.
        .target(
            name: "EvdevInput",
            dependencies: ["ResponderChain", "LinuxSystem", "EventLoop", "Seat", "CEvdev", "Udev"]),
        // The terminal: raw mode, its key decoder (escape sequences, the kitty protocol), its output.
        .target(name: "TerminalIO", dependencies: ["ResponderChain", "LinuxSystem", "EventLoop", "TerminalCanvas"]),
        // The app runtime: Application, input sources and outputs registered with it, the terminal.
        // No device library: a terminal app, or a backend's (Wayland's), links only what it uses.
        .target(
            name: "AppRuntime",
            dependencies: [
                "ResponderChain", "LinuxSystem", "EventLoop", "TerminalIO", "TerminalCanvas", "Graphics",
                "DispatchTrace", "Inspection",
            ]),
        // Speech for any Application: a Narrator speaking through speech-dispatcher, the listener's key
        // commands and settings file. On the runtime alone, so a terminal app speaks without LinuxKeyboard.
        .target(
            name: "AppSpeech",
            dependencies: [
                "AppRuntime", "Accessibility", "SpeechDispatcher", "ResponderChain", "EventLoop", "LinuxSystem",
            ]),
        // KeyboardApp and the platform interface, with the console platform: the runtime with evdev
        // and xkbcommon. Nothing graphical: the other platforms are modules of their own.
        .target(
            name: "LinuxKeyboard",
            dependencies: [
                "AppRuntime", "ResponderChain", "LinuxSystem", "EventLoop", "Seat", "XKBKeymap", "EvdevInput",
                "TerminalIO", "TerminalCanvas", "Accessibility", "SpeechDispatcher", "AppSpeech",
            ]),
        // The Wayland platform: a window under a compositor, its seat, the canvas in pixels.
        .target(
            name: "PlatformWayland",
            dependencies: ["LinuxKeyboard", "AppRuntime", "WaylandClient", "PixelCanvas", "CairoGraphics"]),
        // The display platform: DRM/KMS, libinput's touch and pointer, the keyboards, one seat.
        .target(
            name: "PlatformDisplay",
            dependencies: [
                "LinuxKeyboard", "AppRuntime", "DRMOutput", "LibinputInput", "EvdevInput", "PixelCanvas", "Seat",
                "CairoGraphics",
                "TerminalIO", "Udev",
            ]),
        // Pure Swift on the core alone: the painter that works out what to draw again (damage by
        // rectangle) and draws a window's nodes on any GraphicsContext; the standard nodes (labels,
        // images, buttons, panels, text fields) and a theme.
        .target(name: "Graphics", dependencies: ["ResponderChain"]),
        // Every platform, for a kiosk: `KeyboardApp.kioskPlatforms()`.
        .target(name: "KioskPlatforms", dependencies: ["LinuxKeyboard", "PlatformWayland", "PlatformDisplay"]),
        // Pure Swift, no dependency: styled cells, boxes, and the bytes that update a terminal.
        .target(name: "TerminalCanvas"),
        // Text by the libraries made for it: faces found by fontconfig, loaded by FreeType, shaped by HarfBuzz,
        // rasterized by Cairo (no Pango: pangocairo's pkg-config flags carry glib's -pthread, which SwiftPM
        // warns about on every build; cairo-ft's carry none).
        .systemLibrary(
            name: "CFontRendering", pkgConfig: "cairo-ft",
            providers: [
                .apt(["libcairo2-dev", "libfreetype-dev", "libharfbuzz-dev", "libfontconfig-dev", "fonts-dejavu-core"])
            ]),
        // A canvas rendered into ARGB8888 pixels with a real font; only changed rows are drawn.
        .target(name: "PixelCanvas", dependencies: ["TerminalCanvas", "CFontRendering"]),
        // Pango, pangocairo, GObject and librsvg declared by hand over cairo's own header (<cairo/cairo.h>, no
        // include path): their headers need glib's pkg-config flags, whose -pthread SwiftPM warns about on every
        // build. Tools/check-shims (run by Tools/test) compiles the declarations against the real headers.
        .systemLibrary(
            name: "CCairoGraphics", providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "librsvg2-dev"])]),
        // A GraphicsContext drawn with Cairo into ARGB8888 pixels: paths, gradients, shadows, text laid out by
        // Pango (shaping, bidi, fallback fonts, ellipsis), PNG and SVG images cached per device size.
        .target(name: "CairoGraphics", dependencies: ["ResponderChain", "PixelCanvas", "CCairoGraphics"]),
        // On real pixels: shapes, scale, text (sizes, right to left, Arabic, CJK, emoji), clipping, images, caches.
        .testTarget(
            name: "CairoGraphicsTests",
            dependencies: ["CairoGraphics", "Graphics", "PixelCanvas", "ResponderChain", "ResponderChainTesting"]),
        // Pure Swift on the core alone: the typed trace, its JSON lines (written and read) and text.
        .target(name: "DispatchTrace", dependencies: ["ResponderChain"]),
        // Pure Swift: the inspection socket's lines (hello, tree snapshots, trace events, drops),
        // its requests and its file names; written by AppRuntime, read by keytrace --attach.
        .target(name: "Inspection", dependencies: ["ResponderChain", "DispatchTrace"]),
        // keytrace's scene sessions and live view, as a library so that tests can drive them.
        .target(
            name: "KeytraceKit",
            dependencies: [
                "ResponderChain", "LinuxKeyboard", "PlatformWayland", "DispatchTrace", "TerminalCanvas", "Inspection",
                "Accessibility", "SpeechDispatcher", "EventLoop",
            ]),
        .executableTarget(
            name: "keytrace",
            dependencies: [
                "KeytraceKit",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Keytrace"])),
            ]),
        // A console app on the terminal alone: AppRuntime without LinuxKeyboard, so it links no device
        // library (EndToEndTests checks with ldd, and drives it in tmux).
        .executableTarget(name: "terminal-example", dependencies: ["AppRuntime", "ResponderChain", "TerminalCanvas"]),
        // The README's "Embed it in your app" program; EndToEndTests drives it in tmux.
        .executableTarget(name: "embed-example", dependencies: ["LinuxKeyboard", "ResponderChain"]),
        // A self-service kiosk on the public API: its own widgets and rendering (cells in a terminal,
        // its nodes drawing themselves in points on a screen, with Graphics, pure Swift); the program
        // without its platforms, shared by its two builds (not a product).
        .target(
            name: "KioskExample",
            dependencies: ["LinuxKeyboard", "ResponderChain", "TerminalCanvas", "DispatchTrace", "Graphics"]),
        // The kiosk on every platform: a Wayland window, the display, the console; --snapshot draws its
        // graphical face offscreen with Cairo.
        .executableTarget(
            name: "kiosk-example",
            dependencies: [
                "KioskExample", "KioskPlatforms", "Graphics", "CairoGraphics", "PixelCanvas", "ResponderChain",
            ]),
        // The same kiosk on the console alone: no graphics linked (EndToEndTests checks with ldd).
        .executableTarget(name: "kiosk-console-example", dependencies: ["KioskExample", "LinuxKeyboard"]),
        // Run inside the test VM by Tools/vm-test: real kernel devices through LinuxKeyboard.
        .executableTarget(name: "keyboard-vm-check", dependencies: ["LinuxKeyboard", "ResponderChain"]),
        // Run inside the test VM by Tools/vm-test: touch and pointer through LibinputSource and a Seat.
        .executableTarget(
            name: "libinput-vm-check", dependencies: ["LibinputInput", "ResponderChain", "EventLoop", "Seat"]),
        // Run inside the test VM by Tools/vm-test: the display platform drawing a window's nodes (DRMNodeOutput).
        .executableTarget(
            name: "nodes-vm-check",
            dependencies: ["LinuxKeyboard", "PlatformDisplay", "DRMOutput", "Graphics", "AppRuntime", "ResponderChain"]),
        .testTarget(name: "ResponderChainTests", dependencies: ["ResponderChain", "ResponderChainTesting"]),
        .testTarget(
            name: "GraphicsTests",
            dependencies: ["Accessibility", "Graphics", "ResponderChain", "ResponderChainTesting", "XKBKeymap"]),
        // ResponderChain only to check that InputError escapes as the core's escaper does.
        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem", "ResponderChain"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "LinuxSystem", "ResponderChain"]),
        .testTarget(
            name: "XKBKeymapTests",
            dependencies: ["XKBKeymap", "ResponderChain", "ResponderChainTesting", "CXKBCommon"]),
        .testTarget(
            name: "EvdevInputTests",
            dependencies: [
                "EvdevInput", "EventLoop", "LinuxSystem", "ResponderChain", "ResponderChainTesting", "Seat", "Udev",
            ]),
        .testTarget(name: "SeatTests", dependencies: ["Seat"]),
        .testTarget(
            name: "TerminalIOTests",
            dependencies: [
                "TerminalIO", "EventLoop", "LinuxSystem", "ResponderChain", "ResponderChainTesting", "TestSupport",
            ]),
        .testTarget(
            name: "AppRuntimeTests",
            dependencies: [
                "AppRuntime", "DispatchTrace", "Graphics", "Inspection", "LinuxSystem", "ResponderChain",
                "ResponderChainTesting", "TerminalCanvas", "TerminalIO", "TestSupport",
            ]),
        .testTarget(
            name: "LinuxKeyboardTests",
            dependencies: ["LinuxKeyboard", "ResponderChain", "ResponderChainTesting", "TestSupport"]),
        // The platforms' choice without their hardware: probes, failures, what the app says.
        .testTarget(
            name: "PlatformWaylandTests", dependencies: ["PlatformWayland", "LinuxKeyboard", "ResponderChain"]),
        .testTarget(
            name: "PlatformDisplayTests", dependencies: ["PlatformDisplay", "LinuxKeyboard", "ResponderChain"]),
        .testTarget(name: "DispatchTraceTests", dependencies: ["DispatchTrace", "KeytraceKit", "ResponderChain"]),
        // keytrace's library in-process: the live view's rendering, secure entry, recordings.
        .testTarget(
            name: "KeytraceKitTests",
            dependencies: ["KeytraceKit", "DispatchTrace", "LinuxKeyboard", "ResponderChain", "Inspection"]),
        // Every input a fuzzer crashed on, read again through the path it crashed.
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: [
                "KeytraceKit", "DispatchTrace", "LinuxKeyboard", "ResponderChain", "Inspection", "WaylandClient",
            ]),
        // The built programs run as a user runs them: keytrace (golden traces), the examples in tmux.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "KeytraceKit", "DispatchTrace", "TerminalCanvas", "ResponderChain", "LinuxKeyboard",
                "TestSupport",
            ],
            exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "TerminalCanvasTests", dependencies: ["TerminalCanvas"]),
        .testTarget(name: "UdevTests", dependencies: ["Udev"]),
        // The libinput decoder's rules, and fuzz-libinput's corpus and regressions read again.
        .testTarget(
            name: "LibinputInputTests",
            dependencies: [
                "LibinputInput", "ResponderChain", "ResponderChainTesting", "Udev", "EventLoop", "LinuxSystem",
            ]),
        .testTarget(
            name: "DRMOutputTests",
            dependencies: [
                "DRMOutput", "PixelCanvas", "TerminalCanvas", "EventLoop", "LinuxSystem", "CairoGraphics", "Graphics",
                "ResponderChain",
            ]),
        .testTarget(name: "PixelCanvasTests", dependencies: ["PixelCanvas", "TerminalCanvas"], exclude: ["Golden"]),
        .testTarget(
            name: "InspectionTests", dependencies: ["Inspection", "DispatchTrace", "KeytraceKit", "ResponderChain"]),
        // Against a real compositor: sway headless as an unprivileged user, screens through grim.
        .testTarget(
            name: "WaylandClientTests",
            dependencies: [
                "WaylandClient", "EventLoop", "LinuxSystem", "ResponderChain", "XKBKeymap", "AppRuntime", "PixelCanvas",
                "TerminalCanvas", "TestSupport", "Graphics", "LinuxKeyboard", "PlatformWayland", "CairoGraphics",
                "ResponderChainTesting",
            ], exclude: ["Golden"]),
        // The client against a real private speech-dispatcher daemon (espeak-ng into a file through ALSA).
        // What several test targets share (a private speech-dispatcher, the loop helpers): not a product.
        .target(name: "TestSupport", dependencies: ["EventLoop"], path: "Tests/TestSupport"),
        .testTarget(
            name: "SpeechDispatcherTests", dependencies: ["SpeechDispatcher", "EventLoop", "TestSupport"]),
        // Speech on an Application alone (no KeyboardApp): key commands, problems, the settings file, and
        // a narrator heard by a real private speech-dispatcher.
        .testTarget(
            name: "AppSpeechTests",
            dependencies: [
                "AppSpeech", "AppRuntime", "Accessibility", "SpeechDispatcher", "ResponderChain",
                "ResponderChainTesting", "EventLoop", "TestSupport",
            ]),
        .testTarget(name: "ResponderChainTestingTests", dependencies: ["ResponderChain", "ResponderChainTesting"]),
        // The kiosk example's graphical face in-process (`@testable import KioskExample`): its layout in
        // points, its targets, its on-screen keyboard, its damage, and golden images drawn with Cairo.
        .testTarget(
            name: "KioskExampleTests",
            dependencies: [
                "KioskExample", "Graphics", "CairoGraphics", "PixelCanvas", "ResponderChain", "ResponderChainTesting",
            ], exclude: ["Golden"]),
        .testTarget(
            name: "AccessibilityTests",
            // The kiosk example's own tree, by ear (`@testable import KioskExample`).
            dependencies: ["Accessibility", "ResponderChain", "ResponderChainTesting", "KioskExample"]),
    ],
    swiftLanguageModes: [.v6]
)
