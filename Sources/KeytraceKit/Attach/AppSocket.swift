public import Inspection
internal import LinuxSystem
internal import ResponderChain

/// A running app's inspection socket, as found in a runtime directory: `NAME.PID.sock`
/// (`InspectionEndpoint.fileName(name:pid:)`).
public struct AppSocket: Hashable, Sendable, CustomStringConvertible {
    /// The app's name as its file gives it (`InspectionEndpoint.fileSafeName(_:)`).
    public var name: String
    /// The app's process id.
    public var pid: Int32
    /// The socket's path.
    public var path: String
    /// The user whose folder holds the socket: the only user (the kernel says, `SO_PEERCRED`)
    /// keytrace accepts at the other end, checked before it sends anything.
    public var owner: UInt32

    /// Describes a socket.
    ///
    /// - Parameters:
    ///   - name: The app's file-safe name.
    ///   - pid: Its process id.
    ///   - path: The socket's path.
    ///   - owner: The user whose folder holds it (keytrace's own user by default).
    public init(name: String, pid: Int32, path: String, owner: UInt32? = nil) {
        self.name = name
        self.pid = pid
        self.path = path
        self.owner = owner ?? ProcessCalls.userID
    }

    /// `kiosk-example (pid 4242)`; `kiosk-example (pid 4242, user 1000)` for another user's app
    /// (root attaching to the kiosk user's). The name is the socket file's, which anyone who can
    /// write the folder chooses: its control characters are escaped, so it cannot forge a line.
    public var description: String { describe(name: name, pid: pid) }

    /// `NAME (pid N)`, with `, user U` when the socket is another user's; the name escaped, newlines
    /// too: a name an app or a folder's writer chose cannot forge a line.
    func describe(name: String, pid: Int32) -> String {
        let user = owner == ProcessCalls.userID ? "" : ", user \(owner)"
        return "\(name.escapingControlCharacters()) (pid \(pid)\(user))"
    }

    /// The socket's path with its control characters escaped, for messages.
    var printablePath: String { path.escapingControlCharacters() }

    /// What a `hello` request to the socket found.
    public enum Probe: Hashable, Sendable {
        /// The app answered.
        case running(InspectionMessage.Hello)
        /// The app refused the connection, and why (too many watchers).
        case refused(String)
        /// Nobody listens: the socket was left by a process that ended (`ECONNREFUSED`), or it
        /// is gone.
        case stale
        /// Something else went wrong: the reason.
        case failed(String)
    }

    /// Asks the app who it is (an ``InspectionRequest/hello`` request): how `--list-apps` and
    /// `--attach` without a target see which apps run.
    ///
    /// - Parameter timeout: How long to wait for the answer, in seconds.
    /// - Returns: What was found.
    public func probe(timeout: Double = 1) -> Probe {
        let connection: InspectionConnection
        do { connection = try InspectionConnection(to: self, request: .hello) } catch {
            return error.isStale ? .stale : .failed(error.description)
        }
        defer { connection.close() }
        do {
            guard let (_, message) = try connection.nextMessage(timeout: timeout) else {
                return .failed("it closed the connection without a word (is it another user's app?)")
            }
            switch message {
            case .hello(let hello): return .running(hello)
            case .refused(_, let reason): return .refused(reason)
            default: return .failed("its first line is \(message.name), not hello")
            }
        } catch {
            return .failed(error.description)
        }
    }
}

/// Where keytrace looks for running apps: the folders that hold their inspection sockets.
public struct AppDirectories: Hashable, Sendable {
    /// The folders, searched in order.
    public var paths: [String]
    /// How they are described in messages (a pattern for the folders of every user).
    public var description: String

    /// Folders to search.
    ///
    /// - Parameters:
    ///   - paths: The folders.
    ///   - description: How messages name them; the paths joined when `nil`.
    public init(paths: [String], description: String? = nil) {
        self.paths = paths
        self.description = description ?? paths.joined(separator: ", ")
    }

    /// Where the apps of this user put their sockets (`InspectionEndpoint.directory(runtimeDirectory:userID:)`);
    /// as root, every user's folder too (`/run/user/*/responderchain`, `/tmp/responderchain-*`), so
    /// that `ssh kiosk keytrace --attach` as root finds the kiosk user's app.
    ///
    /// - Parameters:
    ///   - runtimeDirectory: The runtime directory; when given, only its folder is searched.
    ///   - environment: `XDG_RUNTIME_DIR` when no runtime directory is given.
    ///   - userID: The user keytrace runs as.
    /// - Returns: The folders.
    public static func standard(runtimeDirectory: String?, environment: String?, userID: UInt32) -> AppDirectories {
        if let runtimeDirectory {
            return AppDirectories(
                paths: [InspectionEndpoint.directory(runtimeDirectory: runtimeDirectory, userID: userID)])
        }
        let own = InspectionEndpoint.directory(runtimeDirectory: environment, userID: userID)
        // An app started without XDG_RUNTIME_DIR (a system service) uses /tmp/responderchain-UID,
        // while an SSH login of the same user has one: search both.
        let fallback = InspectionEndpoint.directory(runtimeDirectory: nil, userID: userID)
        guard userID == 0 else {
            return AppDirectories(paths: own == fallback ? [own] : [own, fallback])
        }
        var paths = [own, fallback]
        for user in ProcessCalls.listDirectory("/run/user") ?? [] {
            paths.append("/run/user/\(user)/responderchain")
        }
        for name in ProcessCalls.listDirectory("/tmp") ?? []
        where name.hasPrefix("responderchain-") && UInt32(name.dropFirst("responderchain-".count)) != nil {
            paths.append("/tmp/\(name)")
        }
        var seen: Set<String> = []
        paths = paths.filter { seen.insert($0).inserted }
        return AppDirectories(
            paths: paths, description: "\(own), /run/user/*/responderchain and /tmp/responderchain-* (as root)")
    }

    /// The directories of the process that runs keytrace.
    ///
    /// - Parameter runtimeDirectory: A runtime directory in place of `$XDG_RUNTIME_DIR`.
    /// - Returns: The folders.
    static func current(runtimeDirectory: String?) -> AppDirectories {
        standard(
            runtimeDirectory: runtimeDirectory, environment: Syscalls.environment("XDG_RUNTIME_DIR"),
            userID: ProcessCalls.userID)
    }

    /// The sockets in the folders: files named as an app names its socket, that are sockets
    /// (whether anyone listens is for ``AppSocket/probe(timeout:)`` to find out), in the folders'
    /// order, then by name. A folder that is a symbolic link, or that another user than the one
    /// its name gives owns (`/tmp/responderchain-1000` owned by someone other than user 1000),
    /// is passed over: root would otherwise read the socket of a user posing as another.
    ///
    /// - Returns: The sockets.
    public func sockets() -> [AppSocket] {
        var found: [AppSocket] = []
        for directory in paths {
            guard let owner = Self.trustedOwner(directory) else { continue }
            for file in ProcessCalls.listDirectory(directory) ?? [] {
                guard let (name, pid) = InspectionEndpoint.parse(fileName: file) else { continue }
                let path = directory + "/" + file
                guard case .success(let status) = ProcessCalls.status(path), status.isSocket else { continue }
                found.append(AppSocket(name: name, pid: pid, path: path, owner: owner))
            }
        }
        return found
    }

    /// Whether a folder is a directory (not a link to one), closed to everybody but its owner
    /// (mode 0700, as apps make it), and owned by the user its name gives, or by keytrace's own
    /// user for another name (a runtime directory given to keytrace).
    static func isTrusted(_ directory: String) -> Bool {
        trustedOwner(directory) != nil
    }

    /// The owner of a trusted folder (``isTrusted(_:)``), or `nil` for one keytrace passes over.
    static func trustedOwner(_ directory: String) -> UInt32? {
        guard case .success(let status) = ProcessCalls.status(directory), status.isDirectory,
            status.mode & 0o077 == 0
        else { return nil }
        let expected = owner(impliedBy: directory) ?? ProcessCalls.userID
        return status.owner == expected ? status.owner : nil
    }

    /// The user a folder's name says it belongs to: `/tmp/responderchain-UID`,
    /// `/run/user/UID/responderchain`; `nil` for another name.
    static func owner(impliedBy directory: String) -> UInt32? {
        if directory.hasPrefix("/tmp/responderchain-") {
            return UInt32(directory.dropFirst("/tmp/responderchain-".count))
        }
        let parts = directory.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 5, parts[0].isEmpty, parts[1] == "run", parts[2] == "user", parts[4] == "responderchain" {
            return UInt32(parts[3])
        }
        return nil
    }
}
