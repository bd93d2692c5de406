import Foundation

/// `hybrid-bench --peers`: the tui-rs and ncurses peers (bench/peers/tui_scene,
/// bench/peers/ncurses_scene.c), built by scripts/build-peers.sh and run on the same scene right
/// after HybridTerm's rendering figures in the same hybrid-bench run, printed next to ours with
/// the ratios ours / peer. Issue 16's goals are ratios to tui-rs.
///
/// A peer prints `<its name> <figure> <ms> ms <bytes> B` with the figure names `Bench.rendering`
/// keys its figures by, and notes on lines starting with `#`. The peers run after our figures so
/// that our cold first frame is the first work of the process.
enum PeerBench {
    /// One measured figure: the median (or single) time and the bytes written to the terminal.
    struct Figure {
        var milliseconds: Double
        var bytes: Int

        init(_ milliseconds: Double, _ bytes: Int) {
            self.milliseconds = milliseconds
            self.bytes = bytes
        }
    }

    /// A peer's run: its name, its notes and its figures by name.
    struct Peer {
        let name: String
        var notes: [String] = []
        var figures: [String: Figure] = [:]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The figures compared, in order, with how the table names them.
    static let figures = [
        ("first-frame-cold", "first frame, cold (first in process)"),
        ("first-frame-warm", "first frame, warm"),
        ("label-update", "one-label update"),
        ("full-repaint", "full repaint"),
        ("scroll-line", "one-line scroll, no key handling"),
    ]

    static let buildScript = "scripts/build-peers.sh"

    /// How many rounds `compare` measures: in each, every peer runs once and ours are measured
    /// once more, in turns (as issue 16's figures were taken: seven interleaved rounds).
    static let rounds = 7

    /// Builds the peers, then runs them and `measureOurs` in turns for `rounds` rounds on `scene`
    /// and prints each side's figures (medians of the rounds) and the ratios ours / peer (medians
    /// of the rounds' ratios: two figures of one round met the same machine, which on a shared
    /// one changes from one second to the next). `ours` holds the cold first frame, the first of
    /// the process, measured once. Exits with the reason when a peer cannot be built or run.
    /// How this program has the Swift runtime, which decides what each retain and release
    /// costs (a call through the PLT into libswiftCore, or a direct one): read from the
    /// libraries the process mapped.
    private static var runtimeLinking: String {
        // Read to its end: the file says it is empty, which `String(contentsOfFile:)` believes.
        let maps = FileHandle(forReadingAtPath: "/proc/self/maps").flatMap { try? $0.readToEnd() } ?? Data()
        return String(decoding: maps, as: UTF8.self).contains("libswiftCore.so")
            ? "the Swift runtime loaded as a library (swift build -c release); the shipped build links it in (scripts/build-release.sh hybrid-bench)"
            : "the Swift runtime linked in, as shipped (scripts/build-release.sh)"
    }

    static func compare(_ ours: [String: Figure], scene: String, measureOurs: () throws -> [String: Figure]) rethrows {
        let peers: [(name: String, program: String)]
        let data: String
        do {
            (data, peers) = try build(scene: scene)
        } catch {
            FileHandle.standardError.write(Data("hybrid-bench --peers: \(error)\n".utf8))
            exit(1)
        }
        // rows[side][round], side 0 ours, then the peers in order.
        var rows = Array(repeating: [Peer](), count: peers.count + 1)
        for round in 0..<rounds {
            for turn in 0...peers.count {
                let side = (round + turn) % (peers.count + 1)
                if side == 0 {
                    rows[0].append(Peer(name: "HybridTerm", figures: try measureOurs()))
                    continue
                }
                do {
                    rows[side].append(try figures(of: peers[side - 1].name, program: peers[side - 1].program, scene: data))
                } catch {
                    FileHandle.standardError.write(Data("hybrid-bench --peers: \(error)\n".utf8))
                    exit(1)
                }
            }
        }
        // Ours is cold only once, in the process's first frame.
        for round in rows[0].indices { rows[0][round].figures["first-frame-cold"] = ours["first-frame-cold"] }
        let names = peers.map(\.name)
        print("Peers on the same scene in this run: HybridTerm against \(names.joined(separator: " and ")), \(rounds) rounds, each side in turn")
        for peer in rows.dropFirst().compactMap(\.first) { peer.notes.forEach { print("  \(peer.name): \($0)") } }
        // What each side's figures hold, so the ratios are read right.
        print("  HybridTerm: \(runtimeLinking)")
        print("  HybridTerm's first frames include loading the JSON; the peers draw scene data already in memory.")
        print("  ncurses updates only the header on a label update, where HybridTerm and tui-rs render the whole screen again.")
        print("  HybridTerm writes truecolor (38;2;r;g;b), the peers xterm's 256 colours (38;5;n), a few bytes fewer a colour.")
        print("  HybridTerm's cold first frame is its process's first, measured once; each peer's is its round's process's first.")
        print("  medians of the rounds:")
        print("  " + ([label("figure"), cell("HybridTerm")] + names.map { cell($0) }).joined())
        for (key, name) in figures {
            let medians = rows.map { side in Figure(Bench.median(side.compactMap { $0.figures[key]?.milliseconds }),
                                                    side.first?.figures[key]?.bytes ?? 0) }
            print("  " + ([label(name)] + medians.map(cell)).joined())
        }
        print("  ratios ours / peer: time, the median of the rounds' ratios (lowest-highest); bytes")
        print("  " + ([label("figure")] + names.map { cell("/ \($0)", width: 30) }).joined())
        for (key, name) in figures {
            let mine = rows[0].map { $0.figures[key]! }
            let ratios = rows.dropFirst().map { side -> String in
                let theirs = side.map { $0.figures[key]! }
                let time = Bench.medianRatio(mine.map(\.milliseconds), to: theirs.map(\.milliseconds))
                let bytes = Double(mine[0].bytes) / Double(max(1, theirs[0].bytes))
                return cell(String(format: "%.2fx (%.2f-%.2f) %.2fx", time.median, time.low, time.high, bytes), width: 30)
            }
            print("  " + ([label(name)] + ratios).joined())
        }
    }

    /// A table cell: a figure's time and bytes, right-aligned.
    static func cell(_ figure: Figure) -> String {
        cell(String(format: "%.3f ms ", figure.milliseconds) + Bench.size(figure.bytes))
    }

    /// `text` right-aligned in a column `width` wide (a figure's cell, or a ratio's).
    static func cell(_ text: String, width: Int = 22) -> String {
        String(repeating: " ", count: max(1, width - text.count)) + text
    }

    /// A row's name, left-aligned in the first column.
    static func label(_ name: String) -> String {
        name.padding(toLength: 38, withPad: " ", startingAt: 0)
    }

    /// The scene data's path and each peer's name and program, built by the script (which
    /// rebuilds only what is stale).
    static func build(scene: String) throws -> (data: String, peers: [(name: String, program: String)]) {
        guard FileManager.default.isExecutableFile(atPath: buildScript) else {
            throw Failure(description: "\(buildScript) is not in \(FileManager.default.currentDirectoryPath): run hybrid-bench from the repository's root")
        }
        let built = try output(of: buildScript, [scene], what: "building the peers",
                               hint: " (its messages are above; it needs gcc, libncurses-dev, cargo and librust-tui-dev, which it installs with apt when missing)")
        let fields = built.split(separator: "\n").last?.split(separator: " ").map(String.init) ?? []
        guard fields.count >= 3, fields.count % 2 == 1 else {
            throw Failure(description: "\(buildScript) did not end with the scene data's path and each peer's name and program; it printed: \(built)")
        }
        return (fields[0], stride(from: 1, to: fields.count, by: 2).map { (fields[$0], fields[$0 + 1]) })
    }

    /// What the peer `name` prints when it draws the scene data at `scene`.
    static func figures(of name: String, program: String, scene: String) throws -> Peer {
        let printed = try output(of: program, [scene], what: "the \(name) peer \(program)")
        var peer = Peer(name: name)
        for line in printed.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if line.hasPrefix("#") {
                peer.notes.append(String(line.dropFirst(2)))
            } else if fields.count == 6, fields[0] == name, fields[3] == "ms", fields[5] == "B",
                      let milliseconds = Double(fields[2]), let bytes = Int(fields[4]) {
                peer.figures[String(fields[1])] = Figure(milliseconds, bytes)
            } else {
                throw Failure(description: "the \(name) peer printed a line that is neither a note nor a figure: \(line)")
            }
        }
        if let missing = figures.first(where: { peer.figures[$0.0] == nil }) {
            throw Failure(description: "the \(name) peer printed no \(missing.0) figure; it printed:\n\(printed)")
        }
        return peer
    }

    /// What `executable` prints on its standard output (its standard error goes to ours).
    static func output(of executable: String, _ arguments: [String], what: String, hint: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw Failure(description: "\(what): cannot start \(executable): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "\(what) failed: \(executable) \(process.terminationReason == .exit ? "exited with status" : "was killed by signal") \(process.terminationStatus)\(hint)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
