import DispatchTrace
import Foundation
import Testing

@Suite struct OutputBufferTests {
    @Test("a trace file is created (or emptied) and gets every line once flushed")
    func writesFile() throws {
        let path = "/tmp/output-buffer-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        defer { unlink(path) }
        try "old contents\n".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let output = try OutputBuffer(path: path)
            output.append { TraceEvent(t: 1.5, .unhandled(key: "KeyA")).writeJSON(to: &$0) }
            output.flush()
            #expect(
                try String(contentsOfFile: path, encoding: .utf8)
                    == "{\"t\":1.500000,\"event\":\"unhandled\",\"key\":\"KeyA\"}\n")
            output.line("last")
        }
        #expect(
            try String(contentsOfFile: path, encoding: .utf8).hasSuffix("last\n"), "written when the buffer goes away")
    }

    @Test(
        "a file that cannot be written names the file, the reason and the fix",
        arguments: [
            ("/nonexistent-folder/trace.jsonl", "create the folder first"), ("/tmp", "name a file inside that folder"),
            ("", "name a file, such as trace.jsonl"),
        ])
    func errors(path: String, fix: String) {
        #expect {
            _ = try OutputBuffer(path: path)
        } throws: { error in
            let message = "\(error)"
            return message.contains("\"\(path)\"") && message.hasSuffix(fix)
        }
    }
}
