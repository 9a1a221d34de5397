// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ResponderChain",
    products: [
        .library(name: "ResponderChain", targets: ["ResponderChain"]),
        .library(name: "ResponderChainTesting", targets: ["ResponderChainTesting"]),
        .library(name: "LinuxKeyboard", targets: ["LinuxKeyboard"]),
        // A grid of styled cells drawn to a terminal: keytrace's live view and the kiosk example.
        .library(name: "TerminalCanvas", targets: ["TerminalCanvas"]),
        // keytrace's trace (events, JSON lines, text) for any window: `--trace FILE` in an app.
        .library(name: "DispatchTrace", targets: ["DispatchTrace"]),
        // keytrace's engine (scene sessions, live view), for the benchmarks; not a stable API.
        .library(name: "KeytraceKit", targets: ["KeytraceKit"]),
        .executable(name: "keytrace", targets: ["keytrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .target(name: "ResponderChain"),
        .target(name: "ResponderChainTesting", dependencies: ["ResponderChain"]),
        // The README's example as a program, linked without Foundation: if the core ever needs
        // libm or Foundation, `swift build` fails here instead of in a user's app.
        .executableTarget(name: "readme-example", dependencies: ["ResponderChain"]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(
            name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev", "xkb-data"])]),
        // Seat access as an ordinary user (seatd, or logind through libseat), as cage and weston do.
        .systemLibrary(name: "CSeat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        // epoll and eventfd, which Swift's Glibc module leaves out; header only, nothing to link.
        .systemLibrary(name: "CLinuxEvents"),
        .target(
            name: "LinuxKeyboard",
            dependencies: ["ResponderChain", "DispatchTrace", "CEvdev", "CUdev", "CXKBCommon", "CSeat", "CLinuxEvents"]),
        // Pure Swift, no dependency: styled cells, boxes, and the bytes that update a terminal.
        .target(name: "TerminalCanvas"),
        // Pure Swift on the core alone: the typed trace, its JSON lines (written and read) and text.
        .target(name: "DispatchTrace", dependencies: ["ResponderChain"]),
        // keytrace's scene sessions and live view, as a library so that tests can drive them.
        .target(
            name: "KeytraceKit", dependencies: ["ResponderChain", "LinuxKeyboard", "DispatchTrace", "TerminalCanvas"]),
        .executableTarget(
            name: "keytrace",
            dependencies: ["KeytraceKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The README's "Embed it in your app" program; KeytraceTests drives it in tmux.
        .executableTarget(name: "embed-example", dependencies: ["LinuxKeyboard", "ResponderChain"]),
        // A self-service kiosk on the public API: its own widgets and rendering, real keyboards.
        .executableTarget(
            name: "kiosk-example", dependencies: ["LinuxKeyboard", "ResponderChain", "TerminalCanvas", "DispatchTrace"]),
        // Run inside the test VM by Tools/vm-test: real kernel devices through LinuxKeyboard.
        .executableTarget(name: "keyboard-vm-check", dependencies: ["LinuxKeyboard", "ResponderChain"]),
        .testTarget(name: "ResponderChainTests", dependencies: ["ResponderChain", "ResponderChainTesting"]),
        .testTarget(
            name: "LinuxKeyboardTests",
            dependencies: ["LinuxKeyboard", "ResponderChain", "ResponderChainTesting", "CXKBCommon"]),
        .testTarget(
            name: "KeytraceTests",
            dependencies: ["KeytraceKit", "DispatchTrace", "TerminalCanvas", "ResponderChain", "LinuxKeyboard"],
            exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "TerminalCanvasTests", dependencies: ["TerminalCanvas"]),
        .testTarget(name: "ResponderChainTestingTests", dependencies: ["ResponderChain", "ResponderChainTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
