import Foundation
import Glibc
import LinuxKeyboard
import LinuxSystem
import ResponderChain
import Testing

@testable import LinuxSystem

/// Whole-file reading for recordings and scenes: bounded in size, never blocked forever, and
/// errors that name the file, the problem and the fix.
@MainActor @Suite struct FileReadingTests {
    static let recording = EvemuRecordingTests.keyboard

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

    /// The error a throwing call throws, for its message.
    static func error<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
        do {
            try body()
            return nil
        } catch {
            return error as? E
        }
    }

    @Test("/dev/zero, which never ends, is refused at the bound instead of filling memory")
    func endlessDevice() throws {
        let error = try #require(
            Self.error(RecordingError.self) { _ = try EvemuRecording(contentsOfFile: "/dev/zero") })
        #expect(
            error.description
                == "/dev/zero: the recording is a character device that sent more than 67108864 bytes (64 MiB, the limit): "
                + "is this the right file? A device such as /dev/zero never ends")
        #expect(error.line == 0)
    }

    @Test("a regular file over the bound is refused by its size, before it is read (a sparse file)")
    func sparseFileOverTheBound() throws {
        let recording = Self.makeSparseFile(size: 64 << 20 + 1)
        defer { unlink(recording) }
        let recordingError = try #require(
            Self.error(RecordingError.self) { _ = try EvemuRecording(contentsOfFile: recording) })
        #expect(
            recordingError.description
                == "\(recording): the recording is 67108865 bytes, over the limit of 67108864 bytes (64 MiB): "
                + "is this the right file?")
        let scene = Self.makeSparseFile(size: Scene.maximumSize + 1)
        defer { unlink(scene) }
        let sceneError = try #require(Self.error(InputError.self) { _ = try Scene.load(contentsOfFile: scene) })
        #expect(sceneError.path == scene && sceneError.operation == "read scene")
        #expect(
            sceneError.message
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
        #expect(try EvemuRecording(contentsOfFile: path) == EvemuRecording(parsing: text, file: path))
    }

    @Test("a pipe named by /dev/fd (what the shell's <(cat file) gives) is read with the same reader")
    func processSubstitution() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(Self.recording.utf8))
        try pipe.fileHandleForWriting.close()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        #expect(try EvemuRecording(contentsOfFile: path) == EvemuRecording(parsing: Self.recording, file: path))
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
        let recording = try #require(Self.error(RecordingError.self) { _ = try EvemuRecording(contentsOfFile: "") })
        #expect(recording.description == "\"\": an empty path; give the recording's file name")
        let scene = try #require(Self.error(InputError.self) { _ = try Scene.load(contentsOfFile: "") })
        #expect(scene.description == "read scene \"\": an empty path; give the scene's file name")
    }

    @Test("a scene file is read from its bytes: a missing file, an empty file and invalid UTF-8 are named")
    func sceneFiles() throws {
        let missing = try #require(
            Self.error(InputError.self) { _ = try Scene.load(contentsOfFile: "/nonexistent/s.json") })
        #expect(missing.description == "read scene /nonexistent/s.json: No such file or directory (check the path)")
        #expect(missing.errno == ENOENT)
        let empty = try #require(Self.error(SceneError.self) { _ = try Scene.load(contentsOfFile: "/dev/null") })
        #expect(empty.description == "/dev/null:1:1: the file is empty; a scene is a JSON object")
        let path = Self.temporaryPath(".json")
        defer { unlink(path) }
        try Data("{\n  \"name\": \"caf\u{e9}".utf8 + [0xFF] + "\"\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        let invalid = try #require(Self.error(SceneError.self) { _ = try Scene.load(contentsOfFile: path) })
        #expect(invalid.file == path && invalid.line == 2, "\(invalid)")
        try Data(#"{"name": "Café", "root": {"id": "root", "frame": [0, 0, 10, 10]}}"#.utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(try Scene.load(contentsOfFile: path).name == "Café")
    }
}
