import Foundation
import Testing

/// keytrace reading the terminal it runs in, with this test as the terminal: a pseudo-terminal
/// whose other end answers keytrace's queries as a kitty-protocol terminal, or a plain one, would.
final class PseudoTerminal {
    let master: Int32
    let pid: pid_t
    private(set) var received: [UInt8] = []

    init(arguments: [String]) throws {
        // posix_openpt and friends, by hand: Swift's Glibc module leaves them out.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw POSIXError(.ENODEV)
        }
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        let argv = ([KeytraceBinary.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        guard posix_spawn(&child, KeytraceBinary.path, &actions, nil, argv, environ) == 0 else {
            throw POSIXError(.ENOEXEC)
        }
        pid = child
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }

    /// Reads for up to `seconds`, until `text` has arrived; answers the queries as it goes.
    @discardableResult
    func read(until text: String, seconds: Double = 10, answer: (String) -> String? = { _ in nil }) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var answered = 0
        while Date() < deadline {
            var pollFD = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(master, &chunk, chunk.count)
            if count <= 0 { break }  // keytrace closed the terminal
            received += chunk[0..<count]
            let textSoFar = self.text
            if answered == 0, let reply = answer(textSoFar) {
                answered += 1
                write(reply)
            }
            if textSoFar.contains(text) { return true }
        }
        return text.isEmpty || self.text.contains(text)
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    func exitStatus() -> Int32? {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xff }
            usleep(20_000)
        }
        return nil
    }
}

@MainActor @Suite(.serialized) struct TerminalInputTests {
    @Test("a kitty-protocol terminal: keytrace turns it on, reports real press, repeat and release, and turns it off")
    func kittyProtocol() throws {
        let terminal = try PseudoTerminal(arguments: ["--terminal", "--plain"])
        // The flags reply before the device attributes says: the kitty protocol is here.
        #expect(
            terminal.read(until: "kitty keyboard protocol: real presses") { sent in
                sent.contains("\u{1b}[?u\u{1b}[c") ? "\u{1b}[?0u\u{1b}[?62;22c" : nil
            })
        #expect(
            terminal.text.contains("\u{1b}[>27u"), "flags 1+2+8+16 pushed: event types, every key as a code, its text")
        terminal.write("\u{1b}[97u")  // a pressed
        #expect(terminal.read(until: "down KeyA"))
        #expect(!terminal.text.contains("up KeyA"), "no release until the terminal sends one")
        terminal.write("\u{1b}[97;1:2u")  // a repeats
        #expect(terminal.read(until: "repeat KeyA"))
        terminal.write("\u{1b}[97;1:3u")  // a released
        #expect(terminal.read(until: "up KeyA"))
        terminal.write("\u{1b}[57442;5u\u{1b}[99;5u")  // left Control pressed, then Ctrl-C
        #expect(terminal.exitStatus() == 0)
        terminal.read(until: "", seconds: 0.2)
        #expect(terminal.text.contains("\u{1b}[<u"), "the protocol is popped on exit")
    }

    @Test("a terminal without the kitty protocol: said once at start; each key is a press and at once a release")
    func legacyTerminal() throws {
        let terminal = try PseudoTerminal(arguments: ["--terminal", "--plain"])
        #expect(
            terminal.read(until: "each key is a press followed at once by a release") { sent in
                sent.contains("\u{1b}[c") ? "\u{1b}[?62;22c" : nil
            })
        #expect(!terminal.text.contains("\u{1b}[>11u"))
        terminal.write("a")
        #expect(terminal.read(until: "up KeyA"))
        #expect(terminal.text.contains("down KeyA"))
        terminal.write("\u{03}")  // Ctrl-C
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.text.components(separatedBy: "each key is a press").count == 2, "said once")
    }

    @Test("a bracketed paste whose end never comes is delivered after a second, without waiting for a key")
    func pasteWithoutEnd() throws {
        let terminal = try PseudoTerminal(arguments: ["--terminal", "--plain"])
        #expect(
            terminal.read(until: "each key is a press followed at once by a release") { sent in
                sent.contains("\u{1b}[c") ? "\u{1b}[?62;22c" : nil
            })
        let start = Date()
        terminal.write("\u{1b}[200~pasted words")  // and nothing more: its end was lost
        #expect(terminal.read(until: "12 characters", seconds: 5), "the paste (12 characters) arrives on its own")
        #expect(Date().timeIntervalSince(start) < 4)
        terminal.write("\u{03}")  // a key again, not text: Ctrl-C quits
        #expect(terminal.exitStatus() == 0)
    }
}
