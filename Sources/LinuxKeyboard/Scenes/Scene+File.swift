internal import LinuxSystem
public import ResponderChain

extension Scene {
    /// Loads a scene file: its bytes, read with the same bounds as recordings, then decoded as
    /// UTF-8 JSON by `Scene(json:file:)`.
    ///
    /// A scene may be at most `Scene.maximumSize` bytes (4 MiB): a larger regular
    /// file is refused by its size before it is read. A FIFO, a pipe (such as the shell's
    /// `<(cat scene.json)`) or a device is read with the same bound and is never waited on forever:
    /// opening does not block, and when it sends nothing for 10 seconds (a FIFO without a writer)
    /// reading stops with an error that says so. Invalid UTF-8 is an error at its line and column,
    /// never replaced.
    ///
    /// ```swift
    /// let scene = try Scene.load(contentsOfFile: "Scenes/reminders-sidebar-group.json")
    /// let (dispatcher, focus) = scene.makeDispatcher()
    /// ```
    ///
    /// - Parameter path: The scene file.
    /// - Returns: The scene.
    /// - Throws: `InputError` (operation `read scene`, the path, the errno when there is one) when
    ///   the file cannot be read: missing, a directory, an empty path, too large, no data for 10 s;
    ///   `SceneError` with the line, column and field when it is not a valid scene,
    ///   including an empty file. Uses `open`, `poll` and `read`.
    public static func load(contentsOfFile path: String) throws -> Scene {
        let bytes: [UInt8]
        switch readFileBytes(path, limit: maximumSize) {
        case .success(let read): bytes = read
        case .failure(let failure):
            throw InputError(
                errno: failure.errno, operation: "read scene", path: path.isEmpty ? "\"\"" : path,
                message: failure.describe(what: "scene", limit: maximumSize))
        }
        guard !bytes.isEmpty else {
            throw SceneError(
                file: path, line: 1, column: 1, field: "", message: "the file is empty; a scene is a JSON object")
        }
        return try Scene(json: bytes, file: path)
    }
}
