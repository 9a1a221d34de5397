import Benchmark
import DispatchTrace
import Glibc
import KeytraceKit
import LinuxKeyboard
import ResponderChain

/// An evemu recording of `events` key events (half presses, half releases, each followed by its
/// SYN_REPORT, as evemu-record writes them), 10 ms apart, over letters, Tab and the arrows.
func syntheticRecording(events: Int) -> String {
    let codes = [30, 48, 46, 32, 18, 33, 15, 108, 103, 28]
    var lines = ["# EVEMU 1.3", "N: benchmark keyboard", "I: 0003 0001 0001 0001", "P: 00 00 00 00 00 00 00 00"]
    var written = 0
    var tick = 0
    func hex4(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
    while written < events {
        let code = codes[(tick / 2) % codes.count]
        tick += 1
        let micros = tick * 10_000
        let fraction = String(micros % 1_000_000)
        let time = "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        lines.append("E: \(time) 0001 \(hex4(code)) 000\(tick % 2)")
        lines.append("E: \(time) 0000 0000 0000")
        written += 2
    }
    return lines.joined(separator: "\n") + "\n"
}

let keytraceBenchmarks: @Sendable () -> Void = {
    // keytrace's own targets: --replay of 100,000 events with --json at >= 500,000 events/s, and
    // the first frame within 150 ms of start. These run in-process; Tools/keytrace-perf measures
    // the binary (start-up, RSS, idle wake-ups) around them.
    let path = "/tmp/keytrace-benchmark-\(getpid()).evemu"
    let recording = syntheticRecording(events: 100_000)
    Benchmark(
        "keytrace --replay of 100,000 events with --json (parse, dispatch, format, write to /dev/null)",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 20,
            setup: {
                guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
                fputs(recording, file)
                fclose(file)
            },
            teardown: { unlink(path) })
    ) { @MainActor benchmark async throws in
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        var options = KeytraceOptions()
        options.replayPath = path
        options.format = .json
        for _ in benchmark.scaledIterations {
            blackHole(try Keytrace.run(options, output: OutputBuffer(descriptor: devNull)))
        }
    }

    Benchmark(
        "keytrace start: demo scene loaded, initial focus, first 120x40 frame rendered",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    ) { @MainActor benchmark async throws in
        for _ in benchmark.scaledIterations {
            let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
            let session = TraceSession(scene: scene, layout: USKeyboardLayout(), explain: true) { _ in }
            session.keepsHistory = true
            session.start(input: "terminal", layout: "us")
            let view = LiveView(session: session, scene: scene, input: "terminal", layout: "us")
            blackHole(view.render(columns: 120, rows: 40))
        }
    }
}
