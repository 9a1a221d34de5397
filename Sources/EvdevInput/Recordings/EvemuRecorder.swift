public import LinuxSystem

/// Writes what a device sends as an evemu recording, so that a bug seen on a kiosk can be
/// recorded there and replayed in a unit test (``EvemuRecording/init(parsing:file:)`` and
/// ``EvemuRecording/replay(into:device:speed:sleep:)``), or with `evemu-play` on a uinput device.
///
/// Times are written relative to the first event, as `evemu-record` does. After a
/// `SYN_DROPPED`, the recorder writes libevdev's sync delta as the frame that follows, which is
/// how a replay resynchronises. A file recording is flushed at every `SYN_REPORT`, so a crash
/// loses at most one frame.
///
/// **Secure text entry.** With ``isSecureEntry`` set, keys typed into a secure text field are
/// left out, as every trace output redacts them: a key whose press began while it says `true`
/// is left out whole (its press, repeats and release), with the scan codes and LED changes of
/// its frames, and frames left empty are dropped, so the recording keeps neither the keys nor
/// their timing. A key pressed before keeps its release, so a replay never holds a key and every
/// press it replays is released. A comment line marks where keys were left out and how many
/// (`# 4.200000 secure text entry: keys typed into a secure text field are left out from here`),
/// for whoever reads the recording; `evemu-play` and ``EvemuRecording`` skip comments.
///
/// Isolated to the main actor, like the event loop that reads the device.
@MainActor
public final class EvemuRecorder {
    /// The header and, for an in-memory recorder, the events so far.
    public private(set) var recording: EvemuRecording
    /// The file being written, if any.
    public let path: String?
    private let writer: TextFileWriter?
    private var start: (seconds: Int, microseconds: Int)?
    /// How many events were recorded (written), not counting those left out.
    public private(set) var eventCount = 0
    /// Why the file could not be written (a full disk), once a write failed; nothing is written
    /// after it. `nil` while every write succeeded, and for an in-memory recorder.
    public var writeError: InputError? {
        guard let path, let failure = writer?.failure else { return nil }
        return InputError(
            errno: failure, operation: "record", path: path,
            message: "cannot write the recording (\(fileErrorDescription(failure))): free space or record elsewhere")
    }

    /// Whether what is typed now goes into a secure text field, such as
    /// `{ dispatcher.isSecureEntry }`; `nil` (the default) records every key.
    ///
    /// Asked at the end of each frame, before the frame is dispatched, and for a frame with
    /// several key presses also after it (one of them may have moved focus into the field): a
    /// press left out by either answer is left out with everything that belongs to it.
    public var isSecureEntry: (@MainActor () -> Bool)?
    /// How many key presses were left out because they were typed into a secure text field.
    public private(set) var keyPressesLeftOut = 0

    /// The frame being read (with ``isSecureEntry`` set): written at its `SYN_REPORT`.
    private var frame: [EvemuRecording.Event] = []
    /// A frame with several presses, dispatched but not yet written: the state after it decides too.
    private var deferred: [EvemuRecording.Event]?
    /// Keys whose press was left out and that are still down: their repeats and release are too.
    private var leftOutKeys: Set<UInt16> = []
    /// Whether keys are being left out now (a marker was written and no end marker yet).
    private var inSecureEntry = false
    private var pressesInThisStretch = 0
    /// Whether the last event written was a `SYN_DROPPED`: the next frame is the sync delta and is
    /// written even when nothing is left in it.
    private var afterDrop = false

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
    /// - Throws: `InputError` naming the file when it cannot be created.
    public init(path: String, header: EvemuRecording) throws(InputError) {
        var headerOnly = header
        headerOnly.events = []
        switch TextFileWriter.create(path) {
        case .success(let writer):
            self.writer = writer
        case .failure(let error):
            throw InputError(
                errno: error, operation: "record", path: path,
                message:
                    "cannot create the recording file (errno \(error.rawValue)): check the directory exists and is writable"
            )
        }
        recording = headerOnly
        self.path = path
        writer?.write(headerOnly.text)
        writer?.flush()
    }

    isolated deinit {
        finish()
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
        lastSeen = event
        guard let isSecureEntry else {
            write(event)
            if type == Self.eventSync && code == Self.syncReport { writer?.flush() }
            return
        }
        if let waiting = deferred {
            // The frame was dispatched since: what it did to the focus counts too.
            deferred = nil
            write(frame: waiting, secret: isSecureEntry())
        }
        frame.append(event)
        guard type == Self.eventSync && (code == Self.syncReport || code == Self.syncDropped) else { return }
        let events = frame
        frame.removeAll(keepingCapacity: true)
        let secret = isSecureEntry()
        let presses = events.count(where: { $0.type == Self.eventKey && $0.value == 1 })
        if !secret && presses > 1 && code == Self.syncReport {
            deferred = events
            return
        }
        write(frame: events, secret: secret)
    }

    /// Writes a frame dispatched since it was read, and hands the file to the kernel.
    public func flush() {
        if let waiting = deferred {
            deferred = nil
            write(frame: waiting, secret: isSecureEntry?() ?? false)
        }
        writer?.flush()
    }

    /// Writes what is held back (a frame not yet complete, the end of a stretch of secure text
    /// entry) and flushes the file; called when the recorder goes away.
    public func finish() {
        if let waiting = deferred {
            deferred = nil
            write(frame: waiting, secret: isSecureEntry?() ?? true)
        }
        if !frame.isEmpty {
            let events = frame
            frame.removeAll()
            write(frame: events, secret: isSecureEntry?() ?? true)
        }
        if inSecureEntry, let last = lastSeen {
            comment(
                at: last,
                "the recording ends in secure text entry: \(pressesInThisStretch) key press(es) left out")
            inSecureEntry = false
            pressesInThisStretch = 0
        }
        writer?.flush()
    }

    // MARK: Leaving out secure text entry

    private static let eventSync: UInt16 = 0
    private static let eventKey: UInt16 = 1
    private static let syncReport: UInt16 = 0
    private static let syncDropped: UInt16 = 3
    /// The last event read, for the time of the closing comment.
    private var lastSeen: EvemuRecording.Event?

    /// Writes a frame (its events up to and including its `SYN_REPORT` or `SYN_DROPPED`), leaving
    /// out presses that began in secure text entry and what belongs to them.
    private func write(frame events: [EvemuRecording.Event], secret: Bool) {
        guard let first = events.first else { return }
        var keep = [Bool](repeating: true, count: events.count)
        var leftOutHere = 0
        for (index, event) in events.enumerated() where event.type == Self.eventKey {
            switch event.value {
            case 1:
                guard secret || leftOutKeys.contains(event.code) else { continue }
                if leftOutKeys.insert(event.code).inserted {
                    keyPressesLeftOut += 1
                    pressesInThisStretch += 1
                }
            case 0:
                guard leftOutKeys.remove(event.code) != nil else { continue }
            default:
                guard leftOutKeys.contains(event.code) else { continue }
            }
            keep[index] = false
            leftOutHere += 1
        }
        let hides = secret || leftOutHere > 0
        if inSecureEntry && !hides && leftOutKeys.isEmpty {
            comment(at: first, "secure text entry ended: \(pressesInThisStretch) key press(es) left out")
            inSecureEntry = false
            pressesInThisStretch = 0
        }
        if leftOutHere > 0 && !inSecureEntry {
            comment(at: first, "secure text entry: keys typed into a secure text field are left out from here")
            inSecureEntry = true
        }
        var written = 0
        for (index, event) in events.enumerated() {
            let isSync =
                event.type == Self.eventSync && (event.code == Self.syncReport || event.code == Self.syncDropped)
            if isSync {
                // A frame left empty is dropped (its time would tell when a secret key was typed),
                // except a drop and the sync delta after it, which a replay needs.
                guard written > 0 || event.code == Self.syncDropped || afterDrop else { continue }
            } else if !keep[index] || (hides && event.type != Self.eventKey) {
                // Scan codes (EV_MSC) and LED changes in such a frame would name the keys.
                continue
            }
            write(event)
            if !isSync { written += 1 }
            if isSync { afterDrop = event.code == Self.syncDropped }
        }
        if inSecureEntry && !secret && leftOutKeys.isEmpty && leftOutHere > 0, let last = events.last {
            // The last key pressed in the field was released in this frame.
            comment(at: last, "secure text entry ended: \(pressesInThisStretch) key press(es) left out")
            inSecureEntry = false
            pressesInThisStretch = 0
        }
        if events.last?.type == Self.eventSync { writer?.flush() }
    }

    private func write(_ event: EvemuRecording.Event) {
        eventCount += 1
        if let writer {
            writer.write(EvemuRecording.line(for: event) + "\n")
        } else {
            recording.events.append(event)
        }
    }

    private func comment(at event: EvemuRecording.Event, _ text: String) {
        let micro = String(event.microseconds)
        let time = "\(event.seconds)." + String(repeating: "0", count: max(0, 6 - micro.count)) + micro
        writer?.write("# \(time) \(text)\n")
    }
}
