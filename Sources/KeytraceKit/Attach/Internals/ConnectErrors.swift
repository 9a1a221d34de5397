// The errno values keytrace's end of an inspection socket tells apart; the calls themselves go
// through LinuxSystem's UnixSocket.
internal import Glibc

/// The errno values a connection tells apart.
enum ConnectErrors {
    /// `ECONNREFUSED`: nobody listens on the socket.
    static let refused = ECONNREFUSED
    /// `ECONNRESET`: the peer closed with data unread (an app refusing another user's watcher).
    static let reset = ECONNRESET
}
