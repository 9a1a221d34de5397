import Benchmark
import LinuxKeyboard
import ResponderChain

/// Where the benchmarks' utterances go: counted, then dropped.
@MainActor final class CountingSpeech: SpeechOutput {
    var spoken = 0
    func speak(_ utterance: Utterance) { spoken &+= 1 }
    func stopSpeaking() {}
    func apply(rate: Int, volume: Int) {}
}

let narratorBenchmarks: @Sendable () -> Void = {
    // A focus move in a group of 1,000 and of 10,000 labelled buttons with a narrator: speech off
    // (what a kiosk pays for being usable by ear while no one listens), and speech on (the
    // utterance built: label, role, "n of N" in reading order).
    for (count, columns) in [(1000, 40), (10_000, 100)] {
        for speaking in [false, true] {
            let name = "Narrator: arrow, speech \(speaking ? "on" : "off"), a group of \(count) buttons"
            Benchmark(name, configuration: growthConfiguration(count, perSample: true)) {
                @MainActor benchmark async in
                let scene = GridScene(count: count, columns: columns, oneGroup: true)
                for (index, item) in scene.items.enumerated() {
                    item.accessibilityLabel = "Button \(index + 1)"
                    item.primaryAction = "choose"
                }
                let narrator = Narrator(window: scene.window, focusSystem: scene.focus, isEnabled: speaking)
                let speech = CountingSpeech()
                narrator.output = speech
                let dispatcher = Dispatcher(window: scene.window)
                dispatcher.systemKeyHandler = scene.focus
                scene.focus.requestFocus(on: scene.items[count / 2 + columns / 2])
                // Right then left inside the group (as "Focus: arrow key…"), the first pair unmeasured:
                // it builds the arrow grid and the positions.
                var right = true
                @MainActor func move() {
                    let code: KeyCode = right ? .rightArrow : .leftArrow
                    dispatcher.handle(KeyEvent(code, .down))
                    dispatcher.handle(KeyEvent(code, .up))
                    right.toggle()
                }
                move()
                move()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { move() }
                benchmark.stopMeasurement()
                precondition(!speaking || speech.spoken > 2)
                blackHole(speech.spoken)
                withExtendedLifetime(narrator) {}
            }
        }
    }
}
