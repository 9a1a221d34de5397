import Accessibility
import AppSpeech
import Foundation
import Testing

/// The speech settings' file: where it is, what loading a missing, malformed or unreadable one gives,
/// and saving (directories made 0700, atomic replacement, failures as notes).
@Suite struct SpeechSettingsFileTests {
    /// A fresh directory, removed after `body`.
    func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test(
        "the path is XDG_STATE_HOME's, else HOME's .local/state, else /var/lib's",
        arguments: [
            (["XDG_STATE_HOME": "/s", "HOME": "/home/k"], "/s/kiosk/speech.conf"),
            (["XDG_STATE_HOME": "/s/", "HOME": "/home/k"], "/s/kiosk/speech.conf"),
            (["HOME": "/home/k"], "/home/k/.local/state/kiosk/speech.conf"),
            (["HOME": "/home/k/"], "/home/k/.local/state/kiosk/speech.conf"),
            (["XDG_STATE_HOME": "relative/state", "HOME": "/home/k"], "/home/k/.local/state/kiosk/speech.conf"),
            (["XDG_STATE_HOME": "", "HOME": "/home/k"], "/home/k/.local/state/kiosk/speech.conf"),
            ([:], "/var/lib/kiosk/speech.conf"),
            (["HOME": ""], "/var/lib/kiosk/speech.conf"),
        ])
    func path(environment: [String: String], expected: String) {
        #expect(SpeechSettingsFile.path(appName: "kiosk", environment: environment) == expected)
    }

    @Test("an app name that is not one path component is a programmer error")
    func badAppName() async {
        await #expect(processExitsWith: .failure) {
            _ = SpeechSettingsFile.path(appName: "a/b", environment: ["HOME": "/home/k"])
        }
        await #expect(processExitsWith: .failure) {
            _ = SpeechSettingsFile.path(appName: "..", environment: ["HOME": "/home/k"])
        }
    }

    @Test("a missing file gives the defaults and no note")
    func missing() throws {
        try withDirectory { directory throws in
            let (settings, note) = SpeechSettingsFile.load(from: directory + "/app/speech.conf")
            #expect(settings == .defaults)
            #expect(note == nil)
        }
    }

    @Test("a malformed file gives the defaults and a note naming the file, the line and the fix")
    func malformed() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            try "speech = off\nrat = 20\n".write(toFile: path, atomically: false, encoding: .utf8)
            let (settings, note) = SpeechSettingsFile.load(from: path)
            #expect(settings == .defaults)
            #expect(
                note
                    == "\(path): line 2: an unknown key (did you mean rate?): the known keys are speech, rate "
                    + "and volume; remove the line or correct the key. Speech uses the default settings until it is "
                    + "fixed (the app writes the file again when the listener changes a setting).")
        }
    }

    @Test("an unreadable or oversized file gives the defaults and a note naming it and the fix")
    func unreadable() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let (settings, note) = SpeechSettingsFile.load(from: path)
            #expect(settings == .defaults)
            #expect(note?.hasPrefix("\(path): Is a directory (give a file, not a directory). Speech uses") == true)

            let large = directory + "/large.conf"
            try String(repeating: "#\n", count: 3000).write(toFile: large, atomically: false, encoding: .utf8)
            let (tooLarge, sizeNote) = SpeechSettingsFile.load(from: large)
            #expect(tooLarge == .defaults)
            #expect(
                sizeNote?.hasPrefix(
                    "\(large): the speech settings file is 6000 bytes, over the limit of 4096 bytes") == true)
        }
    }

    @Test("a FIFO is refused at once, not waited on: the settings are the app's own file, never a pipe")
    func fifo() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            #expect(mkfifo(path, 0o600) == 0)
            let start = ContinuousClock.now
            let (settings, note) = SpeechSettingsFile.load(from: path)
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(settings == .defaults)
            #expect(note?.hasPrefix("\(path): a FIFO, not a regular file: remove it") == true, "\(note ?? "")")
        }
    }

    @Test("a link to another file (/etc/shadow) is not followed, and nothing of the target is shown")
    func symbolicLink() throws {
        try withDirectory { directory throws in
            let secret = directory + "/secret"
            try "root:$y$j9T$secretHash:19000:0:99999:7:::\n".write(toFile: secret, atomically: false, encoding: .utf8)
            let path = directory + "/speech.conf"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
            let (settings, note) = SpeechSettingsFile.load(from: path)
            #expect(settings == .defaults)
            let said = try #require(note)
            #expect(said.hasPrefix("\(path): a symbolic link, and the app does not read its own speech settings"))
            #expect(!said.contains("root") && !said.contains("secret") && !said.contains("$"), "\(said)")
            // Even a link to valid settings is refused: the rule is the link, not what it points at.
            try SpeechSettings(rate: 7).text.write(toFile: secret, atomically: false, encoding: .utf8)
            #expect(SpeechSettingsFile.load(from: path).0 == .defaults)
            // Saving replaces the link by a file of the app's own and leaves the target alone.
            #expect(SpeechSettingsFile.save(SpeechSettings(rate: 3), to: path) == nil)
            #expect(SpeechSettingsFile.load(from: path) == (SpeechSettings(rate: 3), nil))
            #expect(
                SpeechSettingsFile.load(from: secret).0 == SpeechSettings(rate: 7), "the target was not written through"
            )
        }
    }

    @Test("a file other users may write is refused with the fix (chmod go-w)")
    func writableByOthers() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            try SpeechSettings(rate: 7).text.write(toFile: path, atomically: false, encoding: .utf8)
            for mode in [0o666, 0o620, 0o602] {
                #expect(chmod(path, mode_t(mode)) == 0)
                let (settings, note) = SpeechSettingsFile.load(from: path)
                #expect(settings == .defaults)
                #expect(
                    note?.hasPrefix(
                        "\(path): writable by other users (mode \(String(mode, radix: 8))), so the app does not "
                            + "trust it: chmod go-w the file") == true, "\(note ?? "")")
            }
            #expect(chmod(path, 0o644) == 0)
            #expect(SpeechSettingsFile.load(from: path) == (SpeechSettings(rate: 7), nil))
        }
    }

    @Test(
        "a file owned by another user is refused with the fix (chown)",
        .enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func ownedByAnotherUser() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            try SpeechSettings(rate: 7).text.write(toFile: path, atomically: false, encoding: .utf8)
            #expect(chown(path, 65534, 65534) == 0)
            let (settings, note) = SpeechSettingsFile.load(from: path)
            #expect(settings == .defaults)
            #expect(
                note?.hasPrefix(
                    "\(path): owned by user 65534, not by the app's user (0), so the app does not trust it: "
                        + "remove it, or give it to user 0 (chown 0)") == true, "\(note ?? "")")
        }
    }

    @Test("save then load gives the same settings; the file holds their text, mode 0600")
    func saveThenLoad() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            let settings = SpeechSettings(isEnabled: false, rate: 35, volume: -60)
            #expect(SpeechSettingsFile.save(settings, to: path) == nil)
            let (loaded, note) = SpeechSettingsFile.load(from: path)
            #expect(loaded == settings)
            #expect(note == nil)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == settings.text)
            #expect(try mode(path) == 0o600)
            let changed = SpeechSettings(rate: -5)
            #expect(SpeechSettingsFile.save(changed, to: path) == nil)
            #expect(SpeechSettingsFile.load(from: path).0 == changed)
        }
    }

    @Test("saving makes the missing directories, each 0700, and leaves existing ones alone")
    func makesDirectories() throws {
        try withDirectory { directory throws in
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
            let state = directory + "/.local/state"
            let path = SpeechSettingsFile.path(appName: "kiosk", environment: ["HOME": directory])
            #expect(path == state + "/kiosk/speech.conf")
            #expect(SpeechSettingsFile.save(.defaults, to: path) == nil)
            for made in [directory + "/.local", state, state + "/kiosk"] {
                #expect(try mode(made) == 0o700, "\(made)")
            }
            #expect(try mode(directory) == 0o755)
            #expect(SpeechSettingsFile.load(from: path) == (.defaults, nil))
        }
    }

    @Test("a symbolic link to a directory on the way is followed, not replaced")
    func linkedDirectory() throws {
        try withDirectory { directory throws in
            try FileManager.default.createDirectory(
                atPath: directory + "/elsewhere", withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: directory + "/.local", withDestinationPath: "elsewhere")
            let path = SpeechSettingsFile.path(appName: "kiosk", environment: ["HOME": directory])
            #expect(SpeechSettingsFile.save(SpeechSettings(volume: 9), to: path) == nil)
            #expect(SpeechSettingsFile.load(from: directory + "/elsewhere/state/kiosk/speech.conf").0.volume == 9)
        }
    }

    @Test("saving is atomic: no temporary file is left, and a failed save leaves the old state and a note")
    func atomic() throws {
        try withDirectory { directory throws in
            let path = directory + "/speech.conf"
            for rate in [10, 20, 30] {
                #expect(SpeechSettingsFile.save(SpeechSettings(rate: rate), to: path) == nil)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["speech.conf"])
            #expect(SpeechSettingsFile.load(from: path).0 == SpeechSettings(rate: 30))

            // A directory (not empty) where the file should be: the rename fails after the temporary file was
            // written, which must then be gone.
            let blocked = directory + "/blocked"
            try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
            let note = try #require(SpeechSettingsFile.save(.defaults, to: blocked))
            #expect(note.hasPrefix("Could not save the speech settings to \(blocked): rename \(directory)/.blocked."))
            #expect(note.contains(" to \(blocked): "))
            #expect(note.hasSuffix("check the directory's owner and permissions."))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["blocked", "speech.conf"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: blocked) == ["inside"])
        }
    }

    @Test("a file where a directory should be is a note naming it, never a throw")
    func notADirectory() throws {
        try withDirectory { directory throws in
            try "x".write(toFile: directory + "/app", atomically: false, encoding: .utf8)
            let path = directory + "/app/speech.conf"
            #expect(
                SpeechSettingsFile.save(.defaults, to: path)
                    == "Could not save the speech settings to \(path): \(directory)/app is not a directory. The "
                    + "settings stay as they are until the app stops; check the directory's owner and permissions.")
            let (settings, note) = SpeechSettingsFile.load(from: path)
            #expect(settings == .defaults)
            #expect(note?.hasPrefix("\(path): Not a directory") == true)
        }
    }
}
