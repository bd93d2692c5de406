import Foundation
import CJavaScriptCore
import HybridTerm

/// `hybrid-bench [SCENE.json] [--only SECTION] [--peers] [--hybrid PATH [--against PATH]]
/// [--profile-first-frames N] [--profile-sync-calls N [raw]]`:
/// medians of the rendering pipeline on the peer benchmark scene at 120x40, then of
/// expressions, the bridge, the network, the database, the running app and the start-up of the
/// `hybrid` binary (the one built beside this benchmark, or `--hybrid PATH`; `--against PATH`
/// starts another in the same rounds), each against a reference measured in the same run (see
/// BENCHMARKS.md). `--peers` also builds and runs the tui-rs and ncurses peers on the same
/// scene after the rendering figures and prints them side by side (see PeerBench);
/// `--profile-first-frames N` draws N first frames and nothing else, for a profiler, and
/// `--profile-sync-calls N` makes N bridge calls (`BridgeBench.profile`). Run it
/// built for release, from the repository: `swift run -c release hybrid-bench`.
@main
enum Bench {
    static let width = 120
    static let height = 40

    /// The parts `--only` picks from, in the order they run.
    static let sections = ["rendering", "expressions", "bridge", "network", "database", "app", "startup"]

    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let only = option("--only", in: &arguments, takes: "one of: \(sections.joined(separator: ", "))", valid: sections.contains)
        let hybrid = option("--hybrid", in: &arguments, takes: "the path of a hybrid binary")
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hybrid").path
        let against = option("--against", in: &arguments, takes: "the path of another hybrid binary, measured in the same start-up rounds")
        let profiled = option("--profile-first-frames", in: &arguments, takes: "a number of first frames to draw (0 or more)",
                              valid: { (Int($0) ?? -1) >= 0 })
        let profiledCalls = option("--profile-sync-calls", in: &arguments, takes: "a number of sync bridge calls to make (0 or more)",
                                   valid: { (Int($0) ?? -1) >= 0 })
        if let profiledCalls { return BridgeBench.profile(calls: Int(profiledCalls)!, raw: arguments.first == "raw") }
        let peers = arguments.contains("--peers")
        arguments.removeAll { $0 == "--peers" }
        guard !peers || only == nil || only == "rendering" else {
            FileHandle.standardError.write(Data("--peers compares the rendering figures: use it with --only rendering or without --only\n".utf8))
            exit(2)
        }
        let runs = { (section: String) in only == nil || only == section }
        let path = arguments.first ?? "samples/peer-scene.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
            exit(1)
        }
        let bytes = Array(data)
        if let profiled { return profileFirstFrames(Int(profiled)!, path: path, bytes: bytes) }
        if runs("rendering") {
            let ours = try rendering(path: path, bytes: bytes)
            if peers { try PeerBench.compare(ours, scene: path) { try warmRendering(path: path, bytes: bytes) } }
        }
        if runs("expressions") { try expressions() }
        if runs("bridge") { BridgeBench.run() }
        if runs("network") { NetworkBench.run() }
        if runs("database") { DatabaseBench.run() }
        if runs("app") { try runningApp(scene: bytes) }
        if runs("startup") { try StartupBench.run(binary: hybrid, against: against) }
    }

    /// The value given to `flag` in `arguments` (both taken out), or nil when it is not there;
    /// a missing or invalid value ends the program, saying what the flag `takes`.
    static func option(_ flag: String, in arguments: inout [String], takes: String,
                       valid: (String) -> Bool = { _ in true }) -> String? {
        guard let index = arguments.firstIndex(of: flag) else { return nil }
        guard index + 1 < arguments.count, valid(arguments[index + 1]) else {
            FileHandle.standardError.write(Data("\(flag) takes \(takes)\n".utf8))
            exit(2)
        }
        defer { arguments.removeSubrange(index...index + 1) }
        return arguments[index + 1]
    }

    /// The rendering pipeline on the scene: first frame (cold, then warm), one-label update, full
    /// repaint and a one-line scroll, by the figure names the peers print (see PeerBench).
    static func rendering(path: String, bytes: [UInt8]) throws -> [String: PeerBench.Figure] {
        let encoder = FrameEncoder(colors: .trueColor)
        // Cold: the first frame this process draws, before anything warms the code and its data.
        let start = DispatchTime.now().uptimeNanoseconds
        let cold = drawFirstFrame(path: path, bytes: bytes, encoder: encoder)
        let coldFigure = PeerBench.Figure(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, cold.bytes)
        print("HybridTerm rendering benchmark: \(path) (\(bytes.count) bytes) at \(width)x\(height), medians")
        report("first frame, cold (the first in the process, once)", coldFigure)
        var figures = try warmRendering(path: path, bytes: bytes)
        figures["first-frame-cold"] = coldFigure
        report("first frame (JSON parse + layout + render + diff)", figures["first-frame-warm"]!)
        let withFreeing = measure(runs: 200) { _ = drawFirstFrame(path: path, bytes: bytes, encoder: encoder) }
        report("  the same with its document and views freed", withFreeing)
        // As `load` parses: large node lists skimmed past, parsed when first drawn.
        let parse = measure(runs: 200) { _ = try? JSONParser.parse(bytes, deferringNodeLists: true) }
        report("  of which JSON parse (node lists skimmed)", parse)
        let wholeParse = measure(runs: 200) { _ = try? JSONParser.parse(bytes) }
        report("  (a whole parse, for comparison)", wholeParse)
        let decode = measure(runs: 200) { _ = ScreenDocument.load(SourceText(name: path, bytes: bytes)) }
        report("  of which JSON parse + decode", decode)
        report("one-label update (state change, re-render, diff)", figures["label-update"]!)
        report("full repaint (every cell)", figures["full-repaint"]!)
        report("one-line scroll (scroll offset set, render, diff)", figures["scroll-line"]!)
        return figures
    }

    /// The warm figures the peers measure too (all but the cold first frame), as `rendering`
    /// reports them; `hybrid-bench --peers` measures them again in each of its rounds.
    static func warmRendering(path: String, bytes: [UInt8]) throws -> [String: PeerBench.Figure] {
        let encoder = FrameEncoder(colors: .trueColor)
        var figures: [String: PeerBench.Figure] = [:]
        // First frame: parse, decode, lay out, draw, diff against an unknown screen.
        // Timed until its bytes exist. What it drew stays until the next run's set-up, as an
        // app keeps a screen's document and views for the frames that follow.
        var shown: FirstFrame?
        let time = measure(runs: 200, setUp: { shown = nil }) { shown = drawFirstFrame(path: path, bytes: bytes, encoder: encoder) }
        figures["first-frame-warm"] = .init(time, shown!.bytes)

        let document = ScreenDocument.load(SourceText(name: path, bytes: bytes)).value!
        let renderer = ScreenRenderer(document: document)
        var state = document.state
        let labels = ["HybridTerm peer scene", "HybridTerm PEER SCENE"]
        var previous = renderer.render(state: state, width: width, height: height).buffer
        var updateBytes = 0
        var flip = 0
        let update = measure(runs: 2000) {
            flip ^= 1
            state.setValue(.string(labels[flip]), atPath: "header")
            let next = renderer.render(state: state, width: width, height: height).buffer
            updateBytes = encoder.encode(from: previous, to: next).count
            previous = next
        }
        figures["label-update"] = .init(update, updateBytes)

        var repaintBytes = 0
        let repaint = measure(runs: 2000) {
            repaintBytes = encoder.encode(from: nil, to: previous).count
        }
        figures["full-repaint"] = .init(repaint, repaintBytes)
        figures["scroll-line"] = try scrollLine(bytes, encoder: encoder)
        return figures
    }

    /// `--profile-first-frames N`: draws `count` first frames of the scene, each freed when the
    /// next is drawn, and nothing else, for a profiler to count: `valgrind --tool=callgrind
    /// hybrid-bench --profile-first-frames 100`, less a run with 0 (start-up and reading the
    /// scene), divided by 100. Valgrind's reader gives up on the debug information of a
    /// release build: profile a copy stripped of it (`strip -g`).
    static func profileFirstFrames(_ count: Int, path: String, bytes: [UInt8]) {
        let encoder = FrameEncoder(colors: .trueColor)
        var shown: FirstFrame?
        for _ in 0..<count {
            shown = nil
            shown = drawFirstFrame(path: path, bytes: bytes, encoder: encoder)
        }
        print("drew \(count) first frames of \(path), \(shown?.bytes ?? 0) bytes each")
    }

    /// A first frame drawn, and what drew it (kept alive, as an app keeps it).
    struct FirstFrame {
        let renderer: ScreenRenderer
        let frame: ScreenRenderer.Frame
        /// The frame's bytes for a terminal.
        let bytes: Int
    }

    /// One first frame of the scene: parse, decode, lay out, draw, diff against an unknown
    /// screen. Never inlined, so a profiler shows it as one function (what it returns is
    /// freed outside it; see `profileFirstFrames`).
    @inline(never)
    static func drawFirstFrame(path: String, bytes: [UInt8], encoder: FrameEncoder) -> FirstFrame {
        let load = ScreenDocument.load(SourceText(name: path, bytes: bytes))
        let renderer = ScreenRenderer(document: load.value!)
        let frame = renderer.render(state: load.value!.state, width: width, height: height)
        return FirstFrame(renderer: renderer, frame: frame, bytes: encoder.encode(from: nil, to: frame.buffer).count)
    }

    /// A one-line scroll without key handling: the scene with its boxes in a scroll node, the
    /// viewport moved one line down (and back up) by its scroll offset, then render and diff.
    /// The median of both directions; the bytes of a step down.
    static func scrollLine(_ scene: [UInt8], encoder: FrameEncoder) throws -> PeerBench.Figure {
        let source = SourceText(name: "scroll scene", bytes: Array(try scrollScene(scene).jsonText.utf8))
        let document = ScreenDocument.load(source).value!
        let renderer = ScreenRenderer(document: document)
        var interaction = Interaction()
        let top = renderer.render(state: document.state, interaction: interaction, width: width, height: height)
        func find(_ id: String, in view: View) -> View? {
            view.node.id == id ? view : view.children.lazy.compactMap { find(id, in: $0) }.first
        }
        let viewport = find("boxes", in: top.root!)!
        var previous = top.buffer
        var down = true
        var downBytes = 0
        let time = measure(runs: 500) {
            viewport.scroll(by: down ? 1 : -1, in: &interaction)
            let next = renderer.render(state: document.state, interaction: interaction, width: width, height: height).buffer
            let count = encoder.encode(from: previous, to: next).count
            if down { downBytes = count }
            previous = next
            down.toggle()
        }
        return .init(time, downBytes)
    }

    /// The peer scene with its boxes in a `scroll` node (id `boxes`) filling the screen below the
    /// header, for the scroll figures.
    static func scrollScene(_ scene: [UInt8]) throws -> JSONValue {
        var json = try JSONParser.parse(scene).plain
        let children = json.value(atPath: "body.children")?.arrayValue ?? []
        let scroll = JSONValue.object(JSONObject([("type", .string("scroll")), ("id", .string("boxes")),
                                                  ("style", .object(JSONObject([("height", .string("fill"))]))),
                                                  ("children", .array(Array(children.dropFirst())))]))
        json.setValue(.array([children[0], scroll]), atPath: "body.children")
        return json
    }

    /// A typical binding evaluated a million times, against JavaScriptCore calling the same
    /// logic as a precompiled JS function from Swift (three numbers in, a string out) in this run.
    static func expressions() throws {
        let binding = try ExpressionTemplate(parsing: "@{a + b * 2 > c ? 'x' : 'y'}")
        let variables = VariableScope(["a": .integer(1), "b": .integer(2), "c": .integer(6)])
        let evaluations = 1_000_000
        var hits = 0
        let swiftTime = measure(runs: 5) {
            for _ in 0..<evaluations where (try? binding.evaluate(in: variables)) == .string("y") { hits += 1 }
        } * 1e6 / Double(evaluations)
        precondition(hits > 0)

        let js = JavaScriptContext()
        let compiled = try js.evaluate("(function (a, b, c) { return a + b * 2 > c ? 'x' : 'y'; })")
        guard let function = JSValueToObject(js.ref, compiled.ref, nil) else { fatalError("no function") }
        JSValueProtect(js.ref, function)
        defer { JSValueUnprotect(js.ref, function) }
        var jsHits = 0
        let jsTime = measure(runs: 5) {
            var arguments: [JSValueRef?] = [nil, nil, nil]
            for _ in 0..<evaluations {
                arguments[0] = JSValueMakeNumber(js.ref, 1)
                arguments[1] = JSValueMakeNumber(js.ref, 2)
                arguments[2] = JSValueMakeNumber(js.ref, 6)
                if let result = try? js.call(function, arguments: arguments), js.string(result) == "y" { jsHits += 1 }
            }
        } * 1e6 / Double(evaluations)
        precondition(jsHits > 0)

        print("Expressions, per evaluation (median of 5 runs of \(evaluations) evaluations)")
        print("  binding a + b * 2 > c ? 'x' : 'y' (parsed once)  \(String(format: "%8.0f", swiftTime)) ns")
        print("  JavaScriptCore, same precompiled JS function      \(String(format: "%8.0f", jsTime)) ns")
        print("  binding / JavaScriptCore                          \(String(format: "%8.2f", swiftTime / jsTime))x")
    }

    /// The running app: a key that changes one label, and a one-line scroll of the peer scene
    /// put inside a `scroll` node — each as key handling, re-render and diff, the path from a
    /// keypress to the bytes of its frame.
    static func runningApp(scene: [UInt8]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The scene with its boxes in a scroll viewport and a key that changes the header.
        var json = try scrollScene(scene)
        json.setValue(.object(JSONObject([("x", .object(JSONObject([("action", .string("set")), ("path", .string("header")),
                                                                      ("value", .string("@{header == 'HybridTerm peer scene' ? 'HybridTerm PEER SCENE' : 'HybridTerm peer scene'}"))])))])),
                      atPath: "keys")
        let file = folder.appendingPathComponent("scene.json")
        try json.jsonText.write(to: file, atomically: true, encoding: .utf8)

        let app = HybridApp()
        app.size = TerminalSize(columns: width, rows: height)
        app.onProblem = { print("  problem: \($0)") }
        try app.open(file: file.path)
        let encoder = FrameEncoder(colors: .trueColor)
        var previous = app.render()
        func frame(after key: String) -> Int {
            app.handle(.key(key))
            let next = app.render()
            defer { previous = next }
            return encoder.encode(from: previous, to: next).count
        }
        print("Running app (the peer scene in a scroll node, \(width)x\(height)), key to frame bytes, medians")
        var labelBytes = 0
        let label = measure(runs: 500) { labelBytes = frame(after: "x") }
        report("one-label update: key, state change, render, diff", label, bytes: labelBytes)
        var scrollBytes = 0
        var down = true
        let scrolled = measure(runs: 500) {
            // Back and forth, one line each time.
            scrollBytes = frame(after: down ? "down" : "up")
            down.toggle()
        }
        report("scroll by one line: key, render, diff", scrolled, bytes: scrollBytes)
    }

    static func residentMegabytes() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// The median milliseconds of `runs` runs of `body` (after up to 20 to warm up), each after
    /// `setUp`, which is not timed.
    static func measure(runs: Int, warmUps: Int? = nil, setUp: () -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
        for _ in 0..<(warmUps ?? min(20, runs)) { setUp(); try body() }
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            setUp()
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return median(samples)
    }

    /// The milliseconds of each of `bodies` in each of `rounds` rounds (`samples[body][round]`),
    /// the bodies taking turns within a round, after one unmeasured round: two figures of one
    /// round were measured under the same conditions, which on a shared machine change from one
    /// second to the next, so a ratio is taken per round (`medianRatio`). Each round starts one
    /// body later, so none always runs after the same one (and collects its garbage).
    static func measureInRounds(_ rounds: Int, _ bodies: [() -> Void]) -> [[Double]] {
        var samples = Array(repeating: [Double](), count: bodies.count)
        for round in 0...rounds {
            for turn in 0..<bodies.count {
                let index = (round + turn) % bodies.count
                let start = DispatchTime.now().uptimeNanoseconds
                bodies[index]()
                if round > 0 { samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            }
        }
        return samples
    }

    /// The middle value of `values` (the upper one of an even count), which must not be empty.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// The median over rounds of `figure / reference`, and the lowest and highest of them.
    static func medianRatio(_ figure: [Double], to reference: [Double]) -> (median: Double, low: Double, high: Double) {
        let ratios = zip(figure, reference).map { $0 / $1 }
        return (median(ratios), ratios.min() ?? 0, ratios.max() ?? 0)
    }

    static func report(_ name: String, _ figure: PeerBench.Figure) {
        report(name, figure.milliseconds, bytes: figure.bytes)
    }

    static func report(_ name: String, _ milliseconds: Double, bytes: Int? = nil) {
        let size = bytes.map(Self.size) ?? ""
        let label = name.padding(toLength: 52, withPad: " ", startingAt: 0)
        print("  \(label) \(String(format: "%8.3f", milliseconds)) ms  \(size)")
    }

    /// A byte count as the tables print it: bytes below 1 KiB, KiB with one decimal above.
    static func size(_ bytes: Int) -> String {
        bytes >= 1024 ? String(format: "%.1f KiB", Double(bytes) / 1024) : "\(bytes) B"
    }
}
