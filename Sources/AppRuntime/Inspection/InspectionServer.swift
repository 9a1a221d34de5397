internal import DispatchTrace
internal import EventLoop
internal import Inspection
internal import LinuxSystem
internal import ResponderChain

/// An app's inspection socket: where `keytrace --attach` watches the app's dispatch.
///
/// One listening Unix socket on the app's event loop, non-blocking like everything on it. A peer
/// of another user (not root) is closed before anything is read or sent. A peer sends one request
/// line (``InspectionRequest``) within the configured time; at most ``maximumPending`` wait for
/// theirs. A watcher gets the hello, the `session` event, a snapshot of the tree, then every trace
/// event and a snapshot after each frame that changed the tree, through a buffer of its own of
/// fixed size: what does not fit is dropped and counted, and reported with a fresh snapshot once
/// the watcher has read what it had. Each event is serialized once, whoever watches; with nobody
/// watching, no trace session exists and the dispatcher builds no record.
@MainActor
final class InspectionServer {
    /// How many peers may wait to be served at once; more are refused.
    static let maximumPending = 8
    /// How long accepting pauses when the process is out of descriptors.
    static let acceptBackoff = 1.0

    /// Listening sockets' paths in this process, so that two apps in one process (tests) take two.
    private static var pathsInUse: Set<String> = []

    /// What the server reports about the app, read when a peer asks.
    struct AppState {
        var input: String
        var note: String?
        var layout: String
    }

    let name: String
    let path: String
    private let window: Window
    private let root: any FocusEnvironment
    private let focusSystem: FocusSystem
    private let dispatcher: Dispatcher
    private let loop: EventLoop
    private let options: Application.InspectionOptions
    private let appState: () -> AppState
    private let timeOrigin: Double
    private let userID = ProcessCalls.userID

    private var listener: Int32 = -1
    private var listenerToken: EventLoop.Watch?
    private var deadlineToken: EventLoop.Deadline?
    private var acceptPausedUntil: Double?
    private var pending: [Peer] = []
    private var watchers: [Watcher] = []
    /// The trace of the app's dispatcher while somebody watches.
    private var session: TraceSession?
    /// Device names reported so far, for a session that starts later.
    private var deviceNames: [DeviceID: String] = [:]
    /// One serialization of each line, copied into every watcher's buffer.
    private var scratch = ByteWriter(capacity: 4096)

    /// What a snapshot was taken of: the tree's layout and command generations, and the modal.
    private struct SnapshotKey: Equatable {
        var layout: UInt64
        var commands: UInt64
        var modal: ObjectIdentifier?
    }

    /// A connection that has not sent its request yet.
    private struct Peer {
        let fd: Int32
        let token: EventLoop.Watch
        let deadline: Double
        var reader = InspectionRequestReader()
    }

    /// A connection that watches: its buffer, and what it lost.
    private final class Watcher {
        let fd: Int32
        let token: EventLoop.Watch
        let capacity: Int
        var buffer: [UInt8]
        var sent = 0
        var watchesWritability = false
        var droppedSinceReport = 0
        var droppedTotal = 0
        /// Its peer went away during dispatch; closed at the frame.
        var failed = false
        /// What the last snapshot it was given was taken of. Its own: a watcher served later, with
        /// the tree as it is then, must not make the others' older snapshot look current.
        var snapshotKey: SnapshotKey?

        init(fd: Int32, token: EventLoop.Watch, capacity: Int) {
            self.fd = fd
            self.token = token
            self.capacity = capacity
            buffer = []
            buffer.reserveCapacity(capacity)
        }

        var queued: Int { buffer.count - sent }

        /// Queues whole lines, or counts them dropped when they do not fit. Into an empty buffer
        /// anything goes (a tree larger than the buffer still arrives whole): the buffer holds at
        /// most its capacity or one snapshot.
        func enqueue(_ line: UnsafeRawBufferPointer) -> Bool {
            guard droppedSinceReport == 0, queued == 0 || queued + line.count <= capacity else {
                droppedSinceReport += 1
                droppedTotal += 1
                return false
            }
            if buffer.count + line.count > capacity {
                buffer.removeSubrange(0..<sent)
                sent = 0
            }
            buffer.append(contentsOf: line)
            return true
        }
    }

    /// Why the socket could not be made.
    struct SetupError: Error {
        var message: String
    }

    /// Creates the directory (or checks it), clears stale sockets, and listens.
    init(
        name: String, window: Window, root: any FocusEnvironment, focusSystem: FocusSystem, dispatcher: Dispatcher,
        loop: EventLoop, options: Application.InspectionOptions, appState: @escaping () -> AppState
    ) throws(SetupError) {
        self.name = name
        self.window = window
        self.root = root
        self.focusSystem = focusSystem
        self.dispatcher = dispatcher
        self.loop = loop
        self.options = options
        self.appState = appState
        timeOrigin = EventLoop.monotonicNow
        let directory =
            options.directory
            ?? InspectionEndpoint.directory(
                runtimeDirectory: Syscalls.environment("XDG_RUNTIME_DIR"), userID: ProcessCalls.userID)
        try Self.prepare(directory: directory, userID: userID)
        let pid = ProcessCalls.processID
        var chosen = directory + "/" + InspectionEndpoint.fileName(name: name, pid: pid)
        var suffix = 2
        Self.removeStaleSockets(in: directory)
        // Another app may have this name and pid (one in another pid namespace sharing the
        // directory, or in this process): take the next name rather than its socket.
        while Self.pathsInUse.contains(chosen) || Self.isTaken(chosen) {
            chosen = directory + "/" + InspectionEndpoint.fileName(name: "\(name)-\(suffix)", pid: pid)
            suffix += 1
        }
        path = chosen
        guard path.utf8.count <= InspectionEndpoint.maximumPathLength else {
            throw SetupError(
                message: "the socket's path \(path) is longer than the \(InspectionEndpoint.maximumPathLength) bytes "
                    + "a socket may have: set XDG_RUNTIME_DIR to a shorter directory, or choose a shorter name")
        }
        switch UnixSocket.listen(path: path, backlog: 16) {
        case .success(let fd): listener = fd
        case .failure(let error):
            throw SetupError(message: "cannot listen on \(path): \(error)")
        }
        do {
            listenerToken = try loop.watch(listener) { [unowned self] _ in self.acceptAll() }
        } catch {
            Syscalls.close(listener)
            listener = -1
            ProcessCalls.unlink(path)
            throw SetupError(message: "the socket \(path): \(error.message)")
        }
        Self.pathsInUse.insert(path)
        deadlineToken = loop.addDeadline(
            { [unowned self] in self.nextDeadline() }, fire: { [unowned self] now in self.expire(now) })
    }

    /// Checks the socket's directory (made when missing): a directory, not a symbolic link, the
    /// user's own, closed to everybody else.
    static func prepare(directory: String, userID: UInt32) throws(SetupError) {
        var status = ProcessCalls.status(directory)
        if case .failure(let error) = status, error == .noSuchFileOrDirectory {
            if let error = ProcessCalls.makeDirectory(directory), error != .fileExists {
                throw SetupError(message: "cannot create \(directory): \(error)")
            }
            status = ProcessCalls.status(directory)
        }
        switch status {
        case .failure(let error):
            throw SetupError(message: "cannot check \(directory): \(error)")
        case .success(let info):
            if info.isSymbolicLink {
                throw SetupError(
                    message: "\(directory) is a symbolic link, and the socket is never made through one: "
                        + "remove it (rm \(directory)) and start the app again")
            }
            guard info.isDirectory else {
                throw SetupError(
                    message: "\(directory) is not a directory: remove it (rm \(directory)) and start the app again")
            }
            guard info.owner == userID else {
                throw SetupError(
                    message: "\(directory) belongs to user \(info.owner), not to this app's user \(userID): "
                        + "remove it (as root: rm -r \(directory)), or set XDG_RUNTIME_DIR to a directory of your own")
            }
            guard info.mode & 0o077 == 0 else {
                throw SetupError(
                    message: "\(directory) is open to other users (mode \(String(info.mode, radix: 8))): "
                        + "make it private (chmod 700 \(directory)) and start the app again")
            }
        }
    }

    /// Sockets left by apps that were killed. A socket is stale when nobody listens on it (a
    /// connect is refused), not when its pid looks gone: apps in other pid namespaces (containers
    /// sharing the runtime directory) have pids this process cannot see.
    private static func removeStaleSockets(in directory: String) {
        for file in ProcessCalls.listDirectory(directory) ?? [] where InspectionEndpoint.parse(fileName: file) != nil {
            _ = isTaken(directory + "/" + file)
        }
    }

    /// Whether something other than a stale socket is at `path`: a socket somebody listens on,
    /// or a file that is not a socket (left alone). A stale socket is removed.
    private static func isTaken(_ path: String) -> Bool {
        guard case .success(let status) = ProcessCalls.status(path) else { return false }
        guard status.isSocket else { return true }
        switch UnixSocket.connect(path: path, timeout: 0.05) {
        case .success(let fd):
            Syscalls.close(fd)
            return true
        case .failure(let error) where error == .connectionRefused:
            ProcessCalls.unlink(path)
            return false
        case .failure(let error):
            return error != .noSuchFileOrDirectory
        }
    }

    /// How many watch.
    var watcherCount: Int { watchers.count }

    // MARK: Connections

    private func acceptAll() {
        if let until = acceptPausedUntil, EventLoop.monotonicNow < until { return }
        acceptPausedUntil = nil
        // At most 64 per turn: a flood of connections must not keep the loop from the keys; the
        // listener stays readable and the next turn takes the rest.
        for _ in 0..<64 where listener >= 0 {
            switch UnixSocket.accept(listener) {
            case .success(let fd):
                admit(fd)
            case .failure(let error):
                // Out of descriptors: the listener stays readable; pause rather than spin.
                if error != .resourceTemporarilyUnavailable {
                    acceptPausedUntil = EventLoop.monotonicNow + Self.acceptBackoff
                    if let listenerToken { loop.unwatch(listenerToken) }
                    listenerToken = nil
                }
                return
            }
        }
    }

    private func admit(_ fd: Int32) {
        // Another user learns nothing: closed before a byte is read or sent.
        guard let credentials = UnixSocket.peerCredentials(fd), credentials.uid == userID || credentials.uid == 0
        else {
            Syscalls.close(fd)
            return
        }
        guard pending.count < Self.maximumPending else {
            refuse(fd, "\(Self.maximumPending) connections are already waiting to send their request; try again")
            return
        }
        guard let token = try? loop.watch(fd, onReady: { [unowned self] readiness in self.pendingReady(fd, readiness) })
        else {
            Syscalls.close(fd)
            return
        }
        pending.append(Peer(fd: fd, token: token, deadline: EventLoop.monotonicNow + options.requestTimeout))
    }

    private func pendingReady(_ fd: Int32, _ readiness: EventLoop.Readiness) {
        guard let index = pending.firstIndex(where: { $0.fd == fd }) else { return }
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let received = withUnsafeMutableBytes(of: &bytes) { raw in
            UnixSocket.receive(fd, into: raw).map { count in count.map { Array(raw.prefix($0)) } }
        }
        switch received {
        case .success(nil):
            if readiness.hangUp { dropPending(at: index) }
        case .success(let data?) where data.isEmpty:
            dropPending(at: index)
        case .success(let data?):
            switch pending[index].reader.consume(data) {
            case .needsMore: break
            case .failure(let error):
                let peer = pending.remove(at: index)
                loop.unwatch(peer.token)
                refuse(peer.fd, error.message)
            case .request(let request):
                let peer = pending.remove(at: index)
                loop.unwatch(peer.token)
                serve(peer.fd, request)
            }
        case .failure:
            dropPending(at: index)
        }
    }

    private func dropPending(at index: Int) {
        let peer = pending.remove(at: index)
        loop.unwatch(peer.token)
        Syscalls.close(peer.fd)
    }

    /// Sends one line (best effort: a fresh socket takes it whole) and closes.
    private func refuse(_ fd: Int32, _ reason: String) {
        sendAndClose(fd, .refused(t: now, reason: reason))
    }

    private func sendAndClose(_ fd: Int32, _ message: InspectionMessage) {
        scratch.removeAll()
        message.writeJSON(to: &scratch)
        scratch.withBytes { _ = UnixSocket.send(fd, $0) }
        Syscalls.close(fd)
    }

    private func serve(_ fd: Int32, _ request: InspectionRequest) {
        switch request {
        case .hello:
            sendAndClose(fd, .hello(hello(watchers: watchers.count)))
        case .watch:
            guard watchers.count < options.maximumWatchers else {
                refuse(
                    fd,
                    "\(name) already has \(watchers.count) watchers, the most it takes; "
                        + "stop one (keytrace --list-apps shows how many)")
                return
            }
            guard let token = try? loop.watch(fd, onReady: { [unowned self] in self.watcherReady(fd, $0) }) else {
                Syscalls.close(fd)
                return
            }
            let watcher = Watcher(fd: fd, token: token, capacity: options.bufferSize)
            watchers.append(watcher)
            if session == nil { startSession() }
            let state = appState()
            // Into the empty buffer as one piece: the watcher starts with the whole tree.
            scratch.removeAll()
            InspectionMessage.hello(hello(watchers: watchers.count)).writeJSON(to: &scratch)
            TraceEvent(t: now, .session(input: state.input, scene: name, layout: state.layout, note: state.note))
                .writeJSON(to: &scratch)
            InspectionMessage.snapshot(makeSnapshot()).writeJSON(to: &scratch)
            watcher.snapshotKey = currentSnapshotKey()
            _ = scratch.withBytes { watcher.enqueue($0) }
            flush(watcher, resynchronizes: true)
        }
    }

    private func hello(watchers: Int) -> InspectionMessage.Hello {
        let state = appState()
        return InspectionMessage.Hello(
            t: now, app: name, pid: ProcessCalls.processID, input: state.input, note: state.note, layout: state.layout,
            watchers: watchers, maximumWatchers: options.maximumWatchers, bufferSize: options.bufferSize)
    }

    private var now: Double { EventLoop.monotonicNow - timeOrigin }

    /// The tree as it is now.
    private func makeSnapshot() -> TreeSnapshot {
        TreeSnapshot(name: name, window: window, root: root, focusSystem: focusSystem, dispatcher: dispatcher, t: now)
    }

    private func currentSnapshotKey() -> SnapshotKey {
        SnapshotKey(
            layout: window.layoutGeneration, commands: window.commandGeneration,
            modal: focusSystem.modalScope.map(ObjectIdentifier.init))
    }

    private func startSession() {
        let session = TraceSession(
            name: name, window: window, dispatcher: dispatcher, focusSystem: focusSystem, explain: true
        ) { [unowned self] event in self.broadcast(.trace(event)) }
        session.timeOrigin = timeOrigin
        session.deviceNames = deviceNames
        session.join(t: now)
        self.session = session
    }

    /// Reports an app's change (a keyboard opened) to the watchers, and keeps device names.
    func report(_ change: Application.Change) {
        if case .deviceAdded(let device) = change { deviceNames[device.id] = device.name }
        session?.report(change)
    }

    /// Sends an event the app made itself (an utterance) to the watchers, stamped now.
    func emit(_ kind: TraceEvent.Kind) {
        session?.emit(TraceEvent(t: now, kind))
    }

    /// Names a device (the terminal as `.primary`) in key events from now on.
    func nameDevice(_ device: DeviceID, _ name: String) {
        deviceNames[device] = name
        session?.deviceNames[device] = name
    }

    private func watcherReady(_ fd: Int32, _ readiness: EventLoop.Readiness) {
        guard let watcher = watchers.first(where: { $0.fd == fd }) else { return }
        if readiness.readable || readiness.hangUp {
            // A watcher sends nothing after its request: bytes, the end or an error all close it.
            var byte: UInt8 = 0
            let received = withUnsafeMutableBytes(of: &byte) { UnixSocket.receive(fd, into: $0) }
            if case .success(nil) = received, !readiness.hangUp {
            } else {
                close(watcher)
                return
            }
        }
        if readiness.writable { flush(watcher, resynchronizes: true) }
    }

    private func close(_ watcher: Watcher) {
        guard let index = watchers.firstIndex(where: { $0 === watcher }) else { return }
        watchers.remove(at: index)
        loop.unwatch(watcher.token)
        Syscalls.close(watcher.fd)
        if watchers.isEmpty, let session {
            session.stop()
            self.session = nil
        }
    }

    // MARK: Lines

    private func broadcast(_ message: InspectionMessage) {
        guard !watchers.isEmpty else { return }
        scratch.removeAll()
        message.writeJSON(to: &scratch)
        for watcher in watchers where !watcher.failed {
            _ = scratch.withBytes { watcher.enqueue($0) }
            // Half full within one batch (a flood of keys): send now rather than drop. Called
            // from inside dispatch: no snapshot is taken and no watcher closed here (see flush).
            if watcher.queued > watcher.capacity / 2 { flush(watcher, resynchronizes: false) }
        }
    }

    /// Sends what the socket takes; asks for writability while something is left.
    ///
    /// With `resynchronizes` (between batches: the frame, the socket writable again), a watcher
    /// that lost lines gets `dropped` and a fresh snapshot once its buffer is empty, and one
    /// whose peer went away is closed. Without it (inside dispatch, where the tree must not be
    /// walked and `scratch` holds the line being broadcast), both wait for the frame.
    private func flush(_ watcher: Watcher, resynchronizes: Bool) {
        // Lost lines with nothing left to send: report them now.
        if resynchronizes && watcher.queued == 0 && watcher.droppedSinceReport > 0 && !watcher.failed {
            resynchronize(watcher)
        }
        while watcher.queued > 0 && !watcher.failed {
            let result = watcher.buffer.withUnsafeBytes { raw in
                UnixSocket.send(watcher.fd, UnsafeRawBufferPointer(rebasing: raw[watcher.sent...]))
            }
            switch result {
            case .failure:
                watcher.failed = true
                if resynchronizes { close(watcher) }
                return
            case .success(0):
                if !watcher.watchesWritability {
                    watcher.watchesWritability = true
                    loop.setWatchesWritability(watcher.token, true)
                }
                return
            case .success(let count):
                watcher.sent += count
            }
            if watcher.queued == 0 {
                watcher.buffer.removeAll(keepingCapacity: true)
                watcher.sent = 0
                if resynchronizes && watcher.droppedSinceReport > 0 { resynchronize(watcher) }
            }
        }
        if watcher.watchesWritability {
            watcher.watchesWritability = false
            loop.setWatchesWritability(watcher.token, false)
        }
    }

    /// Tells a watcher what it lost, and gives it the tree as it is now.
    private func resynchronize(_ watcher: Watcher) {
        let drop = InspectionMessage.Drop(t: now, count: watcher.droppedSinceReport, total: watcher.droppedTotal)
        watcher.droppedSinceReport = 0
        // Called with the buffer empty: the two go in as one piece, through a writer of their own.
        var lines = ByteWriter(capacity: 4096)
        InspectionMessage.dropped(drop).writeJSON(to: &lines)
        makeSnapshot().writeJSON(to: &lines)
        watcher.snapshotKey = currentSnapshotKey()
        _ = lines.withBytes { watcher.enqueue($0) }
    }

    /// After each frame: a snapshot to each watcher whose last one the tree changed since (one
    /// serialization for all of them), then everything queued goes out.
    func frameEnded() {
        guard !watchers.isEmpty else { return }
        let key = currentSnapshotKey()
        let behind = watchers.filter { !$0.failed && $0.snapshotKey != key }
        if !behind.isEmpty {
            scratch.removeAll()
            InspectionMessage.snapshot(makeSnapshot()).writeJSON(to: &scratch)
            for watcher in behind {
                // Dropped when it does not fit: the fresh snapshot after the drop report replaces it.
                _ = scratch.withBytes { watcher.enqueue($0) }
                watcher.snapshotKey = key
            }
        }
        for watcher in watchers where watcher.failed {
            close(watcher)
        }
        for watcher in watchers where watcher.queued > 0 || watcher.droppedSinceReport > 0 {
            flush(watcher, resynchronizes: true)
        }
    }

    // MARK: Deadlines

    private func nextDeadline() -> Double? {
        let request = pending.first?.deadline
        guard let paused = acceptPausedUntil else { return request }
        return min(request ?? paused, paused)
    }

    private func expire(_ now: Double) {
        while let first = pending.first, first.deadline <= now {
            let peer = pending.removeFirst()
            loop.unwatch(peer.token)
            refuse(peer.fd, "no request within \(options.requestTimeout) s")
        }
        if let paused = acceptPausedUntil, paused <= now, listenerToken == nil, listener >= 0 {
            // Refused again (the user's epoll watches used up): try later, as when out of descriptors.
            listenerToken = try? loop.watch(listener) { [unowned self] _ in self.acceptAll() }
            acceptPausedUntil = listenerToken == nil ? now + Self.acceptBackoff : nil
        }
    }

    /// Closes every connection and the socket, and removes its file.
    func stop() {
        for peer in pending {
            loop.unwatch(peer.token)
            Syscalls.close(peer.fd)
        }
        pending = []
        for watcher in watchers {
            loop.unwatch(watcher.token)
            Syscalls.close(watcher.fd)
        }
        watchers = []
        session?.stop()
        session = nil
        if let listenerToken { loop.unwatch(listenerToken) }
        listenerToken = nil
        if let deadlineToken { loop.removeDeadline(deadlineToken) }
        deadlineToken = nil
        if listener >= 0 {
            Syscalls.close(listener)
            listener = -1
            ProcessCalls.unlink(path)
            Self.pathsInUse.remove(path)
        }
    }
}
