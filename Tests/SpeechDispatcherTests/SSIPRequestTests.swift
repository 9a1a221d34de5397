import SpeechDispatcher
import Testing

@Suite struct SSIPRequestTests {
    @Test(
        "text is cleaned: CRLF and CR become newlines, other control characters go",
        arguments: [
            ("plain", "plain"),
            ("a\r\nb\rc\nd", "a\nb\nc\nd"),
            ("bell\u{07}tab\there\u{1B}[31m", "belltabhere[31m"),
            ("del\u{7F} c1\u{85}\u{9F} kept é ✓", "del c1 kept é ✓"),
            ("\r\r\n", "\n\n"),
        ])
    func clean(input: String, expected: String) {
        #expect(SSIPRequest.clean(input) == expected)
    }

    @Test("text longer than the limit is cut at a character boundary")
    func limit() {
        let long = String(repeating: "é", count: SSIPRequest.maximumTextBytes)  // 2 bytes each
        let cleaned = SSIPRequest.clean(long)
        #expect(cleaned.utf8.count == SSIPRequest.maximumTextBytes)
        #expect(cleaned.unicodeScalars.allSatisfy { $0 == "é" })
        let odd = "a" + long
        #expect(SSIPRequest.clean(odd).utf8.count == SSIPRequest.maximumTextBytes - 1)
        #expect(SpeechDispatcherClient.maximumTextLength == SSIPRequest.maximumTextBytes)
    }

    @Test("SPEAK's data: lines in CRLF, a leading dot doubled, a lone dot at the end")
    func speakData() {
        #expect(String(decoding: SSIPRequest.speakData("Hello"), as: UTF8.self) == "Hello\r\n.\r\n")
        #expect(
            String(decoding: SSIPRequest.speakData(".\n..x\nb.c\r\n"), as: UTF8.self)
                == "..\r\n...x\r\nb.c\r\n\r\n.\r\n")
        #expect(String(decoding: SSIPRequest.speakData("a\u{0}\r\n.\r\nb"), as: UTF8.self) == "a\r\n..\r\nb\r\n.\r\n")
    }

    @Test("the client name cannot break out of its quotes or components")
    func clientName() {
        #expect(
            SSIPRequest.clientName(user: "kiosk", client: "check-in") == "SET SELF CLIENT_NAME \"kiosk:check-in:main\"")
        #expect(
            SSIPRequest.clientName(user: "", client: "a:b\"c\r\nd") == "SET SELF CLIENT_NAME \"unknown:a_b_c__d:main\"")
    }

    @Test(
        "languages are codes, anything else is ignored",
        arguments: [
            ("en", "en"), ("pt-BR", "pt-BR"), ("en_GB", "en_GB"), ("", nil), ("en us", nil), ("de\r\nQUIT", nil),
            (String(repeating: "a", count: 36), nil),
        ] as [(String, String?)])
    func languages(input: String, expected: String?) {
        #expect(SSIPRequest.validLanguage(input) == expected)
    }
}
