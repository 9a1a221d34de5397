import LinuxSystem
import ResponderChain
import Testing

/// InputError's text: one line, nothing from outside reaching a terminal raw, the fix for an open that failed.
@Suite struct InputErrorTests {
    @Test("a path or message with control characters is escaped in the description")
    func escaped() {
        let error = InputError(
            errno: .noSuchFileOrDirectory, operation: "open", path: "/dev/input/\u{1B}]0;pwned\u{07}\nevent3",
            message: "gone\u{7F}\u{9B}31m\r\t")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        #expect(
            error.description
                == "open /dev/input/\\u{1B}]0;pwned\\u{7}\\nevent3: gone\\u{7F}\\u{9B}31m\\r\\t")
    }

    /// Every C0 control, DEL, every C1 control, and characters that are not controls (a backslash, é, an emoji).
    static let texts: [String] =
        (0..<0xA1).compactMap { Unicode.Scalar($0).map { "a\(Character($0))b" } } + ["\\", "é", "🙂", "plain"]

    @Test("InputError escapes as the core's String.escapingControlCharacters() does", arguments: texts)
    func agreesWithTheCore(text: String) {
        let error = InputError(operation: "open", path: text, message: text)
        #expect(error.description == "open \(text): \(text)".escapingControlCharacters())
    }

    @Test("an error without a path or an errno reads as operation: message")
    func plain() {
        let error = InputError(operation: "udev", path: nil, message: "libudev could not enumerate devices")
        #expect(error.errno == Errno(rawValue: 0))
        #expect(error.description == "udev: libudev could not enumerate devices")
    }

    @Test(
        "opening names the fix for the usual errors, and the number for the others",
        arguments: [
            (Errno.permissionDenied, "add your user to the input group"),
            (.noSuchFileOrDirectory, "no such device file. List keyboards with `keytrace --list-devices`"),
            (.noSuchDevice, "the device vanished (unplugged)"),
            (.ioError, "could not open the device (errno 5)"),
        ])
    func opening(errno: Errno, says: String) {
        let error = InputError.opening("/dev/input/event3", errno: errno)
        #expect(error.errno == errno)
        #expect(error.operation == "open")
        #expect(error.path == "/dev/input/event3")
        #expect(error.message.contains(says), "\(error)")
    }
}
