/// Writes what a device sends as an evemu recording, so that a bug seen on a kiosk can be
/// recorded there and replayed in a unit test (``EvemuRecording/init(parsing:file:)`` and
/// ``EvemuRecording/replay(into:device:speed:sleep:)``), or with `evemu-play` on a uinput device.
///
/// Times are written relative to the first event, as `evemu-record` does. After a
/// `SYN_DROPPED`, the recorder writes libevdev's sync delta as the frame that follows, which is
/// how a replay resynchronises. A file recording is flushed at every `SYN_REPORT`, so a crash
/// loses at most one frame. Not `Sendable`: it belongs to the reading thread.
public final class EvemuRecorder {
    /// The header and, for an in-memory recorder, the events so far.
    public private(set) var recording: EvemuRecording
    /// The file being written, if any.
    public let path: String?
    private let writer: TextFileWriter?
    private var start: (seconds: Int, microseconds: Int)?
    /// How many events were recorded.
    public private(set) var eventCount = 0

    /// Records in memory; read the result from ``recording``.
    ///
    /// - Parameter header: The device description (name, ids, event bits), such as
    ///   ``InputDevice/evemuHeader``.
    public init(header: EvemuRecording) {
        recording = header
        recording.events = []
        path = nil
        writer = nil
    }

    /// Records to a file, writing the header now and each event as it comes.
    ///
    /// - Parameters:
    ///   - path: The file to create (an existing one is replaced).
    ///   - header: The device description, such as ``InputDevice/evemuHeader``.
    /// - Throws: ``InputError`` naming the file when it cannot be created.
    public init(path: String, header: EvemuRecording) throws(InputError) {
        var headerOnly = header
        headerOnly.events = []
        switch TextFileWriter.create(path) {
        case .success(let writer):
            self.writer = writer
        case .failure(let error):
            throw InputError(
                errno: error.code, operation: "record", path: path,
                message:
                    "cannot create the recording file (errno \(error.code)): check the directory exists and is writable"
            )
        }
        recording = headerOnly
        self.path = path
        writer?.write(headerOnly.text)
        writer?.flush()
    }

    /// Records one event.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - code: The code.
    ///   - value: The value.
    ///   - seconds: The kernel timestamp's seconds.
    ///   - microseconds: Its microseconds.
    public func record(type: UInt16, code: UInt16, value: Int32, seconds: Int, microseconds: Int) {
        let origin = start ?? (seconds, microseconds)
        start = origin
        var relativeMicro = (seconds - origin.seconds) * 1_000_000 + microseconds - origin.microseconds
        if relativeMicro < 0 { relativeMicro = 0 }
        let event = EvemuRecording.Event(
            seconds: relativeMicro / 1_000_000, microseconds: relativeMicro % 1_000_000, type: type, code: code,
            value: value)
        eventCount += 1
        if let writer {
            writer.write(EvemuRecording.line(for: event) + "\n")
            if type == 0 && code == 0 { writer.flush() }
        } else {
            recording.events.append(event)
        }
    }

    /// Flushes the file.
    public func flush() {
        writer?.flush()
    }
}
