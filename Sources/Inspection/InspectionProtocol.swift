internal import ResponderChain

/// The inspection protocol's constants: what an app's inspection socket and `keytrace --attach`
/// agree on.
///
/// A watcher connects to the app's Unix socket (``InspectionEndpoint``), sends one
/// ``InspectionRequest`` line, and reads JSON lines (``InspectionMessage``): a `hello`, the
/// `session` trace event, a `snapshot` of the window's focus tree, then every trace event as
/// keytrace's `--json` writes it, a new `snapshot` when the tree changes, and `dropped` when it
/// read too slowly to get them all.
public enum InspectionProtocol {
    /// The protocol's version, in `hello` and in requests. A reader refuses another.
    public static let version = 1
    /// The package's version, reported in `hello`.
    public static let packageVersion = "0.8.0"
    /// The environment variable that turns the inspection socket on or off without a rebuild:
    /// `0`, `off`, `no` or `false` turn it off, `1`, `on`, `yes` or `true` turn it on, whatever
    /// the app's configuration says.
    public static let environmentVariable = "RESPONDERCHAIN_INSPECT"
    /// The longest line a reader accepts, in bytes: a snapshot carries a whole scene (at most
    /// `Scene.maximumSize`) and its focus state.
    public static let maximumLineLength = (4 << 20) + (64 << 10)
    /// The longest request line an app reads, in bytes, newline included.
    public static let maximumRequestLength = 256

    /// What ``environmentVariable`` says: `true` (on), `false` (off), or `nil` when it is unset,
    /// empty or not one of the words it takes.
    ///
    /// - Parameter value: The variable's value.
    /// - Returns: Whether it turns the socket on.
    public static func environmentSetting(_ value: String?) -> Bool? {
        switch value?.lowercased() {
        case "1", "on", "yes", "true": return true
        case "0", "off", "no", "false": return false
        default: return nil
        }
    }
}

/// What a watcher asks for: its one line to the app.
public enum InspectionRequest: String, Hashable, Sendable, CaseIterable {
    /// The `hello` (app, pid, input, watchers), then the app closes: `keytrace --list-apps`.
    case hello
    /// The `hello`, the tree and every event until either side goes: `keytrace --attach`.
    case watch

    /// The request as a line: `{"request":"watch","protocol":1}` and a newline.
    public var line: [UInt8] {
        Array("{\"request\":\"\(rawValue)\",\"protocol\":\(InspectionProtocol.version)}\n".utf8)
    }

    /// Reads a request line (without its newline).
    ///
    /// - Parameter line: The bytes, at most ``InspectionProtocol/maximumRequestLength``.
    /// - Throws: ``InspectionError`` saying what is wrong: too long, not JSON, not an object, an
    ///   unknown request or protocol version.
    public init(line: [UInt8]) throws(InspectionError) {
        guard line.count < InspectionProtocol.maximumRequestLength else {
            throw InspectionError(
                "a request is at most \(InspectionProtocol.maximumRequestLength) bytes; this one is \(line.count)")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes: line) } catch {
            throw InspectionError("the request is not JSON: column \(error.column): \(error.message)")
        }
        guard case .object(let members) = value.kind else {
            throw InspectionError("a request is one JSON object, such as {\"request\":\"watch\",\"protocol\":1}")
        }
        guard case .string(let name)? = members.first(where: { $0.key == "request" })?.value.kind,
            let request = InspectionRequest(rawValue: name)
        else {
            throw InspectionError("\"request\" must be \"watch\" or \"hello\"")
        }
        guard case .number(_, let text)? = members.first(where: { $0.key == "protocol" })?.value.kind,
            Int(text) == InspectionProtocol.version
        else {
            throw InspectionError(
                "this app speaks inspection protocol \(InspectionProtocol.version); use a keytrace of the same release")
        }
        self = request
    }
}

/// A malformed inspection line or request: the message says what is wrong.
public struct InspectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What is wrong.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Where an app's inspection socket lives, and how its file is named: `NAME.PID.sock` in
/// `$XDG_RUNTIME_DIR/responderchain`, or in `/tmp/responderchain-UID` (mode 0700, the user's own)
/// when `XDG_RUNTIME_DIR` is unset. Pure naming: the app's runtime creates and checks the
/// directory, keytrace lists it.
public enum InspectionEndpoint {
    /// The longest name kept in a socket's file name; longer names are cut.
    public static let maximumNameLength = 48
    /// The longest socket path the kernel takes (`sun_path` less its terminating zero).
    public static let maximumPathLength = 107

    /// The directory for a user's sockets.
    ///
    /// - Parameters:
    ///   - runtimeDirectory: `$XDG_RUNTIME_DIR`, or `nil` when unset.
    ///   - userID: The user's id.
    /// - Returns: The directory's path.
    public static func directory(runtimeDirectory: String?, userID: UInt32) -> String {
        if let runtimeDirectory, runtimeDirectory.hasPrefix("/") {
            return (runtimeDirectory.hasSuffix("/") ? runtimeDirectory : runtimeDirectory + "/") + "responderchain"
        }
        return "/tmp/responderchain-\(userID)"
    }

    /// A name as it goes into a file name: letters, digits, `-`, `_` and `.` kept, anything else
    /// `_`, at most ``maximumNameLength`` characters, never empty or starting with a dot.
    ///
    /// - Parameter name: The app's name.
    /// - Returns: The name for the file.
    public static func fileSafeName(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars.prefix(maximumNameLength) {
            let allowed =
                scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_.".unicodeScalars.contains(scalar))
            result.unicodeScalars.append(allowed ? scalar : "_")
        }
        if result.isEmpty || result.hasPrefix(".") { result = "app" + result }
        return result
    }

    /// The socket's file name: `NAME.PID.sock`.
    ///
    /// - Parameters:
    ///   - name: The app's name (made safe with ``fileSafeName(_:)``).
    ///   - pid: The process id.
    /// - Returns: The file name.
    public static func fileName(name: String, pid: Int32) -> String {
        "\(fileSafeName(name)).\(pid).sock"
    }

    /// Reads a socket's file name back.
    ///
    /// - Parameter fileName: A file name in the directory.
    /// - Returns: The name and the pid, or `nil` for a file that is not one of ours.
    public static func parse(fileName: String) -> (name: String, pid: Int32)? {
        guard fileName.hasSuffix(".sock") else { return nil }
        let stem = fileName.dropLast(5)
        guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0 else {
            return nil
        }
        let name = String(stem[..<dot])
        return name.isEmpty ? nil : (name, pid)
    }
}
