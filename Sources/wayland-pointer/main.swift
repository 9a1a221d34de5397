// wayland-pointer: a zwlr_virtual_pointer_v1 client for tests under sway (no packaged tool does this;
// ydotool needs /dev/uinput). Moves and clicks the seat's pointer as a script says, then exits, or with
// --hold keeps its one virtual pointer and reads scripts from standard input, a line at a time.

let usage = """
    usage: wayland-pointer [--extent WxH] [--hold] [COMMAND...]
    Drives the pointer of the Wayland compositor at $WAYLAND_DISPLAY through zwlr_virtual_pointer_v1.
    Commands, separated by ';' or not, each one frame and a roundtrip:
      move-abs X Y [W H]             motion_absolute to X,Y in a WxH extent (default: --extent)
      move DX DY                     relative motion in pixels
      press [left|right|middle]      a button down (left by default)
      release [left|right|middle]    a button up (by default the one pressed last)
      click X Y [left|right|middle]  move-abs X Y, press, release
      sleep MS                       wait
    --extent WxH  the extent of move-abs and click (default 800x600: the output's size in pixels makes
                  X and Y the output's coordinates)
    --hold        after the commands, keep the virtual pointer and read commands from standard input, a
                  line at a time; prints "ready" when the pointer exists, then "ok" after each line the
                  compositor has handled, or "error: MESSAGE" for a line that does not parse
    Exit status: 0 done, 1 no connection or the compositor went away, 2 usage error.
    """

/// What the command line asks for.
struct Invocation {
    var extent: (width: UInt32, height: UInt32) = (800, 600)
    var hold = false
    var commands: [PointerCommand] = []

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var script: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--hold":
                invocation.hold = true
            case "--extent":
                guard index < arguments.count else { throw UsageError(message: "--extent needs WxH, like 800x600") }
                invocation.extent = try PointerScript.parseExtent(arguments[index])
                index += 1
            case _ where argument.hasPrefix("--extent="):
                invocation.extent = try PointerScript.parseExtent(String(argument.dropFirst("--extent=".count)))
            case _ where argument.hasPrefix("--"):
                throw UsageError(message: "unknown option \(argument): the options are --extent WxH and --hold")
            default:
                script.append(argument)
            }
        }
        invocation.commands = try PointerScript.parse(script, extent: invocation.extent)
        guard !invocation.commands.isEmpty || invocation.hold else {
            throw UsageError(message: "no commands: give at least one, or --hold to read them from standard input")
        }
        return invocation
    }
}

/// `--hold`: runs standard input's lines until it ends, and ends at once when the compositor goes away.
func hold(_ runner: PointerRunner, extent: (width: UInt32, height: UInt32)) throws(ConnectionError) {
    let reader = ProcessIO.LineReader()
    while true {
        let ready = ProcessIO.waitForInput(display: runner.pointer.descriptor)
        if ready.display { try runner.pointer.dispatchIncoming() }
        guard ready.input else { continue }
        guard let lines = reader.read() else { return }
        for line in lines {
            let commands: [PointerCommand]
            do throws(UsageError) {
                commands = try PointerScript.parse([line], extent: extent)
            } catch {
                ProcessIO.say("error: " + error.message)
                continue
            }
            try runner.run(commands)
            ProcessIO.say("ok")
        }
    }
}

/// Runs the tool; returns its exit status.
func main(_ arguments: [String]) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
        ProcessIO.say(usage)
        return 0
    }
    let invocation: Invocation
    do throws(UsageError) {
        invocation = try Invocation.parse(arguments)
    } catch {
        ProcessIO.complain(error.message + " (wayland-pointer --help shows the usage)")
        return 2
    }
    do throws(ConnectionError) {
        let pointer = try VirtualPointer()
        let runner = PointerRunner(pointer: pointer, extent: invocation.extent)
        try runner.run(invocation.commands)
        if invocation.hold {
            ProcessIO.say("ready")
            try hold(runner, extent: invocation.extent)
        }
        try pointer.close()
        return 0
    } catch {
        ProcessIO.complain(error.message)
        return 1
    }
}

ProcessIO.exit(main(Array(CommandLine.arguments.dropFirst())))
