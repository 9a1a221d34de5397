import Benchmark
import Glibc
import LinuxKeyboard
import ResponderChain

/// A primary input that reads nothing: the application runs without a device or a terminal.
@MainActor final class IdleSource: InputSource {
    let inputName = "benchmark"
    let inputNote: String? = nil
    var onDeviceChange: ((InputDeviceChange) -> Void)?
    func start() throws {}
    func stop() {}
}

/// An application whose inspection socket listens (nobody attached), around a focused item whose
/// root binds F5: the key path of every app now that every app serves `keytrace --attach`.
@MainActor
func listeningApplication(directory: String) throws -> (Application, FocusNode) {
    let window = Window(identifier: "window")
    let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 20, height: 2))
    let item = FocusNode(identifier: "item", frame: Rect(x: 0, y: 0, width: 10, height: 1), isFocusable: true)
    window.addChild(root)
    root.addChild(item)
    root.keyCommands = [KeyCommand(.f5, action: "go")]
    root.performableActions = ["go"]
    var performed = 0
    root.onAction = { _, _ in performed &+= 1 }
    var configuration = Application.Configuration()
    configuration.usesTerminalForOutput = false
    configuration.inspection.directory = directory
    configuration.inspection.isEnabled = true
    let app = try Application(window: window, root: root, configuration: configuration)
    app.setPrimaryInput(IdleSource(), fallsBackToTerminal: false)
    try app.start()
    precondition(app.inspectionPath != nil, "the inspection socket is not listening: \(app.inspectionNote ?? "")")
    return (app, root)
}

let inspectionBenchmarks: @Sendable () -> Void = {
    // The inspection socket must cost a key nothing while nobody watches: no trace observer, so
    // no record is built and nothing is allocated (gated by Tools/benchmark --check-allocations).
    let directory = "/tmp/inspection-benchmark-\(getpid())"
    Benchmark(
        "Key bound on the root of an Application listening for keytrace --attach, nobody attached (press + release)",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2),
            teardown: { _ = rmdir(directory) })
    ) { @MainActor benchmark async throws in
        let (app, root) = try listeningApplication(directory: directory)
        measureTaps(benchmark, app.dispatcher, .f5)
        precondition(!app.dispatcher.isSecureEntry && root.keyCommands.count == 1)
        blackHole(app.inspectionWatchers)
        // run() returns at once and removes the socket.
        app.stop()
        try await app.run()
    }
}
