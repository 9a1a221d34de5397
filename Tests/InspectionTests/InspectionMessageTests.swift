import DispatchTrace
import Inspection
import ResponderChain
import Testing

@Suite struct InspectionMessageTests {
    static let messages: [InspectionMessage] = [
        .hello(
            .init(
                t: 0.25, app: "kiosk-example", pid: 4242, input: "keyboards", note: "2 keyboards \u{1B}[31m",
                layout: "de (environment)", watchers: 1, maximumWatchers: 8, bufferSize: 262_144)),
        .hello(
            .init(
                t: 0, app: "a", pid: 1, input: "none", note: nil, layout: "us", watchers: 0, maximumWatchers: 1,
                bufferSize: 1)),
        .dropped(.init(t: 12.5, count: 120, total: 300)),
        .refused(t: 1, reason: "8 watchers are attached, the most this app allows"),
        .trace(TraceEvent(t: 3, .unhandled(.redacted))),
        .trace(TraceEvent(t: 3, .session(input: "keyboards", scene: "kiosk", layout: "us", note: nil))),
    ]

    @Test("each message writes one line that reads back the same", arguments: messages)
    func roundTrip(message: InspectionMessage) throws {
        var out = ByteWriter()
        message.writeJSON(to: &out)
        let line = out.withBytes { Array($0) }
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        #expect(!line.contains(0x1B), "control characters are escaped")
        #expect(try InspectionMessage(jsonLine: line) == message)
        #expect(message.json.hasPrefix("{\"t\":"))
        #expect(message.json.contains("\"event\":\"\(message.name)\""))
    }

    @Test("a trace event's line is the line keytrace --json writes")
    func traceLinesAreTraceEvents() throws {
        let event = TraceEvent(t: 1, .focus(from: "a", to: "b", cause: .tab, fromGroup: nil, toGroup: "g"))
        #expect(InspectionMessage.trace(event).json == event.json)
    }

    @Test(
        "lines that are not inspection lines are errors that say what is wrong",
        arguments: [
            ("", "JSON"), ("[1]", "one JSON object"), ("{\"t\":0}", "\"event\" is missing"),
            ("{\"t\":0,\"event\":\"hello\",\"protocol\":2}", "protocol 2"),
            ("{\"t\":0,\"event\":\"dropped\",\"count\":-1,\"total\":0}", "\"count\""),
            ("{\"t\":0,\"event\":\"snapshot\",\"app\":\"a\",\"items\":1,\"scene\":[]}", "\"scene\""),
            ("{\"t\":0,\"event\":\"nonsense\"}", "nonsense"),
        ])
    func malformed(line: String, mentions: String) {
        #expect {
            try InspectionMessage(jsonLine: Array(line.utf8))
        } throws: { error in
            (error as? InspectionError)?.message.contains(mentions) == true
        }
    }

    @Test("a line longer than the limit is refused before it is parsed")
    func tooLong() {
        let line = [UInt8](repeating: UInt8(ascii: " "), count: InspectionProtocol.maximumLineLength + 1)
        #expect(throws: InspectionError.self) { try InspectionMessage(jsonLine: line) }
    }
}

@Suite struct InspectionRequestTests {
    @Test("each request's line reads back", arguments: InspectionRequest.allCases)
    func roundTrip(request: InspectionRequest) throws {
        var reader = InspectionRequestReader()
        #expect(reader.consume(request.line) == .request(request))
    }

    @Test("a request split across reads waits for its end")
    func split() {
        var reader = InspectionRequestReader()
        let line = InspectionRequest.watch.line
        #expect(reader.consume(line.prefix(5)) == .needsMore)
        #expect(reader.consume(line.dropFirst(5)) == .request(.watch))
    }

    @Test(
        "bad input from a peer is a failure, never a request",
        arguments: [
            Array("{\"request\":\"watch\",\"protocol\":2}\n".utf8),
            Array("{\"request\":\"inject\",\"protocol\":1}\n".utf8),
            Array("hello\n".utf8), [0xFF, 0xFE, 0x0A], Array("[]\n".utf8),
            InspectionRequest.watch.line + Array("{".utf8),
            [UInt8](repeating: UInt8(ascii: "a"), count: 300),
        ])
    func bad(bytes: [UInt8]) {
        var reader = InspectionRequestReader()
        guard case .failure = reader.consume(bytes) else {
            Issue.record("accepted \(bytes.count) bytes")
            return
        }
    }

    @Test("bytes after the request are a failure")
    func afterTheRequest() {
        var reader = InspectionRequestReader()
        #expect(reader.consume(InspectionRequest.hello.line) == .request(.hello))
        #expect(reader.consume([]) == .needsMore)
        guard case .failure = reader.consume(Array("x".utf8)) else {
            Issue.record("took bytes after the request")
            return
        }
    }

    @Test(
        "the environment variable's words",
        arguments: [
            ("0", false), ("off", false), ("No", false), ("false", false), ("1", true), ("ON", true), ("yes", true),
            ("true", true),
        ])
    func environment(value: String, on: Bool) {
        #expect(InspectionProtocol.environmentSetting(value) == on)
    }

    @Test("an empty, unset or unknown environment variable says nothing")
    func environmentSilent() {
        #expect(InspectionProtocol.environmentSetting(nil) == nil)
        #expect(InspectionProtocol.environmentSetting("") == nil)
        #expect(InspectionProtocol.environmentSetting("maybe") == nil)
    }
}

@Suite struct InspectionLineReaderTests {
    @Test("lines come out whole, however the bytes arrive")
    func lines() throws {
        var reader = InspectionLineReader(maximumLength: 10)
        reader.append(Array("ab\ncd".utf8))
        #expect(try reader.nextLine() == Array("ab".utf8))
        #expect(try reader.nextLine() == nil)
        reader.append(Array("e\n\n".utf8))
        #expect(try reader.nextLine() == Array("cde".utf8))
        #expect(try reader.nextLine() == [])
        #expect(try reader.nextLine() == nil)
        #expect(reader.pendingCount == 0)
    }

    @Test("a line over the limit fails before its newline arrives")
    func tooLong() throws {
        var reader = InspectionLineReader(maximumLength: 4)
        reader.append(Array("abcd".utf8))
        #expect(try reader.nextLine() == nil)
        reader.append(Array("e".utf8))
        #expect(throws: InspectionLineReader.LineTooLong.self) { try reader.nextLine() }
    }
}

@Suite struct InspectionEndpointTests {
    @Test("the directory is in the runtime directory, else a private one in /tmp")
    func directory() {
        #expect(
            InspectionEndpoint.directory(runtimeDirectory: "/run/user/1000", userID: 1000)
                == "/run/user/1000/responderchain")
        #expect(
            InspectionEndpoint.directory(runtimeDirectory: "/run/user/1000/", userID: 1000)
                == "/run/user/1000/responderchain")
        #expect(InspectionEndpoint.directory(runtimeDirectory: nil, userID: 1000) == "/tmp/responderchain-1000")
        #expect(InspectionEndpoint.directory(runtimeDirectory: "relative", userID: 7) == "/tmp/responderchain-7")
    }

    @Test(
        "file names keep safe characters and read back",
        arguments: [
            ("kiosk-example", "kiosk-example"), ("my app/../x", "my_app_.._x"), ("", "app"), (".hidden", "app.hidden"),
            ("Köln\u{1B}", "K_ln_"),
        ])
    func names(name: String, safe: String) throws {
        #expect(InspectionEndpoint.fileSafeName(name) == safe)
        let file = InspectionEndpoint.fileName(name: name, pid: 4242)
        #expect(file == "\(safe).4242.sock")
        let parsed = try #require(InspectionEndpoint.parse(fileName: file))
        #expect(parsed.name == safe && parsed.pid == 4242)
    }

    @Test(
        "other files are not sockets of ours",
        arguments: ["x.sock", "a.0.sock", "a.-3.sock", "a.12", ".12.sock", "a.b.sock"])
    func notOurs(fileName: String) {
        #expect(InspectionEndpoint.parse(fileName: fileName) == nil)
    }

    @Test("a long name is cut, so that the path fits the kernel's limit")
    func longName() {
        let name = String(repeating: "n", count: 200)
        #expect(InspectionEndpoint.fileSafeName(name).count == InspectionEndpoint.maximumNameLength)
    }
}
