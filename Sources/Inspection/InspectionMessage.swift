public import DispatchTrace
internal import ResponderChain

/// One line an app's inspection socket sends: keytrace's trace events, and the three lines that
/// only the socket sends (`hello`, `snapshot`, `dropped`) and `refused`.
///
/// Every line is one JSON object with `t` (seconds on the app's trace clock) and `event` first,
/// as trace events are (`TraceEvent.writeJSON(to:)` in DispatchTrace); ``writeJSON(to:)`` writes one and
/// ``init(jsonLine:)`` reads one back.
public enum InspectionMessage: Hashable, Sendable {
    /// Who the app is: the first line on every connection.
    case hello(Hello)
    /// The window's focus tree and focus state.
    case snapshot(TreeSnapshot)
    /// A trace event, exactly as keytrace's `--json` writes it.
    case trace(TraceEvent)
    /// Lines the watcher lost because it did not read them in time.
    case dropped(Drop)
    /// The app will not serve this connection, and why (too many watchers, a bad request); it
    /// closes it next.
    case refused(t: Double, reason: String)

    /// Who the app is and what it reads.
    public struct Hello: Hashable, Sendable {
        /// Seconds on the app's trace clock.
        public var t: Double
        /// The inspection protocol's version (``InspectionProtocol/version``).
        public var protocolVersion: Int
        /// The app's name.
        public var app: String
        /// Its process id.
        public var pid: Int32
        /// The package version it was built with.
        public var packageVersion: String
        /// The input it reads (`keyboards`, `terminal`), or `none` before it chose.
        public var input: String
        /// Why that input, and what it can do.
        public var note: String?
        /// The keyboard layout and where it came from.
        public var layout: String
        /// How many watchers are attached, this one included when it watches.
        public var watchers: Int
        /// How many may be.
        public var maximumWatchers: Int
        /// Each watcher's buffer, in bytes: lines that do not fit are dropped.
        public var bufferSize: Int

        /// Creates a hello.
        public init(
            t: Double, app: String, pid: Int32, input: String, note: String?, layout: String, watchers: Int,
            maximumWatchers: Int, bufferSize: Int, protocolVersion: Int = InspectionProtocol.version,
            packageVersion: String = InspectionProtocol.packageVersion
        ) {
            self.t = t
            self.protocolVersion = protocolVersion
            self.app = app
            self.pid = pid
            self.packageVersion = packageVersion
            self.input = input
            self.note = note
            self.layout = layout
            self.watchers = watchers
            self.maximumWatchers = maximumWatchers
            self.bufferSize = bufferSize
        }
    }

    /// What a watcher lost.
    public struct Drop: Hashable, Sendable {
        /// Seconds on the app's trace clock.
        public var t: Double
        /// Lines lost since the last `dropped`.
        public var count: Int
        /// Lines lost since the watcher attached.
        public var total: Int

        /// Creates a report.
        public init(t: Double, count: Int, total: Int) {
            self.t = t
            self.count = count
            self.total = total
        }
    }

    /// The `event` field's value.
    public var name: String {
        switch self {
        case .hello: return "hello"
        case .snapshot: return "snapshot"
        case .trace(let event): return event.name
        case .dropped: return "dropped"
        case .refused: return "refused"
        }
    }

    /// The line's time.
    public var t: Double {
        switch self {
        case .hello(let hello): return hello.t
        case .snapshot(let snapshot): return snapshot.t
        case .trace(let event): return event.t
        case .dropped(let drop): return drop.t
        case .refused(let t, _): return t
        }
    }

    /// Appends the message as one JSON line and a newline.
    ///
    /// - Parameter out: The buffer.
    public func writeJSON(to out: inout ByteWriter) {
        switch self {
        case .trace(let event):
            event.writeJSON(to: &out)
        case .hello(let hello):
            Self.head(&out, hello.t, "hello")
            out.append(",\"protocol\":")
            out.append(decimal: hello.protocolVersion)
            Self.field(&out, ",\"app\":", hello.app)
            out.append(",\"pid\":")
            out.append(decimal: Int(hello.pid))
            Self.field(&out, ",\"packageVersion\":", hello.packageVersion)
            Self.field(&out, ",\"input\":", hello.input)
            Self.field(&out, ",\"note\":", hello.note)
            Self.field(&out, ",\"layout\":", hello.layout)
            out.append(",\"watchers\":")
            out.append(decimal: hello.watchers)
            out.append(",\"maximumWatchers\":")
            out.append(decimal: hello.maximumWatchers)
            out.append(",\"bufferSize\":")
            out.append(decimal: hello.bufferSize)
            out.append("}\n")
        case .snapshot(let snapshot):
            snapshot.writeJSON(to: &out)
        case .dropped(let drop):
            Self.head(&out, drop.t, "dropped")
            out.append(",\"count\":")
            out.append(decimal: drop.count)
            out.append(",\"total\":")
            out.append(decimal: drop.total)
            out.append("}\n")
        case .refused(let t, let reason):
            Self.head(&out, t, "refused")
            Self.field(&out, ",\"reason\":", reason)
            out.append("}\n")
        }
    }

    /// The message as one JSON line, without the newline.
    public var json: String {
        var writer = ByteWriter(capacity: 256)
        writeJSON(to: &writer)
        return writer.withBytes { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    static func head(_ out: inout ByteWriter, _ t: Double, _ event: StaticString) {
        out.append("{\"t\":")
        out.append(seconds: t)
        out.append(",\"event\":\"")
        out.append(event)
        out.append(UInt8(ascii: "\""))
    }

    static func field(_ out: inout ByteWriter, _ name: StaticString, _ value: String?) {
        out.append(name)
        if let value { out.appendJSONString(value) } else { out.append("null") }
    }
}

// MARK: Reading

extension InspectionMessage {
    /// Reads one line as ``writeJSON(to:)`` writes it; a trace event's line is read by
    /// `TraceEvent.init(jsonLine:)`.
    ///
    /// - Parameter line: The line's bytes (a trailing newline is allowed), at most
    ///   ``InspectionProtocol/maximumLineLength``.
    /// - Throws: ``InspectionError`` naming the field and what it should hold, or the trace
    ///   decoder's message.
    public init(jsonLine line: [UInt8]) throws(InspectionError) {
        guard line.count <= InspectionProtocol.maximumLineLength else {
            throw InspectionError(
                "a line of \(line.count) bytes; an inspection line has at most \(InspectionProtocol.maximumLineLength)")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes: line) } catch {
            throw InspectionError("column \(error.column): \(error.message) (an inspection line is one JSON object)")
        }
        guard case .object(let members) = value.kind else {
            throw InspectionError("the line is \(value.typeName); an inspection line is one JSON object")
        }
        let fields = MessageFields(members: members)
        let event = try fields.string("event")
        switch event {
        case "hello":
            let version = try fields.integer("protocol")
            guard version == InspectionProtocol.version else {
                throw InspectionError(
                    "the app speaks inspection protocol \(version) and this reader \(InspectionProtocol.version); "
                        + "use a keytrace of the app's release")
            }
            self = .hello(
                Hello(
                    t: try fields.time(), app: try fields.string("app"),
                    pid: Int32(clamping: try fields.integer("pid")), input: try fields.string("input"),
                    note: try fields.optionalString("note"), layout: try fields.string("layout"),
                    watchers: try fields.integer("watchers"), maximumWatchers: try fields.integer("maximumWatchers"),
                    bufferSize: try fields.integer("bufferSize"), protocolVersion: version,
                    packageVersion: try fields.string("packageVersion")))
        case "snapshot":
            self = .snapshot(try TreeSnapshot(fields: fields))
        case "dropped":
            self = .dropped(
                Drop(t: try fields.time(), count: try fields.integer("count"), total: try fields.integer("total")))
        case "refused":
            self = .refused(t: try fields.time(), reason: try fields.string("reason"))
        default:
            do { self = .trace(try TraceEvent(jsonLine: line)) } catch { throw InspectionError(error.message) }
        }
    }
}

/// A line's fields, read with messages that name them.
struct MessageFields {
    var members: [(key: String, value: JSONValue)]

    func value(_ name: String) -> JSONValue? {
        members.first { $0.key == name }?.value
    }

    func string(_ name: String) throws(InspectionError) -> String {
        guard let value = value(name) else { throw InspectionError("field \"\(name)\" is missing; it holds a string") }
        guard case .string(let text) = value.kind else {
            throw InspectionError("field \"\(name)\" is \(value.typeName); it holds a string")
        }
        return text
    }

    func optionalString(_ name: String) throws(InspectionError) -> String? {
        guard let value = value(name) else { return nil }
        if case .null = value.kind { return nil }
        return try string(name)
    }

    func integer(_ name: String) throws(InspectionError) -> Int {
        guard let value = value(name) else { throw InspectionError("field \"\(name)\" is missing; it holds a number") }
        guard case .number(_, let text) = value.kind, let number = Int(text), number >= 0 else {
            throw InspectionError("field \"\(name)\" is \(value.typeName); it holds a whole number from 0")
        }
        return number
    }

    func strings(_ name: String) throws(InspectionError) -> [String] {
        guard let value = value(name) else { return [] }
        guard case .array(let elements) = value.kind else {
            throw InspectionError("field \"\(name)\" is \(value.typeName); it holds an array of strings")
        }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let text) = element.kind else {
                throw InspectionError("field \"\(name)\" holds \(element.typeName); it holds an array of strings")
            }
            result.append(text)
        }
        return result
    }

    func time() throws(InspectionError) -> Double {
        guard let value = value("t") else { throw InspectionError("field \"t\" is missing; it holds seconds") }
        guard case .number(let t, _) = value.kind, t.magnitude <= TraceEvent.maximumTime else {
            throw InspectionError("field \"t\" is \(value.typeName); it holds seconds, at most 2^33")
        }
        // Kept to the microsecond, as it is written (as TraceEvent(jsonLine:) keeps it): a
        // message read and written again reads back the same.
        return (t * 1_000_000).rounded() / 1_000_000
    }
}
