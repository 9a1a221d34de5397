import Foundation
import LinuxKeyboard
import Testing

/// A scene read from its file (`Scene.load(contentsOfFile:)`), through LinuxSystem's reader
/// (LinuxSystemTests' FileReadingTests has the reader's bounds and messages): its errors name the file.
@MainActor @Suite struct SceneFileTests {
    /// A fresh path in the temporary directory; the caller removes it.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("scene-file-\(UUID())\(suffix)").path
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

    @Test("a scene over the bound, or an empty path, is refused as `read scene` of the file, with the reader's reason")
    func readErrors() throws {
        let scene = Self.makeSparseFile(size: Scene.maximumSize + 1)
        defer { unlink(scene) }
        let sceneError = try #require(Self.error(InputError.self) { _ = try Scene.load(contentsOfFile: scene) })
        #expect(sceneError.path == scene && sceneError.operation == "read scene")
        #expect(
            sceneError.message
                == "the scene is 4194305 bytes, over the limit of 4194304 bytes (4 MiB): is this the right file?")
        let empty = try #require(Self.error(InputError.self) { _ = try Scene.load(contentsOfFile: "") })
        #expect(empty.description == "read scene \"\": an empty path; give the scene's file name")
    }

    @Test("a scene file is read from its bytes: a missing file, an empty file and invalid UTF-8 are named")
    func sceneFiles() throws {
        let missing = try #require(
            Self.error(InputError.self) { _ = try Scene.load(contentsOfFile: "/nonexistent/s.json") })
        #expect(missing.description == "read scene /nonexistent/s.json: No such file or directory (check the path)")
        #expect(missing.errno == .noSuchFileOrDirectory)
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
