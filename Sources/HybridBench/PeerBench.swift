import Foundation

/// `hybrid-bench --peers`: the ncurses peer (bench/peers/ncurses_scene.c), built by
/// scripts/build-peers.sh and run on the same scene right after HybridTerm's rendering figures
/// in the same hybrid-bench run, printed next to ours with the ratios ours / ncurses.
///
/// The peer prints `ncurses <figure> <ms> ms <bytes> B` with the figure names `Bench.rendering`
/// keys its figures by, and notes on lines starting with `#`. It runs after our figures so that
/// our cold first frame is the first work of the process.
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

    /// Builds and runs the ncurses peer on `scene` and prints its figures next to `ours`; exits
    /// with the reason when the peer cannot be built or run.
    static func compare(_ ours: [String: Figure], scene: String) {
        let peer: (notes: [String], figures: [String: Figure])
        do {
            peer = try ncurses(scene: scene)
        } catch {
            FileHandle.standardError.write(Data("hybrid-bench --peers: \(error)\n".utf8))
            exit(1)
        }
        print("Peers on the same scene in this run: HybridTerm against ncurses, ratios ours / ncurses")
        peer.notes.forEach { print("  \($0)") }
        // What each side's figures hold, so the ratios are read right.
        print("  HybridTerm's first frames include loading the JSON; ncurses draws scene data already in memory")
        print("  and updates only the header on a label update, where HybridTerm re-renders the whole screen")
        let columns = ["figure".padding(toLength: 38, withPad: " ", startingAt: 0), cell("HybridTerm"), cell("ncurses"),
                       "    time  bytes"]
        print("  " + columns.joined())
        for (key, name) in figures {
            guard let mine = ours[key], let theirs = peer.figures[key] else { continue }
            let time = String(format: "%7.2fx", mine.milliseconds / theirs.milliseconds)
            let bytes = String(format: "%6.2fx", Double(mine.bytes) / Double(max(1, theirs.bytes)))
            print("  \(name.padding(toLength: 38, withPad: " ", startingAt: 0))\(cell(mine))\(cell(theirs))\(time)\(bytes)")
        }
    }

    /// A table cell: a figure's time and bytes, or a heading, right-aligned.
    static func cell(_ figure: Figure) -> String {
        cell(String(format: "%.3f ms ", figure.milliseconds) + Bench.size(figure.bytes))
    }

    static func cell(_ text: String) -> String {
        String(repeating: " ", count: max(1, 22 - text.count)) + text
    }

    /// The peer's notes and figures, built by the script (which rebuilds only what is stale).
    static func ncurses(scene: String) throws -> (notes: [String], figures: [String: Figure]) {
        guard FileManager.default.isExecutableFile(atPath: buildScript) else {
            throw Failure(description: "\(buildScript) is not in \(FileManager.default.currentDirectoryPath): run hybrid-bench from the repository's root")
        }
        let built = try output(of: buildScript, [scene], what: "building the ncurses peer",
                               hint: " (its messages are above; it needs gcc and libncurses-dev, which it installs with apt when missing)")
        let paths = built.split(separator: "\n").last?.split(separator: " ").map(String.init) ?? []
        guard paths.count == 2 else {
            throw Failure(description: "\(buildScript) did not end with the peer's and the scene data's paths; it printed: \(built)")
        }
        let printed = try output(of: paths[0], [paths[1]], what: "the ncurses peer \(paths[0])")
        var notes: [String] = []
        var figures: [String: Figure] = [:]
        for line in printed.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if line.hasPrefix("#") {
                notes.append(String(line.dropFirst(2)))
            } else if fields.count == 6, fields[0] == "ncurses", fields[3] == "ms", fields[5] == "B",
                      let milliseconds = Double(fields[2]), let bytes = Int(fields[4]) {
                figures[String(fields[1])] = Figure(milliseconds, bytes)
            } else {
                throw Failure(description: "the ncurses peer printed a line that is neither a note nor a figure: \(line)")
            }
        }
        if let missing = self.figures.first(where: { figures[$0.0] == nil }) {
            throw Failure(description: "the ncurses peer printed no \(missing.0) figure; it printed:\n\(printed)")
        }
        return (notes, figures)
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
