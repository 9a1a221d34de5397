import DispatchTrace
import Foundation
import KeytraceKit
import LinuxKeyboard
import Testing

/// Output that cannot be written (a full disk, a closed descriptor) is an error that names the
/// output, with a failure status; opening a trace output never blocks.
@Suite(.serialized) struct OutputFailureTests {
    /// Runs a binary with standard output on `/dev/full` (or closed, with `nil`).
    static func run(_ binary: String, _ arguments: [String], stdout: String?) throws -> (status: Int32, stderr: String)
    {
        let process = Process()
        let err = Pipe()
        if let stdout {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            let handle = FileHandle(forWritingAtPath: stdout)
            #expect(handle != nil, "\(stdout) opens")
            process.standardOutput = handle
        } else {
            // The shell closes standard output, then runs the binary in its place.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" >&-", binary] + arguments
        }
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["XKB_DEFAULT_LAYOUT"] = "us"
        process.environment = environment
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test(
        "keytrace on a full disk or a closed output says which output and why, and exits 74",
        arguments: [
            (["--keys", "tab tab", "--plain"], "/dev/full", "No space left on device"),
            (["--keys", "tab tab", "--json"], "/dev/full", "No space left on device"),
            (["--conflicts"], "/dev/full", "No space left on device"),
            (["--focus-debug"], "/dev/full", "No space left on device"),
            (["--print-demo-scene"], "/dev/full", "No space left on device"),
            (["--help"], "/dev/full", "No space left on device"),
            (["--keys", "tab tab", "--plain"], nil, "Bad file descriptor"),
            (["--conflicts"], nil, "Bad file descriptor"),
        ] as [([String], String?, String)])
    func keytraceWriteFailure(arguments: [String], stdout: String?, reason: String) throws {
        let result = try Self.run(KeytraceBinary.path, arguments, stdout: stdout)
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("keytrace: cannot write to standard output: \(reason)"), "\(result.stderr)")
    }

    @Test("a trace buffer on a full disk keeps the error, writes nothing more, and finish throws it")
    @MainActor
    func bufferOnFullDisk() throws {
        let output = try OutputBuffer(path: "/dev/full")
        var options = KeytraceOptions()
        options.keys = "tab tab tab"
        options.format = .plain
        #expect {
            _ = try Keytrace.run(options, output: output)
        } throws: { error in
            guard let error = error as? KeytraceError else { return false }
            return error.exitStatus == 74 && error.description.contains("cannot write to \"/dev/full\"")
                && error.description.contains("No space left on device")
                && error.description.hasSuffix("free space on that disk, or write elsewhere")
        }
        #expect(output.writeError?.errno == .noSpace)
        #expect(throws: OutputWriteError.self) { try output.finish() }
    }

    @Test("a FIFO without a reader is refused at once, not waited for")
    func fifoWithoutReader() throws {
        let path = "/tmp/output-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let start = Date()
        #expect {
            _ = try OutputBuffer(path: path)
        } throws: { error in
            "\(error)".contains("no process reads the FIFO") && "\(error)".contains("start its reader first")
        }
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test("a FIFO whose reader does not read keeps what it cannot take; the app never waits")
    func slowFIFOReader() throws {
        let path = "/tmp/output-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let output = try OutputBuffer(path: path)
        let start = Date()
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<1000 { output.line(line) }  // 1 MB: far more than a pipe holds
        output.flush()
        #expect(Date().timeIntervalSince(start) < 1, "writing never waited for the reader")
        #expect(output.writeError == nil, "what the FIFO cannot take yet is kept")
        // Reading some makes room; the rest comes at the next flushes.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        for _ in 0..<200 {
            let count = read(reader, &chunk, chunk.count)
            if count > 0 { total += count }
            output.flush()
        }
        try output.finish()
        while case let count = read(reader, &chunk, chunk.count), count > 0 { total += count }
        #expect(total == 1000 * 1001)
    }

    @Test("a FIFO reader that stops reading for good ends the output with an error, not a wait")
    func stuckFIFOReader() throws {
        let path = "/tmp/output-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let output = try OutputBuffer(path: path)
        let line = String(repeating: "y", count: 1 << 12)
        for _ in 0..<(OutputBuffer.pendingLimit / (1 << 12) + 64) { output.line(line) }
        #expect(output.writeError?.description.contains("its reader did not take") == true)
    }
}
