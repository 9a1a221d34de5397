/// A problem with speech-dispatcher: an address that cannot be read, a daemon that is not
/// running or went away, a reply that made no sense. The message names the address and the fix.
///
/// Codes are a struct with named constants, so that a new one breaks no `switch`.
public struct SpeechDispatcherError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code's name.
        public var rawValue: String

        /// Creates a code.
        ///
        /// - Parameter rawValue: Its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `SPEECHD_ADDRESS` (or the default's variables) could not be read.
        public static let address = Code(rawValue: "address")
        /// Nobody listens at the address: no socket file, or a stale one (`ECONNREFUSED`).
        public static let notRunning = Code(rawValue: "notRunning")
        /// The socket exists but this user may not open it (`EACCES`).
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// The daemon closed the connection (it stopped, or was restarted).
        public static let connectionLost = Code(rawValue: "connectionLost")
        /// The daemon accepted the connection but did not answer a command within
        /// ``SpeechDispatcherClient/replyTimeout`` (it was stopped, or its output module hung), or a
        /// TCP connect did not finish in that time (a host that drops the packets).
        public static let notAnswering = Code(rawValue: "notAnswering")
        /// The daemon sent something that is not SSIP, or refused a command.
        public static let protocolError = Code(rawValue: "protocolError")
        /// Another failure of the socket: the message names the call and the errno.
        public static let system = Code(rawValue: "system")
    }

    /// What kind of problem it is.
    public var code: Code
    /// What happened and what to do, naming the address.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of problem it is.
    ///   - message: What happened and what to do.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
