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
        // The first move after a layout change, speech on: "n of N" sorts the group again (the
        // directory filtering as one types, then an arrow). The last item's frame moves before each move.
        Benchmark(
            "Narrator: one item's frame changes, then arrow, speech on, a group of \(count) buttons",
            configuration: growthConfiguration(count, perSample: true)
        ) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: true)
            for (index, item) in scene.items.enumerated() { item.accessibilityLabel = "Button \(index + 1)" }
            let narrator = Narrator(window: scene.window, focusSystem: scene.focus)
            let speech = CountingSpeech()
            narrator.output = speech
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            scene.focus.requestFocus(on: scene.items[count / 2 + columns / 2])
            let last = scene.items[count - 1]
            let frame = last.frame
            let frames = [frame, Rect(x: frame.minX, y: frame.minY + 1, width: frame.width, height: frame.height)]
            var right = true
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                last.frame = frames[index & 1]
                let code: KeyCode = right ? .rightArrow : .leftArrow
                dispatcher.handle(KeyEvent(code, .down))
                dispatcher.handle(KeyEvent(code, .up))
                right.toggle()
            }
            benchmark.stopMeasurement()
            precondition(speech.spoken > 2)
            withExtendedLifetime(narrator) {}
        }

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
