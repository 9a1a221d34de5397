internal import Accessibility
internal import EventLoop

/// Writes the listener's settings from a loop deadline a moment after their last change, and says a
/// failure once until a write succeeds again.
@MainActor
final class SettingsSaver {
    let path: String
    let delay: Double
    unowned let narrator: Narrator
    let problems: SpeechProblems
    private var due: Double?
    private var failed = false

    init(path: String, delay: Double, narrator: Narrator, loop: EventLoop, problems: SpeechProblems) {
        self.path = path
        self.delay = delay
        self.narrator = narrator
        self.problems = problems
        loop.addDeadline({ [weak self] in self?.due }) { [weak self] now in self?.fire(now) }
    }

    func changed() {
        due = EventLoop.monotonicNow + delay
    }

    /// Writes a change still waiting for its moment now: the app is stopping.
    func saveIfPending() {
        if let due { fire(due) }
    }

    private func fire(_ now: Double) {
        guard let due, now >= due else { return }
        self.due = nil
        let kept = SpeechSettings(isEnabled: narrator.isEnabled, rate: narrator.rate, volume: narrator.volume)
        if let failure = SpeechSettingsFile.save(kept, to: path) {
            if !failed { problems.report(failure) }
            failed = true
        } else {
            failed = false
        }
    }
}

/// Where speech's problems go once the speech is made (the key commands and the saver are made before
/// it).
@MainActor
final class SpeechProblems {
    var report: (String) -> Void = { _ in }
}
