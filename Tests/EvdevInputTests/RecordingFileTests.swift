import EvdevInput
import Foundation
import Testing

/// A recording read from its file (`EvemuRecording(contentsOfFile:)`), through LinuxSystem's reader
/// (LinuxSystemTests' FileReadingTests has the reader's bounds, FIFOs and pipes): its errors name the file.
@MainActor @Suite struct RecordingFileTests {
    /// A new sparse regular file of `size` bytes (made with `ftruncate`, so nothing is written);
    /// the caller removes it.
    static func makeSparseFile(size: Int) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recording-file-\(UUID()).sparse")
            .path
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

    @Test("/dev/zero, a file over the bound and an empty path: line 0, the file's name, then the reader's reason")
    func readErrors() throws {
        let error = try #require(
            Self.error(RecordingError.self) { _ = try EvemuRecording(contentsOfFile: "/dev/zero") })
        #expect(
            error.description
                == "/dev/zero: the recording is a character device that sent more than 67108864 bytes (64 MiB, the limit): "
                + "is this the right file? A device such as /dev/zero never ends")
        #expect(error.line == 0)
        let recording = Self.makeSparseFile(size: 64 << 20 + 1)
        defer { unlink(recording) }
        let recordingError = try #require(
            Self.error(RecordingError.self) { _ = try EvemuRecording(contentsOfFile: recording) })
        #expect(
            recordingError.description
                == "\(recording): the recording is 67108865 bytes, over the limit of 67108864 bytes (64 MiB): "
                + "is this the right file?")
        let empty = try #require(Self.error(RecordingError.self) { _ = try EvemuRecording(contentsOfFile: "") })
        #expect(empty.description == "\"\": an empty path; give the recording's file name")
    }
}
