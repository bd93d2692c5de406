import Foundation
import HybridTerm

/// `hybrid-bench [SCENE.json]`: medians of the rendering pipeline on the peer benchmark scene
/// at 120x40 (see BENCHMARKS.md). Run it built for release:
/// `swift run -c release hybrid-bench`.
@main
enum Bench {
    static let width = 120
    static let height = 40

    static func main() throws {
        let path = CommandLine.arguments.dropFirst().first ?? "samples/peer-scene.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
            exit(1)
        }
        let bytes = Array(data)
        let encoder = FrameEncoder(colors: .trueColor)
        print("HybridTerm rendering benchmark: \(path) (\(bytes.count) bytes) at \(width)x\(height), medians")

        // First frame: parse, decode, lay out, draw, diff against an unknown screen.
        var firstFrameBytes = 0
        let firstFrame = measure(runs: 200) {
            let load = ScreenDocument.load(SourceText(name: path, bytes: bytes))
            let renderer = ScreenRenderer(document: load.document!)
            let frame = renderer.render(state: load.document!.state, width: width, height: height)
            firstFrameBytes = encoder.encode(from: nil, to: frame.buffer).count
        }
        report("first frame (JSON parse + layout + render + diff)", firstFrame, bytes: firstFrameBytes)
        let parse = measure(runs: 200) { _ = try? JSONParser.parse(bytes) }
        report("  of which JSON parse", parse)
        let decode = measure(runs: 200) { _ = ScreenDocument.load(SourceText(name: path, bytes: bytes)) }
        report("  of which JSON parse + decode", decode)

        let document = ScreenDocument.load(SourceText(name: path, bytes: bytes)).document!
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
        report("one-label update (state change, re-render, diff)", update, bytes: updateBytes)

        var repaintBytes = 0
        let repaint = measure(runs: 2000) {
            repaintBytes = encoder.encode(from: nil, to: previous).count
        }
        report("full repaint (every cell)", repaint, bytes: repaintBytes)

        let binding = try ExpressionTemplate(parsing: "@{a + b * 2 > c ? 'x' : 'y'}")
        let variables = VariableScope(["a": .integer(1), "b": .integer(2), "c": .integer(6)])
        let evaluations = 100_000
        var hits = 0
        let evaluation = measure(runs: 20) {
            for _ in 0..<evaluations where (try? binding.evaluate(in: variables)) == .string("y") { hits += 1 }
        }
        precondition(hits > 0)
        print("  \("expression a + b * 2 > c ? 'x' : 'y'".padding(toLength: 52, withPad: " ", startingAt: 0)) \(String(format: "%8.0f", evaluation * 1e6 / Double(evaluations))) ns per evaluation")
    }

    /// The median wall time of `runs` calls, after a few warm-up calls.
    static func measure(runs: Int, _ body: () -> Void) -> Double {
        for _ in 0..<min(20, runs) { body() }
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func report(_ name: String, _ milliseconds: Double, bytes: Int? = nil) {
        let size = bytes.map { $0 >= 1024 ? String(format: "%.1f KiB", Double($0) / 1024) : "\($0) B" } ?? ""
        let label = name.padding(toLength: 52, withPad: " ", startingAt: 0)
        print("  \(label) \(String(format: "%8.3f", milliseconds)) ms  \(size)")
    }
}
