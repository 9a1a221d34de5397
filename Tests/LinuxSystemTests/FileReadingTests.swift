import Foundation
import Glibc
import Testing

@testable import LinuxSystem

/// Whole-file reading (`readFileBytes`) for recordings and scenes: bounded in size, never blocked
/// forever, and errors that name the problem and the fix. That a recording and a scene put the file's
/// name in front is in EvdevInputTests' RecordingFileTests and LinuxKeyboardTests' SceneFileTests.
@MainActor @Suite struct FileReadingTests {
    /// A recording's text, as a writer sends it.
    static let recording = """
        # EVEMU 1.3
        N: a keyboard
        E: 0.010000 0001 001e 0001
        E: 0.010000 0000 0000 0000
        """
    /// The bounds recordings (`EvemuRecording.maximumSize`) and scenes (`Scene.maximumSize`) read with.
    static let recordingLimit = 64 << 20
    static let sceneLimit = 4 << 20

    /// A fresh path in the temporary directory; the caller removes it.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("file-reading-\(UUID())\(suffix)").path
    }

    /// A new FIFO; the caller removes it.
    static func makeFIFO() -> String {
        let path = temporaryPath(".fifo")
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    /// A new sparse regular file of `size` bytes (made with `ftruncate`, so nothing is written);
    /// the caller removes it.
    static func makeSparseFile(size: Int) -> String {
        let path = temporaryPath(".sparse")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, off_t(size)) == 0)
        close(fd)
        return path
    }

    /// Why a read failed; `nil` when it did not.
    static func failure(_ result: Result<[UInt8], FileReadFailure>) -> FileReadFailure? {
        guard case .failure(let failure) = result else { return nil }
        return failure
    }

    @Test("/dev/zero, which never ends, is refused at the bound instead of filling memory")
    func endlessDevice() throws {
        let failure = try #require(Self.failure(readFileBytes("/dev/zero", limit: Self.recordingLimit)))
        #expect(failure == .endless(kind: "a character device"))
        #expect(
            failure.describe(what: "recording", limit: Self.recordingLimit)
                == "the recording is a character device that sent more than 67108864 bytes (64 MiB, the limit): "
                + "is this the right file? A device such as /dev/zero never ends")
    }

    @Test("a regular file over the bound is refused by its size, before it is read (a sparse file)")
    func sparseFileOverTheBound() throws {
        let recording = Self.makeSparseFile(size: 64 << 20 + 1)
        defer { unlink(recording) }
        let recordingFailure = try #require(Self.failure(readFileBytes(recording, limit: Self.recordingLimit)))
        #expect(recordingFailure == .tooLarge(size: 64 << 20 + 1))
        #expect(
            recordingFailure.describe(what: "recording", limit: Self.recordingLimit)
                == "the recording is 67108865 bytes, over the limit of 67108864 bytes (64 MiB): "
                + "is this the right file?")
        let scene = Self.makeSparseFile(size: Self.sceneLimit + 1)
        defer { unlink(scene) }
        let sceneFailure = try #require(Self.failure(readFileBytes(scene, limit: Self.sceneLimit)))
        #expect(
            sceneFailure.describe(what: "scene", limit: Self.sceneLimit)
                == "the scene is 4194305 bytes, over the limit of 4194304 bytes (4 MiB): is this the right file?")
    }

    @Test("a FIFO with no writer is not waited on forever: the error says what to check")
    func fifoWithoutWriter() throws {
        let path = Self.makeFIFO()
        defer { unlink(path) }
        let start = Date()
        let result = readFileBytes(path, limit: 1 << 20, timeout: 0.3)
        guard case .failure(let failure) = result else {
            Issue.record("read \(result) from a FIFO without a writer")
            return
        }
        #expect(
            failure.describe(what: "recording", limit: 1 << 20)
                == "no data from the FIFO after 0.3 s: is a writer connected?")
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("a FIFO whose writer connects later and writes a recording is read whole")
    func fifoWithWriter() throws {
        let path = Self.makeFIFO()
        defer { unlink(path) }
        let text = Self.recording
        let writer = Thread {
            usleep(100_000)
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        writer.start()
        #expect(readFileBytes(path, limit: Self.recordingLimit) == .success(Array(text.utf8)))
    }

    @Test("a pipe named by /dev/fd (what the shell's <(cat file) gives) is read with the same reader")
    func processSubstitution() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(Self.recording.utf8))
        try pipe.fileHandleForWriting.close()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        #expect(readFileBytes(path, limit: Self.recordingLimit) == .success(Array(Self.recording.utf8)))
    }

    @Test("a pipe that sends more than the bound is refused, naming the limit")
    func pipeOverTheBound() throws {
        let pipe = Pipe()
        let fd = pipe.fileHandleForWriting.fileDescriptor
        let writer = Thread {
            // 17 chunks of 64 KiB: one chunk more than the 1 MiB limit.
            let chunk = [UInt8](repeating: 0x41, count: 1 << 16)
            for _ in 0..<17 where chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
        }
        writer.start()
        let result = readFileBytes("/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", limit: 1 << 20, timeout: 5)
        // Drains what the reader left, so that the writer ends without a broken pipe.
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        guard case .failure(let failure) = result else {
            Issue.record("read \(result)")
            return
        }
        #expect(
            failure.describe(what: "recording", limit: 1 << 20)
                == "the recording is a FIFO that sent more than 1048576 bytes (1 MiB, the limit): is this the right file?"
        )
    }

    @Test("an empty path is named as such, with the fix")
    func emptyPath() throws {
        let failure = try #require(Self.failure(readFileBytes("", limit: Self.recordingLimit)))
        #expect(failure == .emptyPath)
        #expect(
            failure.describe(what: "recording", limit: Self.recordingLimit)
                == "an empty path; give the recording's file name")
        #expect(failure.describe(what: "scene", limit: Self.sceneLimit) == "an empty path; give the scene's file name")
    }
}
