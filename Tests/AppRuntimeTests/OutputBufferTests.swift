import AppRuntime
import DispatchTrace
import Foundation
import Testing

@Suite struct OutputBufferTests {
    @Test("a non-blocking standard output whose reader is slow keeps the rest for later, not an error")
    func nonBlockingDescriptorKeepsTheRest() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        // As a terminal's standard output becomes when its standard input is made non-blocking.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let output = OutputBuffer(descriptor: ends[1], name: "standard output")
        let line = String(repeating: "x", count: 1023)
        for _ in 0..<256 { output.line(line) }  // 256 KiB: more than a pipe holds (64 KiB)
        output.flush()
        #expect(output.writeError == nil, "\(output.writeError.map(String.init(describing:)) ?? "")")
        // The reader catches up: everything arrives, in order.
        var received = 0
        var chunk = [UInt8](repeating: 0, count: 65_536)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var idleReads = 0  // bounded: bytes the buffer dropped would never come
        while received < 256 * 1024, idleReads < 100 {
            let count = read(ends[0], &chunk, chunk.count)
            if count > 0 { received += count } else { idleReads += 1 }
            output.flush()
        }
        try output.finish()
        #expect(received == 256 * 1024)
    }

    @Test("a trace file is created (or emptied) and gets every line once flushed")
    func writesFile() throws {
        let path = "/tmp/output-buffer-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        defer { unlink(path) }
        try "old contents\n".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let output = try OutputBuffer(path: path)
            output.append { TraceEvent(t: 1.5, .unhandled(.value(.a))).writeJSON(to: &$0) }
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
