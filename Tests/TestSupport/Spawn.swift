import Foundation

/// Starts a program for a test with `posix_spawnp` (not Foundation's `Process`, whose
/// `waitUntilExit` missed the exit of a tmux client that forks its server): standard input from
/// `/dev/null`, standard output into the file `output` (a forked server would hold a pipe open),
/// standard error there too or to `/dev/null`, and no signal blocked or ignored (the test runner
/// blocks `SIGTERM` and `SIGHUP`, which a child would inherit: a tmux server would ignore its own
/// kill-server, a daemon its stop).
///
/// - Parameters:
///   - arguments: The program (a path, or a name looked up in `PATH`) and its arguments.
///   - environment: `NAME=value` strings, or `nil` for the test's own environment.
///   - output: The file standard output goes to (created or truncated).
///   - errorsToOutput: Whether standard error goes there too (else to `/dev/null`).
/// - Returns: The child's pid, for `waitpid`.
/// - Throws: ``SpawnFailure`` when the program cannot be started.
public func spawnProcess(
    _ arguments: [String], environment: [String]?, output: String, errorsToOutput: Bool
) throws(SpawnFailure) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if errorsToOutput {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer {
        for argument in argv { free(argument) }
        for variable in envp ?? [] { free(variable) }
    }
    var pid: pid_t = 0
    let spawned =
        if var envp {
            posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, &envp)
        } else {
            posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        }
    guard spawned == 0 else { throw SpawnFailure(command: arguments[0], errno: spawned) }
    return pid
}

/// A program ``spawnProcess(_:environment:output:errorsToOutput:)`` could not start.
public struct SpawnFailure: Error, CustomStringConvertible {
    /// The program.
    public let command: String
    /// `posix_spawnp`'s error number.
    public let errno: Int32
    /// "cannot start PROGRAM: errno N".
    public var description: String { "cannot start \(command): errno \(errno)" }
}
