import Foundation
import SpeechDispatcher
import Testing

@Suite struct SSIPReplyParserTests {
    static func parse(_ text: String) -> ([SSIPMessage], SSIPParseError?) {
        var parser = SSIPReplyParser()
        let messages = parser.consume(Array(text.utf8))
        return (messages, parser.failure)
    }

    @Test("replies with and without data lines")
    func replies() {
        let (messages, failure) = Self.parse(
            "208 OK CLIENT NAME SET\r\n225-12\r\n225 OK MESSAGE QUEUED\r\n251-en\r\n251 OK GET RETURNED\r\n")
        #expect(failure == nil)
        #expect(
            messages == [
                .reply(SSIPReply(code: 208, text: "OK CLIENT NAME SET")),
                .reply(SSIPReply(code: 225, data: ["12"], text: "OK MESSAGE QUEUED")),
                .reply(SSIPReply(code: 251, data: ["en"], text: "OK GET RETURNED")),
            ])
        #expect(SSIPReply(code: 225, text: "").isSuccess)
        #expect(!SSIPReply(code: 409, text: "").isSuccess)
    }

    @Test("events, one of each kind, and an index mark with its name")
    func events() {
        let (messages, failure) = Self.parse(
            "701-3\r\n701-1\r\n701 BEGIN\r\n702-3\r\n702-1\r\n702 END\r\n703-4\r\n703-1\r\n703 CANCELED\r\n"
                + "704-5\r\n704-1\r\n704 PAUSED\r\n705-5\r\n705-1\r\n705 RESUMED\r\n"
                + "700-6\r\n700-1\r\n700-m1\r\n700 INDEX MARK\r\n799-7\r\n799-1\r\n799 NEW\r\n")
        #expect(failure == nil)
        #expect(
            messages == [
                .event(SSIPEvent(kind: .began, messageID: 3, clientID: 1)),
                .event(SSIPEvent(kind: .ended, messageID: 3, clientID: 1)),
                .event(SSIPEvent(kind: .cancelled, messageID: 4, clientID: 1)),
                .event(SSIPEvent(kind: .paused, messageID: 5, clientID: 1)),
                .event(SSIPEvent(kind: .resumed, messageID: 5, clientID: 1)),
                .event(SSIPEvent(kind: .indexMark, messageID: 6, clientID: 1, mark: "m1")),
                .event(SSIPEvent(kind: .other(799), messageID: 7, clientID: 1)),
            ])
    }

    @Test("an event between a command's reply lines is its own message, and the reply still completes")
    func interleaved() {
        let (messages, failure) = Self.parse(
            "225-2\r\n701-1\r\n701-1\r\n701 BEGIN\r\n225 OK MESSAGE QUEUED\r\n702-1\r\n213 OK CANCELED\r\n702-1\r\n702 END\r\n"
        )
        #expect(failure == nil)
        #expect(
            messages == [
                .event(SSIPEvent(kind: .began, messageID: 1, clientID: 1)),
                .reply(SSIPReply(code: 225, data: ["2"], text: "OK MESSAGE QUEUED")),
                .reply(SSIPReply(code: 213, text: "OK CANCELED")),
                .event(SSIPEvent(kind: .ended, messageID: 1, clientID: 1)),
            ])
    }

    @Test("any split of the bytes reads the same messages")
    func splits() {
        let text = "225-12\r\n701-12\r\n701-1\r\n701 BEGIN\r\n225 OK MESSAGE QUEUED\r\n251-ünï\r\n251 OK\r\n"
        let bytes = Array(text.utf8)
        let (whole, _) = Self.parse(text)
        #expect(whole.count == 3)
        var partial = SSIPReplyParser()
        #expect(!partial.isInsideMessage)
        _ = partial.consume(Array("22".utf8))
        #expect(partial.isInsideMessage)
        _ = partial.consume(Array("5-1\r\n".utf8))
        #expect(partial.isInsideMessage)
        _ = partial.consume(Array("225 OK\r\n".utf8))
        #expect(!partial.isInsideMessage)
        for cut in 0...bytes.count {
            for second in cut...bytes.count {
                var parser = SSIPReplyParser()
                var messages = parser.consume(bytes[..<cut])
                messages += parser.consume(bytes[cut..<second])
                messages += parser.consume(bytes[second...])
                #expect(messages == whole)
                #expect(parser.failure == nil)
                #expect(!parser.isInsideMessage)
            }
        }
    }

    @Test(
        "malformed input is an error naming what was wrong, and nothing more is read",
        arguments: [
            ("208 OK\n", "bare LF"),
            ("20\r\n", "too short"),
            ("20 OK\r\n", "three-digit code"),
            ("2a8 OK\r\n", "three-digit code"),
            ("008 OK\r\n", "three-digit code"),
            ("208_OK\r\n", "instead of `-`"),
            ("225-1\r\n226 OK\r\n", "inside a block of 225"),
            ("\u{FF}", "not UTF-8"),
            ("701-1\r\n701 BEGIN\r\n", "needs 2"),
            ("701-x\r\n701-1\r\n701 BEGIN\r\n", "not a number"),
            ("701-99999999999999999999\r\n701-1\r\n701 BEGIN\r\n", "not a number"),
            ("700-1\r\n700-1\r\n700 INDEX MARK\r\n", "needs 3"),
        ])
    func malformed(input: String, reason: String) {
        var bytes = Array(input.utf8)
        if input == "\u{FF}" { bytes = [0x32, 0x30, 0x38, 0x20, 0xFF, 0xFE, 0x0D, 0x0A] }
        var parser = SSIPReplyParser()
        _ = parser.consume(bytes)
        let failure = parser.failure
        #expect(failure != nil)
        #expect(failure?.description.contains(reason) == true, "\(String(describing: failure))")
        #expect(parser.consume(Array("208 OK\r\n".utf8)).isEmpty)
    }

    @Test("a line longer than the limit, or a block of too many lines, is an error, not memory")
    func bounds() {
        var parser = SSIPReplyParser()
        let exact =
            Array("251-".utf8) + Array(repeating: UInt8(ascii: "a"), count: SSIPReplyParser.maximumLineLength - 4)
        #expect(parser.consume(exact + [0x0D, 0x0A] + Array("251 OK\r\n".utf8)).count == 1)
        #expect(parser.failure == nil)
        var long = SSIPReplyParser()
        _ = long.consume(Array(repeating: UInt8(ascii: "2"), count: 1_000_000))
        #expect(long.failure?.message.contains("longer than 4096 bytes") == true)
        var many = SSIPReplyParser()
        _ = many.consume(Array(String(repeating: "251-x\r\n", count: 100).utf8))
        #expect(many.failure?.message.contains("more than 64 lines") == true)
    }

    /// Every input fuzz-ssip crashed on (Fuzz/Regressions/ssip), read again in two splits.
    @Test("the fuzzer's regression inputs read the same in any split, and never trap")
    func regressions() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/ssip")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(!names.isEmpty, "Fuzz/Regressions/ssip is empty")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            var whole = SSIPReplyParser()
            let messages = whole.consume(bytes)
            var split = SSIPReplyParser()
            let half = bytes.count / 2
            let parts = split.consume(bytes[..<half]) + split.consume(bytes[half...])
            #expect(messages == parts, "\(name)")
            #expect((whole.failure == nil) == (split.failure == nil), "\(name)")
        }
    }
}
