internal import Glibc

// The codes the package compares against, named as swift-system names them (ENODEV, which swift-system calls
// `operationNotSupportedByDevice`, is `noSuchDevice` here: for an input device it means that one was unplugged).
extension Errno {
    /// Operation not permitted.
    ///
    /// The call needs a privilege the process lacks, or the seat is disabled.
    ///
    /// The corresponding C value is `EPERM`.
    public static let notPermitted = Errno(rawValue: EPERM)

    /// No such file or directory.
    ///
    /// A component of the path does not exist.
    ///
    /// The corresponding C value is `ENOENT`.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)

    /// Interrupted system call.
    ///
    /// A signal came during the call; try again.
    ///
    /// The corresponding C value is `EINTR`.
    public static let interrupted = Errno(rawValue: EINTR)

    /// Input/output error.
    ///
    /// The device failed to read or write.
    ///
    /// The corresponding C value is `EIO`.
    public static let ioError = Errno(rawValue: EIO)

    /// No such device or address.
    ///
    /// A FIFO opened for writing without blocking has no reader, or the device is gone.
    ///
    /// The corresponding C value is `ENXIO`.
    public static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)

    /// Bad file descriptor.
    ///
    /// The descriptor is not open (or not open for the call).
    ///
    /// The corresponding C value is `EBADF`.
    public static let badFileDescriptor = Errno(rawValue: EBADF)

    /// Permission denied.
    ///
    /// The file's permissions do not let this user open it.
    ///
    /// The corresponding C value is `EACCES`.
    public static let permissionDenied = Errno(rawValue: EACCES)

    /// Device or resource busy.
    ///
    /// Another process holds it (an evdev grab).
    ///
    /// The corresponding C value is `EBUSY`.
    public static let resourceBusy = Errno(rawValue: EBUSY)

    /// File exists.
    ///
    /// Something is already at the path.
    ///
    /// The corresponding C value is `EEXIST`.
    public static let fileExists = Errno(rawValue: EEXIST)

    /// No such device.
    ///
    /// The device went away (unplugged), or the driver lacks the call.
    ///
    /// The corresponding C value is `ENODEV`.
    public static let noSuchDevice = Errno(rawValue: ENODEV)

    /// Is a directory.
    ///
    /// A file was wanted.
    ///
    /// The corresponding C value is `EISDIR`.
    public static let isDirectory = Errno(rawValue: EISDIR)

    /// Invalid argument.
    ///
    /// The call refused a value it was given.
    ///
    /// The corresponding C value is `EINVAL`.
    public static let invalidArgument = Errno(rawValue: EINVAL)

    /// File too large.
    ///
    /// The file system takes no larger file.
    ///
    /// The corresponding C value is `EFBIG`.
    public static let fileTooLarge = Errno(rawValue: EFBIG)

    /// No space left on device.
    ///
    /// The disk is full.
    ///
    /// The corresponding C value is `ENOSPC`.
    public static let noSpace = Errno(rawValue: ENOSPC)

    /// Read-only file system.
    ///
    /// The file system cannot be written.
    ///
    /// The corresponding C value is `EROFS`.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)

    /// Broken pipe.
    ///
    /// Nobody reads the pipe, FIFO or socket any more.
    ///
    /// The corresponding C value is `EPIPE`.
    public static let brokenPipe = Errno(rawValue: EPIPE)

    /// Resource temporarily unavailable.
    ///
    /// A non-blocking call would have to wait (nothing to read, no room to write); try again when the descriptor is
    /// ready. `EWOULDBLOCK` is the same code on Linux.
    ///
    /// The corresponding C value is `EAGAIN`.
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)

    /// Connection reset by peer.
    ///
    /// The other end closed with data unread.
    ///
    /// The corresponding C value is `ECONNRESET`.
    public static let connectionReset = Errno(rawValue: ECONNRESET)

    /// Connection timed out.
    ///
    /// The wait for an answer ran out of time.
    ///
    /// The corresponding C value is `ETIMEDOUT`.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)

    /// Connection refused.
    ///
    /// Nobody listens on the socket (a stale one).
    ///
    /// The corresponding C value is `ECONNREFUSED`.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)

    /// Too many levels of symbolic links.
    ///
    /// A loop of links, or a link where `O_NOFOLLOW` allows none.
    ///
    /// The corresponding C value is `ELOOP`.
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)

    /// File name too long.
    ///
    /// The path, or a socket's path, is over the kernel's limit.
    ///
    /// The corresponding C value is `ENAMETOOLONG`.
    public static let fileNameTooLong = Errno(rawValue: ENAMETOOLONG)

    /// Disk quota exceeded.
    ///
    /// The user's quota on that disk is used up.
    ///
    /// The corresponding C value is `EDQUOT`.
    public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)

    /// Protocol error.
    ///
    /// The other end broke the protocol (a Wayland compositor's fatal error).
    ///
    /// The corresponding C value is `EPROTO`.
    public static let protocolError = Errno(rawValue: EPROTO)
}
