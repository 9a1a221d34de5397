// Unix-domain sockets and the private directories they live in: the inspection socket an app
// serves and keytrace attaches to. Only libc here; the protocol is in the Inspection module.
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.

/// Unix-domain stream sockets: listen, accept, connect, the peer's credentials, and
/// non-blocking sends that never raise `SIGPIPE`.
package enum UnixSocket {
    /// The kernel's limit on a socket path (`sun_path`, less its terminating zero).
    package static let maximumPathLength = 107

    /// Who is at the other end of a connected socket (`SO_PEERCRED`).
    package struct Credentials: Hashable, Sendable {
        /// The peer's process id when it connected.
        package var pid: Int32
        /// Its user id.
        package var uid: UInt32
        /// Its group id.
        package var gid: UInt32
    }

    /// Creates a socket bound at `path` and listening; non-blocking and close-on-exec. The
    /// socket file gets mode 0600 (set right after the bind; the directory it is made in is
    /// private, so nobody else can reach it in between, and the process-wide umask is left
    /// alone for other threads).
    ///
    /// - Parameters:
    ///   - path: Where to bind; at most ``maximumPathLength`` bytes; must not exist.
    ///   - backlog: How many connections may wait to be accepted.
    /// - Returns: The descriptor, or the errno of the call that failed.
    package static func listen(path: String, backlog: Int32) -> Result<Int32, Errno> {
        guard var address = makeAddress(path) else { return .failure(.fileNameTooLong) }
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.current) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let code = Errno.current
            Glibc.close(fd)
            return .failure(code)
        }
        guard chmod(path, 0o600) == 0 else {
            let code = Errno.current
            Glibc.close(fd)
            Glibc.unlink(path)
            return .failure(code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = Errno.current
            Glibc.close(fd)
            return .failure(code)
        }
        return .success(fd)
    }

    /// Accepts a waiting connection: non-blocking and close-on-exec.
    ///
    /// - Parameter fd: The listening socket.
    /// - Returns: The connection, or the errno (`EAGAIN` when none is waiting).
    package static func accept(_ fd: Int32) -> Result<Int32, Errno> {
        while true {
            // Glibc's module leaves out accept4 (it needs _GNU_SOURCE): the flags are set after.
            let connection = Glibc.accept(fd, nil, nil)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
                return .success(connection)
            }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    /// Connects to the socket at `path`, waiting at most `timeout` seconds: a Unix socket whose
    /// queue of waiting connections is full would otherwise block a connect without end. The
    /// descriptor is close-on-exec and blocking once connected.
    ///
    /// - Parameters:
    ///   - path: The socket's path.
    ///   - timeout: The longest wait for room in the listener's queue.
    /// - Returns: The connection, or the error number (``Errno/connectionRefused`` for a socket nobody
    ///   listens on, ``Errno/noSuchFileOrDirectory`` when there is none, ``Errno/permissionDenied`` for one
    ///   the user may not open, ``Errno/resourceTemporarilyUnavailable`` when the listener's queue of
    ///   waiting connections stayed full until the deadline).
    package static func connect(path: String, timeout: Double = 1) -> Result<Int32, Errno> {
        guard var address = makeAddress(path) else { return .failure(.fileNameTooLong) }
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.current) }
        let deadline = Syscalls.monotonicNow() + max(0, timeout.isFinite ? timeout : 0)
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                return .success(fd)
            }
            let code = errno
            if code == EINTR { continue }
            // A full queue: a Unix socket says EAGAIN at once rather than EINPROGRESS; try again.
            if code == EAGAIN, Syscalls.monotonicNow() < deadline {
                usleep(10_000)
                continue
            }
            Glibc.close(fd)
            return .failure(Errno(rawValue: code))
        }
    }

    /// The credentials of a connected peer (`SO_PEERCRED`), or `nil` when the kernel does not say.
    package static func peerCredentials(_ fd: Int32) -> Credentials? {
        // struct ucred (pid_t, uid_t, gid_t), which Glibc's module leaves out without _GNU_SOURCE.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        return Credentials(pid: credentials.0, uid: credentials.1, gid: credentials.2)
    }

    /// Sends what the socket takes now, without blocking and without `SIGPIPE` (`MSG_DONTWAIT |
    /// MSG_NOSIGNAL`); `EINTR` is retried.
    ///
    /// - Returns: How many bytes went (0 when the socket is full: `EAGAIN`), or the errno
    ///   (`EPIPE`, `ECONNRESET`: the peer went away).
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        guard bytes.count > 0 else { return .success(0) }
        while true {
            let sent = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            if sent >= 0 { return .success(sent) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .success(0) }
            return .failure(.current)
        }
    }

    /// Receives what is there, without blocking when `wait` is `false`.
    ///
    /// - Returns: How many bytes came, `0` at the end (the peer closed), `nil` when nothing is
    ///   there yet (`EAGAIN`), or the errno.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, wait: Bool = false) -> Result<
        Int?, Errno
    > {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, wait ? 0 : Int32(MSG_DONTWAIT))
            if count >= 0 { return .success(count) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .success(nil) }
            return .failure(.current)
        }
    }

    private static func makeAddress(_ path: String) -> sockaddr_un? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathLength, !bytes.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}

/// The process, its user, and files in private directories.
package enum ProcessCalls {
    /// The real user id.
    package static var userID: UInt32 { getuid() }
    /// The process id.
    package static var processID: Int32 { getpid() }

    /// Whether a process exists (`kill(pid, 0)`: it does unless the kernel says `ESRCH`).
    package static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The process's name as the kernel knows it (`/proc/self/comm`), or `nil`.
    package static func processName() -> String? {
        let fd = Glibc.open("/proc/self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let name = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").first.map(String.init)
        return name?.isEmpty == false ? name : nil
    }

    /// What a path is, without following a symbolic link at it (`lstat`).
    package struct PathStatus: Hashable, Sendable {
        /// A directory.
        package var isDirectory: Bool
        /// A symbolic link.
        package var isSymbolicLink: Bool
        /// A socket.
        package var isSocket: Bool
        /// The owner's user id.
        package var owner: UInt32
        /// The permission bits (`0o700`).
        package var mode: UInt32
    }

    /// The path's status, or the errno (`ENOENT` when there is nothing).
    package static func status(_ path: String) -> Result<PathStatus, Errno> {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(.current) }
        let type = info.st_mode & S_IFMT
        return .success(
            PathStatus(
                isDirectory: type == S_IFDIR, isSymbolicLink: type == S_IFLNK, isSocket: type == S_IFSOCK,
                owner: info.st_uid, mode: info.st_mode & 0o7777))
    }

    /// Creates a directory with mode 0700.
    ///
    /// - Returns: `nil` when it was made, else the errno (`EEXIST` when something is there).
    package static func makeDirectory(_ path: String) -> Errno? {
        mkdir(path, 0o700) == 0 ? nil : .current
    }

    /// Removes a file (not a directory); quietly does nothing when it is gone.
    package static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    /// The names in a directory, without `.` and `..`, or `nil` when it cannot be read.
    package static func listDirectory(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
