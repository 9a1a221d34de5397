import Accessibility
import FuzzSupport

// The listener's speech settings file, as the app reads it: any bytes either parse or fail with an error
// naming a line within the text (never a trap); settings that parse are in range, and their text parses
// back to the same settings.
fuzz { data, count in
    let input = bytes(data, count)
    let text = String(decoding: input, as: UTF8.self)
    let settings: SpeechSettings
    do throws(SpeechSettingsError) {
        settings = try SpeechSettings(parsing: text)
    } catch {
        guard (0...SpeechSettings.maximumLineCount + 1).contains(error.line), !error.message.isEmpty else {
            fatalError("an error out of bounds: \(error)")
        }
        guard !error.message.contains("\n"), !error.message.contains("\u{1B}") else {
            fatalError("an error message that is not one safe line: \(error)")
        }
        return 0
    }
    guard SpeechSettings.range.contains(settings.rate), SpeechSettings.range.contains(settings.volume) else {
        fatalError("settings out of range: \(settings)")
    }
    guard let again = try? SpeechSettings(parsing: settings.text), again == settings else {
        fatalError("\(settings) writes text that does not parse back: \(settings.text)")
    }
    // A substring reads as the string does.
    guard (try? SpeechSettings(parsing: text[...])) == settings else { fatalError("a substring reads differently") }
    return 0
}
