import Foundation

/// Process start to first frame, then exit: the `hybrid` binary started as a user starts it,
/// against an empty C program (`/bin/true`) started the same way in the same run. Each command
/// runs 40 times after 3 unmeasured runs (so its files are in the page cache); the figure is
/// the median of the time from `posix_spawn` to the end of `waitpid`, output going to
/// `/dev/null` (a command that fails is named with its wait status; run it by hand to see why).
enum StartupBench {
    static let runs = 40

    /// - Parameter binary: the `hybrid` to start: by default the one built beside this
    ///   benchmark; `--hybrid PATH` picks another (the shipped build of
    ///   `scripts/build-release.sh`).
    static func run(binary: String) throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("Start-up: no hybrid binary at \(binary); build it (swift build -c release --product hybrid) or pass --hybrid PATH")
            return
        }
        let screen = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-one-node-\(getpid()).json")
        try Data(#"{"format": 1, "id": "one", "body": {"type": "text", "text": "hi"}}"#.utf8).write(to: screen)
        defer { try? FileManager.default.removeItem(at: screen) }
        print("Start-up: process start to exit, medians of \(runs) runs (\(binary))")
        let reference = try median("/bin/true", [])
        report("empty C program (/bin/true), the reference", reference, reference: reference)
        for (name, arguments) in [
            ("hybrid --version", ["--version"]),
            ("hybrid render of a one-node screen", ["render", screen.path, "--size", "20x2"]),
            ("hybrid run samples/todo --headless", ["run", "samples/todo", "--headless", "--size", "40x12"]),
        ] {
            report(name, try median(binary, arguments), reference: reference)
        }
    }

    private static func report(_ name: String, _ milliseconds: Double, reference: Double) {
        print("  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(String(format: "%7.2f", milliseconds)) ms  (\(String(format: "%.1f", milliseconds / reference))x the reference)")
    }

    /// The median time `executable` takes from being spawned to having exited.
    private static func median(_ executable: String, _ arguments: [String]) throws -> Double {
        try Bench.measure(runs: runs, warmUps: 3) { try spawnAndWait(executable, arguments) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func spawnAndWait(_ executable: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (wait status \(status))")
        }
    }
}
