public import Inspection
internal import LinuxSystem
internal import ResponderChain

/// keytrace's end of an app's inspection socket: it connects, sends its one request line, and
/// reads the app's lines back as ``InspectionMessage``s, split by `InspectionLineReader` with
/// the protocol's bound. It never writes again: keytrace sends nothing into the app.
///
/// Reads never block: ``nextMessage(receiving:)`` returns what is there now, for an event loop
/// that watches ``fileDescriptor``; ``nextMessage(timeout:)`` waits, for a report or a probe.
/// Not `Sendable`: it belongs to the thread that reads it.
public final class InspectionConnection {
    /// The socket connected to.
    public let socket: AppSocket
    /// The connection (non-blocking), for an event loop to watch.
    public let fileDescriptor: Int32
    /// The app's `hello`, once it came: its name and pid then name the app in messages.
    public private(set) var hello: InspectionMessage.Hello?
    /// How many lines were read.
    public private(set) var lineCount = 0
    /// How many bytes were received.
    public private(set) var bytesReceived = 0
    /// The process at the other end, as the kernel says (`SO_PEERCRED`): the one whose state
    /// ``peerState`` reads when the app does not answer.
    public let peerProcessID: Int32
    private var lines = InspectionLineReader(maximumLength: InspectionProtocol.maximumLineLength)
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var isClosed = false
    private var reachedEnd = false

    /// Why a connection failed: the message names the app, the cause and the fix.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The message.
        public var description: String
        /// Whether nobody listens on the socket: it was left by an app that ended.
        public var isStale = false

        /// Creates a failure.
        ///
        /// - Parameter description: The message.
        public init(_ description: String) {
            self.description = description
        }
    }

    /// What the socket holds now.
    public enum Reading {
        /// A whole line, as received (without its newline), and what it says.
        case message([UInt8], InspectionMessage)
        /// Nothing whole yet: wait until the socket is readable.
        case wouldBlock
        /// The app closed the connection (it exited, or it refused this user).
        case end
    }

    /// Connects and sends the request.
    ///
    /// - Parameters:
    ///   - socket: The app's socket.
    ///   - request: What to ask for: `watch` (everything until either side goes) or `hello`.
    /// - Throws: ``Failure`` when nobody listens (``Failure/isStale``) or the socket cannot be
    ///   opened or written. Uses `connect` and `send`.
    public init(to socket: AppSocket, request: InspectionRequest) throws(Failure) {
        self.socket = socket
        switch UnixSocket.connect(path: socket.path) {
        case .success(let fd): fileDescriptor = fd
        case .failure(let error):
            throw Self.connectFailure(socket, error)
        }
        // Before a byte goes out: the process at the other end must be the folder's owner's, as
        // the kernel says. A socket file swapped for a link to another service's socket, or
        // another user's listener posing as this app, gets nothing.
        guard let peer = UnixSocket.peerCredentials(fileDescriptor), peer.uid == socket.owner else {
            let who = UnixSocket.peerCredentials(fileDescriptor).map { "user \($0.uid)" } ?? "an unknown user"
            Syscalls.close(fileDescriptor)
            throw Failure(
                "\(socket.printablePath) is served by \(who), not by user \(socket.owner) whose folder holds it; "
                    + "keytrace does not talk to it")
        }
        peerProcessID = peer.pid
        Syscalls.makeNonBlocking(fileDescriptor)
        let line = request.line
        // A connected socket takes a line this short at once; a peer gone already says so here.
        let sent = line.withUnsafeBytes { UnixSocket.send(fileDescriptor, $0) }
        guard case .success(let count) = sent, count == line.count else {
            Syscalls.close(fileDescriptor)
            throw Failure(Self.closedAtOnce(socket.description))
        }
    }

    deinit {
        close()
    }

    /// Closes the connection (idempotent); the app sees its watcher go.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Syscalls.close(fileDescriptor)
    }

    /// The app as messages name it: `kiosk-example (pid 4242)`, from its hello once it came;
    /// `kiosk-example (pid 4242, user 1000)` when it is another user's (root attached to it).
    /// Its control characters are escaped, newlines too: what the app says of itself cannot
    /// forge a line of keytrace's.
    public var appDescription: String {
        guard let hello else { return socket.description }
        return socket.describe(name: hello.app, pid: hello.pid)
    }

    /// Why an app closed the connection with nothing sent: it serves only its own user and root.
    /// (The message names nothing the app would have sent.)
    public var closedAtOnce: String { Self.closedAtOnce(appDescription) }

    private static func closedAtOnce(_ app: String) -> String {
        "\(app) closed the connection without a word: an app serves only its own user and root; "
            + "run keytrace as the app's user, or as root"
    }

    private static func connectFailure(_ socket: AppSocket, _ code: Errno) -> Failure {
        let reason = code.description
        if code == .connectionRefused || code == .noSuchFileOrDirectory {
            var failure = Failure(
                "\(socket) is not running: nobody listens on \(socket.printablePath) (\(reason)); "
                    + "it was left by a process that ended, and the next app of that name removes it")
            failure.isStale = true
            return failure
        }
        let fix =
            code == .permissionDenied
            ? " (run keytrace as the app's user, or as root)"
            : ""
        return Failure("cannot connect to \(socket) at \(socket.printablePath): \(reason)\(fix)")
    }

    /// The next line, if a whole one is held or arrives without waiting.
    ///
    /// - Parameter receiving: Whether to read the socket when no whole line is held; `false`
    ///   hands on only what was read already (a reader that keeps its terminal responsive stops
    ///   receiving after a budget, and the loop wakes it again).
    /// - Returns: The line and its message, ``Reading/wouldBlock``, or ``Reading/end``.
    /// - Throws: ``Failure`` naming the line for a line that is not an inspection line or is
    ///   longer than `InspectionProtocol.maximumLineLength`, or for a failed read.
    public func nextMessage(receiving: Bool = true) throws(Failure) -> Reading {
        while true {
            let held: [UInt8]?
            do { held = try lines.nextLine() } catch {
                throw Failure(
                    "line \(lineCount + 1) from \(appDescription) is longer than "
                        + "\(InspectionProtocol.maximumLineLength) bytes, the protocol's limit: "
                        + "is \(socket.printablePath) an app's inspection socket, of this release?")
            }
            if let held { return .message(held, try decode(held)) }
            guard !reachedEnd, !isClosed else { return .end }
            guard receiving else { return .wouldBlock }
            let received = buffer.withUnsafeMutableBytes { UnixSocket.receive(fileDescriptor, into: $0) }
            switch received {
            case .success(nil):
                return .wouldBlock
            case .success(0?):
                reachedEnd = true
            case .success(let count?):
                bytesReceived += count
                lines.append(buffer[0..<count])
            case .failure(let error) where error == .connectionReset:
                reachedEnd = true
            case .failure(let error):
                throw Failure("reading \(appDescription)'s socket failed: \(error)")
            }
        }
    }

    /// The next line, waiting for it.
    ///
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: The line and its message, or `nil` when the app closed the connection.
    /// - Throws: ``Failure`` as ``nextMessage(receiving:)`` does, or when nothing came in time.
    public func nextMessage(timeout: Double) throws(Failure) -> ([UInt8], InspectionMessage)? {
        let deadline = Syscalls.monotonicNow() + timeout
        while true {
            switch try nextMessage() {
            case .message(let line, let message): return (line, message)
            case .end: return nil
            case .wouldBlock:
                let left = deadline - Syscalls.monotonicNow()
                guard left > 0 else {
                    throw Failure(
                        "\(appDescription) sent no line for \(secondsText(timeout)) s "
                            + "(it sends its hello and tree at once when it runs); \(peerState)")
                }
                _ = Syscalls.waitReadable(fileDescriptor, milliseconds: Int32(min(left * 1000, 60_000).rounded(.up)))
            }
        }
    }

    /// What the kernel says of the process at the other end, and what to do, for a message about
    /// an app that does not answer: `its process 4242 is stopped (state T: SIGSTOP or Ctrl-Z):
    /// continue it (kill -CONT 4242)`. Read from `/proc/PID/stat`.
    public var peerState: String {
        Self.describeState(of: peerProcessID, stat: readTextFile("/proc/\(peerProcessID)/stat", limit: 4096))
    }

    /// The words for a process's state, from its `/proc/PID/stat` line (`nil`: it is gone).
    package static func describeState(of pid: Int32, stat: String?) -> String {
        // "PID (comm) S …": the name may hold spaces and parentheses, so the state follows the last ')'.
        guard let stat, let close = stat.lastIndex(of: ")") else {
            return "its process \(pid) is gone (no /proc/\(pid))"
        }
        let state = stat[stat.index(after: close)...].first { $0 != " " }
        switch state {
        case "T":
            return "its process \(pid) is stopped (state T: SIGSTOP or Ctrl-Z): continue it (kill -CONT \(pid))"
        case "t":
            return "its process \(pid) is stopped by a debugger (state t): continue it in the debugger"
        case "D":
            return "its process \(pid) waits in the kernel for a disk or a device (state D): "
                + "see what it waits for (cat /proc/\(pid)/stack as root)"
        case "R":
            return "its process \(pid) runs (state R) but does not serve its socket: it is busy or in an endless "
                + "loop; see where (gdb -p \(pid), or perf top -p \(pid))"
        case "S", "I":
            return "its process \(pid) sleeps (state \(state.map(String.init) ?? "S")) without serving its socket: "
                + "its loop hangs in a call; see where (gdb -p \(pid))"
        case "Z", "X":
            return "its process \(pid) has exited (state \(state.map(String.init) ?? "Z"))"
        default:
            return "its process \(pid) is in state \(state.map(String.init) ?? "unknown")"
        }
    }

    private func decode(_ line: [UInt8]) throws(Failure) -> InspectionMessage {
        lineCount += 1
        let message: InspectionMessage
        do { message = try InspectionMessage(jsonLine: line) } catch {
            // The reader's message may quote a value of the line: both escaped, newlines too.
            let start = String(decoding: line.prefix(120), as: UTF8.self).escapingControlCharacters()
            throw Failure(
                "line \(lineCount) from \(appDescription) is not an inspection line: "
                    + "\(error.message.escapingControlCharacters()): \(start)\(line.count > 120 ? "…" : "")")
        }
        if case .hello(let hello) = message, self.hello == nil { self.hello = hello }
        return message
    }
}
