import Foundation

/// Process start to first frame, then exit: the `hybrid` binary started as a user starts it,
/// against an empty C program (`/bin/true`) started the same way in the same run, against the
/// engine's floor (a C program that loads JavaScriptCore, makes one context and evaluates
/// `1 + 1`, built by scripts/build-engine-floor.sh: what `hybrid run` cannot go below), and
/// against another `hybrid` (`--against PATH`, a build of an earlier commit, say) when given. The runs
/// take turns, command by command, so a slow spell of the machine falls on every binary alike,
/// the two binaries swapping places every other round (what runs second after the same
/// command finds a warmer cache): 40 rounds after 3 unmeasured ones (so the files are in the
/// page cache). Every program runs from a fresh copy in one temporary folder: the same file
/// started 15% slower from a copy made an hour earlier than from one made just now, so
/// binaries built at different times are only comparable copied alike. The figure is the
/// median of the time from `posix_spawn` to the end of `waitpid`, output going to `/dev/null`
/// (a command that fails is named with its wait status; run it by hand to see why).
enum StartupBench {
    static let runs = 40

    /// - Parameters:
    ///   - binary: the `hybrid` to start: by default the one built beside this benchmark;
    ///     `--hybrid PATH` picks another (the shipped build of `scripts/build-release.sh`).
    ///   - other: a second `hybrid` measured in the same rounds (`--against PATH`), or nil.
    static func run(binary: String, against other: String?) throws {
        let named = [binary] + (other.map { [$0] } ?? [])
        for path in named where !FileManager.default.isExecutableFile(atPath: path) {
            print("Start-up: no hybrid binary at \(path); build it (swift build -c release --product hybrid), or pass another with --hybrid or --against")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-startup-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binaries = try named.indices.map { index in
            let copy = folder.appendingPathComponent("hybrid-\(index + 1)")
            try FileManager.default.copyItem(atPath: named[index], toPath: copy.path)
            return copy.path
        }
        let screen = folder.appendingPathComponent("one-node.json")
        try Data(#"{"format": 1, "id": "one", "body": {"type": "text", "text": "hi"}}"#.utf8).write(to: screen)
        let commands = [
            ("hybrid --version", ["--version"]),
            ("hybrid render of a one-node screen", ["render", screen.path, "--size", "20x2"]),
            ("hybrid run samples/todo --headless", ["run", "samples/todo", "--headless", "--size", "40x12"]),
        ]
        // The references' slots first, then one per (command, binary); every program runs from
        // a fresh copy, the references too.
        var references = [("empty C program (/bin/true), the reference", "/bin/true")]
        do {
            references.append(("engine floor: C loads JSC, evaluates 1 + 1", try engineFloor()))
        } catch {
            print("Start-up: the engine's floor is not measured: \(error)")
        }
        for index in references.indices {
            let copy = folder.appendingPathComponent("reference-\(index + 1)")
            try FileManager.default.copyItem(atPath: references[index].1, toPath: copy.path)
            references[index].1 = copy.path
        }
        var slots = references.map { ($0.1, [String]()) }
        for (_, arguments) in commands {
            for path in binaries { slots.append((path, arguments)) }
        }
        let medians = try interleavedMedians(slots, pairsFrom: binaries.count == 2 ? references.count : nil)
        print("Start-up: process start to exit, medians of \(runs) rounds (\(named.joined(separator: " against ")), copied fresh)")
        let reference = medians[0]
        for (index, (name, _)) in references.enumerated() {
            report(name, [medians[index]], reference: reference)
        }
        for (index, (name, _)) in commands.enumerated() {
            let first = references.count + index * binaries.count
            report(name, Array(medians[first..<first + binaries.count]), reference: reference)
        }
    }

    static let floorScript = "scripts/build-engine-floor.sh"

    /// The engine's floor program, built by its script (which rebuilds it only when stale) and
    /// run once to see that it works.
    private static func engineFloor() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: floorScript) else {
            throw Failure(description: "\(floorScript) is not in \(FileManager.default.currentDirectoryPath): run hybrid-bench from the repository's root")
        }
        let built = try PeerBench.output(of: floorScript, [], what: "building the engine's floor", hint: " (it needs gcc, which it installs with apt when missing)")
        guard let path = built.split(separator: "\n").last.map(String.init), FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(floorScript) did not end with the program's path; it printed: \(built)")
        }
        try spawnAndWait(path, [])
        return path
    }

    /// Each binary's figure, its multiple of the reference, and the first's share of the second's.
    private static func report(_ name: String, _ milliseconds: [Double], reference: Double) {
        let figures = milliseconds.map { "\(String(format: "%7.2f", $0)) ms (\(String(format: "%4.1f", $0 / reference))x)" }
        let ratio = milliseconds.count == 2 ? String(format: "  %.2fx the other", milliseconds[0] / milliseconds[1]) : ""
        print("  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(figures.joined(separator: "  "))\(ratio)")
    }

    /// The median time each slot's executable takes from being spawned to having exited,
    /// the slots run in turn in every round; with `pairsFrom`, the slots from that index on
    /// (after the references) are pairs, each run in the other order every other round.
    private static func interleavedMedians(_ slots: [(executable: String, arguments: [String])], pairsFrom: Int?) throws -> [Double] {
        var samples = Array(repeating: [Double](), count: slots.count)
        for round in 0..<(runs + 3) {
            var order = Array(slots.indices)
            if let pairsFrom, round % 2 == 1 {
                for pair in stride(from: pairsFrom, to: slots.count - 1, by: 2) { order.swapAt(pair, pair + 1) }
            }
            for index in order {
                let slot = slots[index]
                let start = DispatchTime.now().uptimeNanoseconds
                try spawnAndWait(slot.executable, slot.arguments)
                if round >= 3 { samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            }
        }
        return samples.map(Bench.median)
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
