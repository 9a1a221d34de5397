import Glibc
import LinuxSystem
import Testing

/// The one errno type: named codes, the C library's words, equality, and the thread's errno.
@Suite struct ErrnoTests {
    /// Every named code and the C constant it stands for.
    static let namedCodes: [(Errno, Int32)] = [
        (Errno.notPermitted, EPERM),
        (Errno.noSuchFileOrDirectory, ENOENT),
        (Errno.interrupted, EINTR),
        (Errno.ioError, EIO),
        (Errno.noSuchAddressOrDevice, ENXIO),
        (Errno.badFileDescriptor, EBADF),
        (Errno.permissionDenied, EACCES),
        (Errno.resourceBusy, EBUSY),
        (Errno.fileExists, EEXIST),
        (Errno.noSuchDevice, ENODEV),
        (Errno.isDirectory, EISDIR),
        (Errno.invalidArgument, EINVAL),
        (Errno.fileTooLarge, EFBIG),
        (Errno.noSpace, ENOSPC),
        (Errno.readOnlyFileSystem, EROFS),
        (Errno.brokenPipe, EPIPE),
        (Errno.resourceTemporarilyUnavailable, EAGAIN),
        (Errno.connectionReset, ECONNRESET),
        (Errno.timedOut, ETIMEDOUT),
        (Errno.connectionRefused, ECONNREFUSED),
        (Errno.tooManySymbolicLinkLevels, ELOOP),
        (Errno.fileNameTooLong, ENAMETOOLONG),
        (Errno.diskQuotaExceeded, EDQUOT),
        (Errno.protocolError, EPROTO),
    ]

    @Test("each named code is its C constant", arguments: namedCodes)
    func namedCode(code: Errno, constant: Int32) {
        #expect(code.rawValue == constant)
        #expect(code == Errno(rawValue: constant))
    }

    @Test("the named codes are all different")
    func distinct() {
        #expect(Set(Self.namedCodes.map(\.0)).count == Self.namedCodes.count)
    }

    @Test("the description is strerror's text")
    func description() {
        #expect(Errno.permissionDenied.description == "Permission denied")
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
        #expect("\(Errno.resourceBusy)" == "Device or resource busy")
        #expect(Errno(rawValue: 0).description == "Success")
        #expect(Errno(rawValue: 4242).description == String(cString: strerror(4242)))
    }

    @Test("codes compare and hash by their value, and match in a switch")
    func equality() {
        #expect(Errno(rawValue: EACCES) == .permissionDenied)
        #expect(Errno.permissionDenied != .notPermitted)
        #expect(Set([Errno(rawValue: EBUSY), .resourceBusy, .interrupted]).count == 2)
        let matched: String =
            switch Errno(rawValue: ENODEV) {
            case .permissionDenied: "permission"
            case .noSuchDevice: "gone"
            default: "other"
            }
        #expect(matched == "gone")
    }

    @Test("current reads the calling thread's errno after a failed call")
    func current() {
        #expect(open("/nonexistent/errno-test", O_RDONLY) == -1)
        #expect(Errno.current == .noSuchFileOrDirectory)
        #expect(close(-1) == -1)
        #expect(Errno.current == .badFileDescriptor)
    }
}
