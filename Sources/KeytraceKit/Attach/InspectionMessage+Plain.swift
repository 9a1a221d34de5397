internal import DispatchTrace
public import Inspection
internal import ResponderChain

extension InspectionMessage {
    /// The message as `keytrace --attach --plain` prints it: a trace event as
    /// `TraceEvent.plainLine`; `attached to kiosk-example (pid 4242): input terminal, layout us`
    /// for a hello; the time, `snapshot` and the focus state for a snapshot; the time, `dropped`
    /// and how many lines were lost for a drop; `refused` and the reason. Control characters
    /// from the app (in its name, its ids) are escaped, as in every line keytrace prints.
    public var plainLine: String {
        rawPlainLine.escapingControlCharacters()
    }

    private var rawPlainLine: String {
        switch self {
        case .trace(let event):
            return event.plainLine
        case .hello(let hello):
            return "attached to \(hello.app) (pid \(hello.pid)): input \(hello.input), layout \(hello.layout)"
                + (hello.note.map { " (\($0))" } ?? "")
        case .snapshot(let snapshot):
            return Self.plainPrefix(snapshot.t, "snapshot") + snapshot.plainSummary
        case .dropped(let drop):
            return Self.plainPrefix(drop.t, "dropped")
                + "\(drop.count) event\(drop.count == 1 ? "" : "s") (\(drop.total) in all) — "
                + "keytrace read too slowly; a fresh snapshot follows"
        case .refused(let t, let reason):
            return Self.plainPrefix(t, "refused") + reason
        }
    }

    /// The time and the event's name, aligned as `TraceEvent.plainLine` aligns them.
    static func plainPrefix(_ t: Double, _ name: String) -> String {
        var writer = ByteWriter(capacity: 32)
        writer.append(seconds: t)
        let time = writer.withBytes { String(decoding: $0, as: UTF8.self) }
        return String(repeating: " ", count: max(0, 12 - time.utf8.count)) + time + "  " + name
            + String(repeating: " ", count: max(1, 15 - name.utf8.count))
    }
}

extension TreeSnapshot {
    /// The focus state in one line: `12 items, focus tile-checkin, first responder tile-checkin,
    /// group tiles, modal none`.
    public var plainSummary: String {
        "\(itemCount) item\(itemCount == 1 ? "" : "s"), focus \(focused ?? "none"), "
            + "first responder \(firstResponder ?? "none"), group \(focusedGroup ?? "none"), modal \(modal ?? "none")"
    }
}
