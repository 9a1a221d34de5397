import EventLoop
import Foundation

/// A speech-dispatcher of the test's own: the system's configuration copied into a temporary
/// directory with the socket, the logs (and a `protocol` log of every line the daemon received) there too, espeak-ng as
/// the only module, audio through ALSA's `file` plugin into `out.raw` (S16_LE mono 22050 Hz, no sound
/// card), no idle timeout, no autospawn, and an empty environment. Spawned with posix_spawn and
/// reaped with waitpid; ``stop()`` sends SIGTERM, then SIGKILL after 5 s.
public final class PrivateDaemon {
    /// Why the daemon could not be made or started.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, and the fix.
        public let description: String
        /// Creates a failure.
        ///
        /// - Parameter description: What went wrong.
        public init(description: String) { self.description = description }
    }

    /// Whether the daemon and espeak-ng's module are installed (Tools/test installs them).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/speech-dispatcher")
            && FileManager.default.fileExists(atPath: "/usr/lib/speech-dispatcher-modules/sd_espeak-ng")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox")
    }

    /// The temporary directory holding its configuration, socket, logs and audio.
    public let directory: String
    /// Its process id while it runs, else 0.
    public private(set) var pid: pid_t = 0

    /// Its socket.
    public var socketPath: String { directory + "/speechd.sock" }
    /// The log of every line it received.
    public var protocolLogPath: String { directory + "/log/protocol.log" }
    /// The raw audio it played (S16_LE mono 22050 Hz).
    public var audioPath: String { directory + "/out.raw" }

    /// Makes the directory and the configuration (not started: see ``start()``).
    ///
    /// - Throws: ``Failure`` when the daemon, its espeak-ng module or sox is not installed.
    public init() throws {
        guard Self.isInstalled else {
            throw Failure(
                description: "speech-dispatcher, its espeak-ng module or sox is not installed: run Tools/test, "
                    + "which installs them, or apt-get install speech-dispatcher speech-dispatcher-espeak-ng sox")
        }
        var template = Array("/tmp/speechd-test-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw Failure(description: "mkdtemp failed") }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let files = FileManager.default
        for sub in ["log", "home", "run"] {
            try files.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        try files.copyItem(atPath: "/etc/speech-dispatcher", toPath: directory + "/conf")
        let overrides = """

            # ---- private test instance ----
            CommunicationMethod "unix_socket"
            SocketPath "\(directory)/speechd.sock"
            LogDir "\(directory)/log"
            LogLevel 3
            CustomLogFile "protocol" "\(directory)/log/protocol.log"
            Timeout 0
            DisableAutoSpawn
            AudioOutputMethod "alsa"
            AudioALSADevice "default"
            AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
            DefaultModule espeak-ng
            DefaultLanguage "en"

            """
        let configuration = directory + "/conf/speechd.conf"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: configuration))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(overrides.utf8))
        try handle.close()
        let asoundrc = """
            pcm.!default {
              type file
              slave.pcm "null"
              file "\(directory)/out.raw"
              format "raw"
              truncate false
            }

            """
        try asoundrc.write(toFile: directory + "/home/.asoundrc", atomically: true, encoding: .utf8)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the daemon (removing a stale socket first) and waits up to 10 s for its socket.
    public func start() throws {
        unlink(socketPath)
        pid = try Self.spawn(
            [
                "/usr/bin/speech-dispatcher", "-s", "-C", directory + "/conf", "-t", "0", "-P",
                directory + "/run/speechd.pid",
            ],
            environment: ["PATH=/usr/bin:/bin", "HOME=\(directory)/home", "LANG=C.UTF-8"],
            output: directory + "/log/stdout.txt")
        let deadline = EventLoop.monotonicNow + 10
        while !FileManager.default.fileExists(atPath: socketPath) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                let output = (try? String(contentsOfFile: directory + "/log/stdout.txt", encoding: .utf8)) ?? ""
                throw Failure(description: "speech-dispatcher exited at start: \(output)")
            }
            guard EventLoop.monotonicNow < deadline else {
                stop()
                throw Failure(description: "speech-dispatcher made no socket within 10 s")
            }
            usleep(10_000)
        }
    }

    /// Sends a signal (SIGSTOP, SIGCONT, SIGKILL) to the daemon.
    public func signal(_ signal: Int32) {
        if pid > 0 { kill(pid, signal) }
    }

    /// Kills the daemon with SIGKILL and reaps it; the socket file stays, as after a crash.
    public func killNow() {
        guard pid > 0 else { return }
        let modules = children
        kill(pid, SIGKILL)
        reap(waitUpTo: 5)
        killAll(modules)
    }

    /// SIGTERM (after SIGCONT, for a stopped daemon), then SIGKILL after 5 s; reaped either way.
    public func stop() {
        guard pid > 0 else { return }
        let modules = children
        defer { killAll(modules) }
        kill(pid, SIGCONT)
        kill(pid, SIGTERM)
        if !reap(waitUpTo: 5) {
            kill(pid, SIGKILL)
            reap(waitUpTo: 5)
        }
    }

    /// The daemon's children (its sd_espeak-ng module), by their parent in /proc.
    private var children: [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> pid_t? in
            guard let child = pid_t(name),
                let status = try? String(contentsOfFile: "/proc/\(name)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("PPid:") }),
                pid_t(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) == pid
            else { return nil }
            return child
        }
    }

    /// Kills the module processes left behind by a SIGKILL of the daemon, by their ids: they
    /// were re-parented, so this process cannot reap them (init does).
    private func killAll(_ modules: [pid_t]) {
        for module in modules {
            let name = (try? String(contentsOfFile: "/proc/\(module)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix("sd_") { kill(module, SIGKILL) }
        }
    }

    @discardableResult
    private func reap(waitUpTo seconds: Double) -> Bool {
        let deadline = EventLoop.monotonicNow + seconds
        var status: Int32 = 0
        while EventLoop.monotonicNow < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                pid = 0
                return true
            }
            usleep(5_000)
        }
        return false
    }

    /// Every text the daemon received, from its protocol log (`fd:DATA:|text` lines), in order.
    public var protocolLog: String {
        (try? String(contentsOfFile: protocolLogPath, encoding: .utf8)) ?? ""
    }

    /// Every line the daemon received (commands and text, as sent: a text line's leading dot
    /// doubled), from the protocol log's `fd:DATA:|line` entries, in order.
    public var received: [String] {
        let log = protocolLog
        var lines: [String] = []
        var rest = log[...]
        while let start = rest.range(of: ":DATA:|") {
            rest = rest[start.upperBound...]
            let end = rest.range(of: "\r\n|") ?? rest.range(of: "\n|") ?? (rest.endIndex..<rest.endIndex)
            lines.append(String(rest[..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return lines
    }

    /// Each `SPEAK` the daemon received, in order, with the priority it was sent at (the last `SET SELF
    /// PRIORITY` on its connection; SSIP's default, `text`, before any): of the client whose
    /// `CLIENT_NAME` has `client` as its program part (`user:kiosk-example:main`), or of every client.
    ///
    /// - Parameter client: The program name, or `nil` for every client.
    /// - Returns: The texts (a line's leading dot undoubled, lines joined) and their priorities.
    public func utterances(by client: String? = nil) -> [(text: String, priority: String)] {
        // Entries look like `[Thu Nov 26 08:47:21 2026 : 486509] speechd: 18:DATA:|SPEAK` and CRLF (one
        // Character in Swift: split at every newline character).
        var speaker: [String: Bool] = [:]
        var priority: [String: String] = [:]
        var texts: [String: [String]?] = [:]
        var result: [(String, String)] = []
        for entry in protocolLog.split(whereSeparator: \.isNewline) {
            guard let data = entry.range(of: ":DATA:|") else { continue }
            let head = entry[..<data.lowerBound]
            let fd = String(head.reversed().prefix { $0.isNumber }.reversed())
            let line = String(entry[data.upperBound...])
            if line.hasPrefix("SET SELF CLIENT_NAME") { speaker[fd] = client.map { line.contains(":\($0):") } ?? true }
            guard speaker[fd] ?? (client == nil) else { continue }
            if texts[fd] == nil || texts[fd]! == nil, line.hasPrefix("SET SELF PRIORITY ") {
                priority[fd] = String(line.dropFirst("SET SELF PRIORITY ".count))
            } else if line == "SPEAK" {
                texts[fd] = .some([])
            } else if line == ".", let current = texts[fd] ?? nil {
                result.append((current.joined(separator: "\n"), priority[fd] ?? "text"))
                texts[fd] = .some(nil)
            } else if var current = texts[fd] ?? nil {
                current.append(line.hasPrefix("..") ? String(line.dropFirst()) : line)
                texts[fd] = .some(current)
            }
        }
        return result
    }

    /// For each SPEAK, the time from the daemon receiving it to its sending `225` (the message
    /// queued), from the protocol log's timestamps, in seconds: ``speakToQueued(in:)`` of
    /// ``protocolLog``.
    public var speakToQueued: [Double] { Self.speakToQueued(in: protocolLog) }

    /// For each SPEAK in a protocol log, the time from the daemon receiving it to its sending
    /// `225`, in seconds. The log stamps only the time of day (`[Thu Nov 26 06:18:21 2026 :
    /// 552340]`), so a span that crosses midnight is counted through it (a SPEAK at 23:59:59.9 and
    /// its `225` at 00:00:00.1 are 0.2 s apart, not -86399.8 s).
    ///
    /// - Parameter log: The protocol log's text.
    /// - Returns: The spans, in the order of the SPEAKs.
    public static func speakToQueued(in log: String) -> [Double] {
        var result: [Double] = []
        var speakTime: Double?
        for entry in ("\n" + log).components(separatedBy: "\n[").dropFirst() {
            guard let close = entry.firstIndex(of: "]") else { continue }
            let stamp = entry[..<close].split(separator: " ")
            // "Thu Nov 26 06:18:21 2026 : 552340": the clock, and microseconds.
            guard stamp.count >= 7, let micro = Double(stamp[6]) else { continue }
            let clock = stamp[3].split(separator: ":").compactMap { Double($0) }
            guard clock.count == 3 else { continue }
            let time = clock[0] * 3600 + clock[1] * 60 + clock[2] + micro / 1e6
            if entry.contains(":DATA:|SPEAK\r\n") || entry.contains(":DATA:|SPEAK\n") {
                speakTime = time
            } else if entry.contains(":REPLY:|225-"), let started = speakTime {
                result.append(Self.span(from: started, to: time))
                speakTime = nil
            }
        }
        return result
    }

    /// The audio captured so far, from `offset` bytes on, measured by `sox -n stat`: its length in
    /// seconds and its RMS amplitude (0...1), or `nil` when there is none.
    public func audio(from offset: Int = 0) throws -> (seconds: Double, rms: Double)? {
        guard let data = FileManager.default.contents(atPath: audioPath), data.count > offset + 2 else { return nil }
        let chunk = directory + "/chunk.raw"
        try data.subdata(in: offset..<data.count).write(to: URL(fileURLWithPath: chunk))
        let output = try Self.run([
            "/usr/bin/sox", "-t", "raw", "-r", "22050", "-e", "signed", "-b", "16", "-c", "1", "-L", chunk, "-n",
            "stat",
        ])
        func value(_ name: String) -> Double? {
            for line in output.split(separator: "\n") where line.hasPrefix(name) {
                return Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
            }
            return nil
        }
        guard let seconds = value("Length (seconds)"), let rms = value("RMS     amplitude") else {
            throw Failure(description: "sox said: \(output)")
        }
        return (seconds, rms)
    }

    /// The size of the captured audio now.
    public var audioSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: audioPath))?[.size] as? Int) ?? 0
    }

    /// Runs a program to its end and returns what it wrote to standard output and error.
    public static func run(_ arguments: [String]) throws -> String {
        let output = "/tmp/speechd-test-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(output) }
        let pid = try spawn(arguments, environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"], output: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// The daemon's own process, its output and errors into `output` (``spawnProcess(_:environment:output:errorsToOutput:)``).
    private static func spawn(_ arguments: [String], environment: [String], output: String) throws -> pid_t {
        do {
            return try spawnProcess(arguments, environment: environment, output: output, errorsToOutput: true)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The time between two of the log's stamps (seconds of the day). Past midnight the seconds
    /// start again (a day is added when the span is more than half a day negative); a stamp can
    /// also read a second early, because the daemon takes its seconds from `time()`, which lags
    /// `gettimeofday` (a second is added then).
    public static func span(from start: Double, to end: Double) -> Double {
        var span = end - start
        if span < -43_200 { span += 86_400 }
        if span < 0 && span > -1.5 { span += 1 }
        return max(span, 0)
    }
}
