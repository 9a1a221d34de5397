// swift-tools-version: 6.1
// libFuzzer targets for every parser that reads outside input. Build and run them with
// `Tools/fuzz TARGET [seconds]` (it passes -sanitize=fuzzer,address); see docs/development.md's
// section.
import PackageDescription

let package = Package(
    name: "ResponderChainFuzz",
    dependencies: [.package(name: "ResponderChain", path: "..")],
    targets: [
        // LLVMFuzzerRunDriver, libFuzzer's entry point for programs that keep their own main.
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        .executableTarget(
            name: "fuzz-scene",
            dependencies: ["FuzzSupport", .product(name: "ResponderChain", package: "ResponderChain")]),
        .executableTarget(
            name: "fuzz-evemu",
            dependencies: [
                "FuzzSupport", .product(name: "EvdevInput", package: "ResponderChain"),
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]),
        .executableTarget(
            name: "fuzz-keys",
            dependencies: ["FuzzSupport", .product(name: "ResponderChain", package: "ResponderChain")]),
        .executableTarget(
            name: "fuzz-terminal",
            dependencies: [
                "FuzzSupport", .product(name: "TerminalIO", package: "ResponderChain"),
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]),
        .executableTarget(
            name: "fuzz-trace",
            dependencies: ["FuzzSupport", .product(name: "DispatchTrace", package: "ResponderChain")]),
        // keytrace --attach's reader of an app's socket, and the app's reader of a peer's request.
        .executableTarget(
            name: "fuzz-inspection",
            dependencies: [
                "FuzzSupport", .product(name: "Inspection", package: "ResponderChain"),
                .product(name: "DispatchTrace", package: "ResponderChain"),
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]),
        .executableTarget(
            name: "fuzz-request",
            dependencies: ["FuzzSupport", .product(name: "Inspection", package: "ResponderChain")]),
        // A Wayland compositor's seat events, decoded into keys, clicks and taps.
        .executableTarget(
            name: "fuzz-seat",
            dependencies: [
                "FuzzSupport", .product(name: "WaylandClient", package: "ResponderChain"),
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]),
        // libinput's events (touch, pointer, devices), decoded a dispatch at a time into clicks and taps.
        .executableTarget(
            name: "fuzz-libinput",
            dependencies: [
                "FuzzSupport", .product(name: "LibinputInput", package: "ResponderChain"),
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]),
        // The keymap a Wayland compositor sends.
        .executableTarget(
            name: "fuzz-keymap",
            dependencies: [
                "FuzzSupport", .product(name: "XKBKeymap", package: "ResponderChain"),
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]),
        // What a DRM device's descriptor delivers: page-flip and vblank events.
        .executableTarget(
            name: "fuzz-drm-events",
            dependencies: ["FuzzSupport", .product(name: "DRMOutput", package: "ResponderChain")]),
        // What speech-dispatcher sends a client: SSIP replies and 7xx events.
        .executableTarget(
            name: "fuzz-ssip",
            dependencies: ["FuzzSupport", .product(name: "SpeechDispatcher", package: "ResponderChain")]),
        // The listener's speech settings file (speech on or off, rate, volume), as an app reads it at start.
        .executableTarget(
            name: "fuzz-speech-settings",
            dependencies: ["FuzzSupport", .product(name: "Accessibility", package: "ResponderChain")]),
        // A file of the rendered-SVG cache, read back from disk by CairoGraphics.
        .executableTarget(
            name: "fuzz-svg-cache",
            dependencies: ["FuzzSupport", .product(name: "CairoGraphics", package: "ResponderChain")]),
    ],
    swiftLanguageModes: [.v6]
)
