import Foundation
import Testing

@testable import LinuxSystem

/// The package's one write path (`Syscalls.writeAll`), which `OutputBuffer`, the terminal's
/// output and recordings share.
@Suite struct WritePathTests {
    @Test("everything is written across partial writes, or it stops at a full non-blocking pipe with EAGAIN")
    func writeAll() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let bytes = [UInt8](repeating: 0x61, count: 1 << 20)  // more than a pipe holds (64 KiB)
        let (written, failure) = bytes.withUnsafeBytes { Syscalls.writeAll(ends[1], $0) }
        #expect(written > 0 && written < bytes.count, "the pipe took part of it")
        #expect(failure == .resourceTemporarilyUnavailable)
        let (none, closed) = bytes.withUnsafeBytes { Syscalls.writeAll(-1, $0) }
        #expect(none == 0 && closed == .badFileDescriptor)
        let (nothing, noFailure) = [UInt8]().withUnsafeBytes { Syscalls.writeAll(ends[1], $0) }
        #expect(nothing == 0 && noFailure == nil)
    }

    @Test("a file takes everything, and reads back as written")
    func writeAllToAFile() throws {
        let path = NSTemporaryDirectory() + "write-path-\(getpid()).bin"
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let (written, failure) = bytes.withUnsafeBytes { Syscalls.writeAll(descriptor, $0) }
        close(descriptor)
        #expect(written == bytes.count)
        #expect(failure == nil)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
    }
}
