import DispatchTrace
import KeytraceKit
import Testing

@MainActor @Suite struct ByteWriterTests {
    @Test(
        "times are written with six decimals, and any time at all is written without trapping",
        arguments: [
            (12.345678, "12.345678"), (-1.5, "-1.500000"), (0, "0.000000"), (4_294_967_295.999999, "4294967295.999999"),
            (1e20, "1e+20"), (-1e20, "-1e+20"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (Double.infinity, "null"), (-Double.infinity, "null"), (Double.nan, "null"),
        ])
    func seconds(time: Double, text: String) {
        var writer = ByteWriter()
        writer.append(seconds: time)
        let written = writer.withBytes { String(decoding: $0, as: UTF8.self) }
        #expect(written == text)
    }
}
