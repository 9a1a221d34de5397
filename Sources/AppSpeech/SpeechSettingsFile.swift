package import Accessibility
internal import LinuxSystem
internal import ResponderChain

/// The listener's ``SpeechSettings`` in a small file, kept between runs of an app.
///
/// The file is `$XDG_STATE_HOME/<app>/speech.conf`, or `$HOME/.local/state/<app>/speech.conf` when
/// `XDG_STATE_HOME` is not set (or not an absolute path, which the XDG Base Directory specification says to
/// ignore). State, not configuration (`$XDG_CONFIG_HOME`): the app writes this file itself whenever the
/// listener turns speech on or off or changes the rate or volume, which is what the specification's state
/// directory is for ("actions history", "current state of the application that can be reused on a
/// restart"); the configuration directory holds what a person or a kiosk's image sets up, which may be
/// read-only and which an app must not rewrite under them.
///
/// Nothing here throws at the app: a file that is missing gives the defaults silently (the listener has
/// changed nothing yet); one that cannot be read or does not parse gives the defaults and a note naming the
/// file and the fix, for the app to print once; a save that fails returns such a note.
package enum SpeechSettingsFile {
    /// The file's name in the app's state directory.
    package static let fileName = "speech.conf"

    /// Where an app's speech settings live.
    ///
    /// `$XDG_STATE_HOME/<app>/speech.conf`, else `$HOME/.local/state/<app>/speech.conf`; with neither set
    /// to an absolute path, `/var/lib/<app>/speech.conf` (a system service's state directory, as systemd's
    /// `StateDirectory=` makes it).
    ///
    /// - Parameters:
    ///   - appName: The app's name, one path component (`kiosk-example`).
    ///   - environment: The environment (the process's by default).
    /// - Returns: The file's path.
    package static func path(appName: String, environment: [String: String] = Syscalls.processEnvironment())
        -> String
    {
        precondition(
            !appName.isEmpty && !appName.contains("/") && appName != "." && appName != "..",
            "SpeechSettingsFile: the app name must be one path component, not \"\(appName)\"")
        let directory: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            directory = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directory = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/state"
        } else {
            directory = "/var/lib"
        }
        return (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/\(appName)/\(fileName)"
    }

    /// Reads the settings from a file.
    ///
    /// - Parameter path: The file (``path(appName:environment:)``).
    /// - Returns: The settings, and `nil`; or, when the file is there but cannot be read or does not
    ///   parse, ``SpeechSettings/defaults`` and a note naming the file and the fix. A missing file gives the
    ///   defaults and no note.
    package static func load(from path: String) -> (SpeechSettings, note: String?) {
        let shownPath = path.escapingControlCharacters()
        let fallback =
            "Speech uses the default settings until it is fixed (the app writes the file again when "
            + "the listener changes a setting)."
        switch readFileBytes(path, limit: SpeechSettings.maximumSize, timeout: 1, rules: .ownState) {
        case .failure(.system(.noSuchFileOrDirectory)):
            return (.defaults, nil)
        case .failure(let failure):
            let reason = failure.describe(what: "speech settings file", limit: SpeechSettings.maximumSize)
            return (.defaults, "\(shownPath): \(reason). \(fallback)")
        case .success(let bytes):
            do {
                return (try SpeechSettings(parsing: String(decoding: bytes, as: UTF8.self)), nil)
            } catch {
                return (.defaults, "\(shownPath): \(error.message). \(fallback)")
            }
        }
    }

    /// Writes the settings to a file, atomically: a temporary file in the same directory, renamed over the
    /// old one, so that the file is never found half written. Makes the missing directories on the way
    /// (mode 0700: they hold what this user chose).
    ///
    /// - Parameters:
    ///   - settings: The settings.
    ///   - path: The file (``path(appName:environment:)``).
    /// - Returns: `nil` when saved; else a note naming the file, what failed and the fix.
    package static func save(_ settings: SpeechSettings, to path: String) -> String? {
        let shownPath = path.escapingControlCharacters()
        let fix = " The settings stay as they are until the app stops; check the directory's owner and permissions."
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex,
            let problem = makeDirectories(String(path[..<slash]))
        {
            return "Could not save the speech settings to \(shownPath): \(problem.escapingControlCharacters())."
                + fix
        }
        if let failure = replaceFile(path, with: Array(settings.text.utf8)) {
            return "Could not save the speech settings to \(shownPath): "
                + "\(failure.message.escapingControlCharacters())." + fix
        }
        return nil
    }

    /// Makes a directory and its missing parents, each with mode 0700.
    ///
    /// - Returns: `nil` when the directory is there, else what failed.
    private static func makeDirectories(_ directory: String) -> String? {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            switch ProcessCalls.status(prefix) {
            case .success(let status) where status.isDirectory:
                continue
            case .success(let status) where status.isSymbolicLink && Syscalls.resolvedPath(prefix) != nil:
                continue  // A link to a directory (`~/.local` on another disk); mkdir below then says so if not.
            case .success:
                return "\(prefix) is not a directory"
            case .failure(.noSuchFileOrDirectory):
                if let error = ProcessCalls.makeDirectory(prefix), error != .fileExists {
                    return "mkdir \(prefix): \(fileErrorDescription(error))"
                }
            case .failure(let error):
                return "\(prefix): \(fileErrorDescription(error))"
            }
        }
        return nil
    }
}
