import Accessibility
import Foundation
import Testing

/// The speech settings' text: what it reads, what it refuses and how it says so, its limits, and the round
/// trip through ``SpeechSettings/text``.
@Suite struct SpeechSettingsTests {
    /// Parses, expecting an error; `nil` when the text parsed.
    func failure(_ text: String) -> SpeechSettingsError? {
        do {
            _ = try SpeechSettings(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test("reads the brief's example: comments, keys, a negative number")
    func example() throws {
        let text = """
            # speech settings, written by the app
            speech = on
            rate = 20
            volume = -10
            """
        #expect(try SpeechSettings(parsing: text) == SpeechSettings(isEnabled: true, rate: 20, volume: -10))
    }

    @Test(
        "reads keys in any order, blank lines, tabs, CR LF, a + sign, a byte order mark",
        arguments: [
            ("volume = 5\nspeech = off\n\nrate = -100\n", SpeechSettings(isEnabled: false, rate: -100, volume: 5)),
            ("speech=off\r\nrate=+7\r\n", SpeechSettings(isEnabled: false, rate: 7)),
            ("\t rate \t=\t 100  \n   # indented comment\n", SpeechSettings(rate: 100)),
            ("\u{FEFF}volume = 3\n", SpeechSettings(volume: 3)),
            ("rate = 007\n", SpeechSettings(rate: 7)),
            ("rate = -0\n", SpeechSettings(rate: 0)),
        ])
    func variants(text: String, expected: SpeechSettings) throws {
        #expect(try SpeechSettings(parsing: text) == expected)
    }

    @Test("missing keys keep the defaults; empty text and comments alone are the defaults")
    func defaults() throws {
        #expect(SpeechSettings.defaults == SpeechSettings(isEnabled: false, rate: 0, volume: 100))
        #expect(SpeechSettings() == .defaults)
        #expect(try SpeechSettings(parsing: "") == .defaults)
        #expect(try SpeechSettings(parsing: "# nothing yet\n\n") == .defaults)
        #expect(try SpeechSettings(parsing: "rate = 30") == SpeechSettings(rate: 30))
    }

    @Test("reads a substring as it reads a string")
    func substring() throws {
        let text = "ignored\nspeech = off\n"
        let slice = text[text.firstIndex(of: "s")!...]
        #expect(try SpeechSettings(parsing: slice) == SpeechSettings(isEnabled: false))
    }

    @Test(
        "errors name the line, the problem and the fix",
        arguments: [
            (
                "speech = on\nrat = 20\n", SpeechSettingsError.Code.unknownKey, 2,
                "line 2: an unknown key (did you mean rate?): the known keys are speech, rate and volume; "
                    + "remove the line or correct the key"
            ),
            (
                "Volume = 1", .unknownKey, 1,
                "line 1: an unknown key (did you mean volume?): the known keys are speech, rate and volume; "
                    + "remove the line or correct the key"
            ),
            (
                "pitch = 3", .unknownKey, 1,
                "line 1: an unknown key: the known keys are speech, rate and volume; remove the line or "
                    + "correct the key"
            ),
            (
                "rate = 1\n\nrate = 2", .duplicateKey, 3,
                "line 3: rate is given again (first on line 1): keep one of the two lines"
            ),
            (
                "speech on", .malformedLine, 1,
                "line 1 is not `key = value`: write one setting a line (speech = on, rate = 0, "
                    + "volume = 0), or start a comment with #"
            ),
            (
                "= on", .malformedLine, 1,
                "line 1: a value without a key: write one of speech, rate and volume before the ="
            ),
            (
                "speech = yes", .invalidValue, 1,
                "line 1: speech is neither on nor off: write speech = on or speech = off"
            ),
            (
                "speech = ON", .invalidValue, 1,
                "line 1: speech is neither on nor off: write speech = on or speech = off"
            ),
            (
                "rate = fast", .invalidValue, 1,
                "line 1: rate is not a whole number: write one from -100 to 100 (0 is the voice's default)"
            ),
            (
                "volume = ", .invalidValue, 1,
                "line 1: volume is not a whole number: write one from -100 to 100 (100, the loudest, is "
                    + "speech-dispatcher's default)"
            ),
            (
                "rate = 20 # faster", .invalidValue, 1,
                "line 1: rate is not a whole number: write one from -100 to 100 (0 is the voice's "
                    + "default)"
            ),
            (
                "rate = 1.5", .invalidValue, 1,
                "line 1: rate is not a whole number: write one from -100 to 100 (0 is the voice's default)"
            ),
            (
                "rate = -", .invalidValue, 1,
                "line 1: rate is not a whole number: write one from -100 to 100 (0 is the voice's default)"
            ),
            (
                "volume = 101", .outOfRange, 1,
                "line 1: volume is outside -100...100: write a number from -100 to 100 (100, the "
                    + "loudest, is speech-dispatcher's default)"
            ),
            (
                "rate = -101", .outOfRange, 1,
                "line 1: rate is outside -100...100: write a number from -100 to 100 (0 is the voice's "
                    + "default)"
            ),
        ])
    func errors(text: String, code: SpeechSettingsError.Code, line: Int, message: String) throws {
        let error = try #require(failure(text))
        #expect(error.code == code)
        #expect(error.line == line)
        #expect(error.message == message)
        #expect(error.description == message)
    }

    @Test("a number of any length is out of range, never an overflow")
    func hugeNumbers() throws {
        for digits in [4, 19, 20, 40, 400] {
            let number = String(repeating: "9", count: digits)
            for sign in ["", "-", "+"] {
                let error = try #require(failure("rate = \(sign)\(number)"))
                #expect(error.code == .outOfRange, "\(sign)\(digits) digits")
            }
        }
        let long = try #require(failure("rate = " + String(repeating: "9", count: 400)))
        #expect(!long.message.contains("99"), "the number is not shown: \(long.message)")
    }

    @Test(
        "an error quotes nothing of the text: another file's secret (a link to /etc/shadow) is never shown",
        arguments: [
            "root:$y$j9T$secretHash:19000:0:99999:7:::\n",
            "speech = secretValue\n",
            "rate = secretValue\n",
            "volume = 123456789\n",
            "secretKey = 1\n",
            "secretKey\n",
            "speech = \u{1B}]0;secretTitle\u{07}\r\n",
            "\u{1B}[2J = 1\n",
        ])
    func quotesNothing(text: String) throws {
        let error = try #require(failure(text))
        for shown in ["secret", "root", "$", "123456789", "\u{1B}", "\\u{1B}", "2J"] {
            #expect(!error.message.contains(shown), "\(error.message)")
        }
        #expect(error.message.hasPrefix("line 1"))
        #expect(!error.message.contains("\n") && !error.message.contains("\r"))
    }

    @Test("text up to 4 KiB is read; larger text is an error naming the limit")
    func sizeLimit() throws {
        let comment = "#" + String(repeating: "x", count: 99) + "\n"  // 101 bytes a line
        let padding = String(repeating: comment, count: 40)  // 40 lines, 4040 bytes
        let fits = padding + String(repeating: " ", count: 4096 - 4040 - 9) + "rate = 1\n"
        #expect(fits.utf8.count == 4096)
        #expect(try SpeechSettings(parsing: fits) == SpeechSettings(rate: 1))
        let error = try #require(failure(fits + " "))
        #expect(error.code == .tooLarge)
        #expect(error.line == 0)
        #expect(error.message.hasPrefix("the text is larger than 4096 bytes (4 KiB), the limit for speech settings"))
        let huge = try #require(failure(String(repeating: "a", count: 10_000_000)))
        #expect(huge.code == .tooLarge)
    }

    @Test("64 lines are read; a 65th is an error naming the limit")
    func lineLimit() throws {
        let sixtyFour = String(repeating: "#\n", count: 63) + "volume = 2\n"
        #expect(try SpeechSettings(parsing: sixtyFour) == SpeechSettings(volume: 2))
        #expect(try SpeechSettings(parsing: String(repeating: "\r\n", count: 64)) == .defaults)
        let error = try #require(failure(sixtyFour + "\n"))
        #expect(error.code == .tooManyLines)
        #expect(error.line == 65)
        #expect(
            error.message
                == "line 65: more than 64 lines, the limit for speech settings: keep one `key = value` a line "
                + "(speech, rate and volume) and few comments")
    }

    @Test("values outside -100...100 are clamped, in the initializer and when set")
    func clamping() {
        var settings = SpeechSettings(rate: 500, volume: -500)
        #expect(settings.rate == 100 && settings.volume == -100)
        settings.rate = -1_000
        settings.volume = Int.max
        #expect(settings.rate == -100 && settings.volume == 100)
        settings.rate = 42
        #expect(settings.rate == 42)
    }

    @Test(
        "text writes every key and parses back to the same settings",
        arguments: [
            SpeechSettings.defaults, SpeechSettings(isEnabled: false, rate: -100, volume: 100),
            SpeechSettings(isEnabled: true, rate: 20, volume: -10),
            SpeechSettings(isEnabled: false, rate: 0, volume: -1),
        ])
    func roundTrip(settings: SpeechSettings) throws {
        #expect(try SpeechSettings(parsing: settings.text) == settings)
        #expect(settings.text.hasPrefix("# speech settings, written by the app"))
        #expect(
            settings.text.hasSuffix(
                "\nspeech = \(settings.isEnabled ? "on" : "off")\nrate = \(settings.rate)\n"
                    + "volume = \(settings.volume)\n"))
    }

    @Test("every setting round-trips")
    func roundTripAll() throws {
        for isEnabled in [false, true] {
            for value in SpeechSettings.range {
                let settings = SpeechSettings(isEnabled: isEnabled, rate: value, volume: -value)
                #expect(try SpeechSettings(parsing: settings.text) == settings)
            }
        }
    }

    /// Every input fuzz-speech-settings crashed on (Fuzz/Regressions/speech-settings), read again as the
    /// target reads it.
    @Test("the fuzzer's regression inputs parse or fail with an error; what parses round-trips")
    func regressions() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/speech-settings")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(!names.isEmpty, "Fuzz/Regressions/speech-settings is empty")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            guard let settings = try? SpeechSettings(parsing: String(decoding: bytes, as: UTF8.self)) else {
                continue
            }
            #expect((try? SpeechSettings(parsing: settings.text)) == settings, "\(name)")
        }
    }
}
