import Foundation
import HybridHTTP
import AsyncHTTPClient
import NIOCore
import HybridTerm
import Synchronization

/// The network layer's figures (BENCHMARKS.md), each against a reference measured in the same
/// run: a cache hit through `api.call` against `hybrid.call` of a sync service answering the
/// same object; a miss against a loopback server against Python's `http.client` asking that
/// server the same; 100 concurrent calls of a `dedupe` API (one request). The server and the
/// Python client are `scripts/bench-http.py`; without `python3` the section is skipped.
enum NetworkBench {
    static func run() {
        guard let server = try? Python.start(["scripts/bench-http.py", "serve"]),
              let portLine = server.readLine(), portLine.hasPrefix("port "), let port = Int(portLine.dropFirst(5)) else {
            print("Network: skipped (needs python3 and scripts/bench-http.py, run from the repository)")
            return
        }
        defer { server.process.terminate() }
        let text = """
        { "services": { "bench": { "baseURL": "http://127.0.0.1:\(port)" } },
          "apis": { "items.cached": { "service": "bench", "path": "/items", "cache": { "ttl": 3600 } },
                    "items.fresh": { "service": "bench", "path": "/items" },
                    "items.shared": { "service": "bench", "path": "/items", "inFlight": "dedupe" } } }
        """
        guard let definitions = APIDefinitions.load(SourceText(name: "bench-apis.json", text: text)).value else { return }
        let client = APIClient(definitions: definitions)
        let services = ServiceRegistry()
        BundleAPIs.register(client, in: services)
        let runtime = ScriptRuntime(services: services, timeLimit: 600)

        // The answer a hit gives, answered by a sync service for the reference.
        runtime.evaluate("api.call('items.cached').then((answer) => { globalThis.kept = answer; })")
        runtime.loop.run(untilIdle: true)
        guard let kept = runtime.evaluate("kept") else { return }
        services.register("bench.answer") { (_: JSONValue) in kept }

        runtime.evaluate("""
        globalThis.chain = async (call, n) => { for (let i = 0; i < n; i++) await call(); };
        globalThis.together = (n) => Promise.all(Array.from({ length: n }, () => api.call('items.shared')));
        """)
        func perCall(_ call: String, _ count: Int, runs: Int) -> Double {
            Bench.measure(runs: runs) {
                runtime.evaluate("chain(\(call), \(count))")
                runtime.loop.run(untilIdle: true)
            } * 1000 / Double(count)
        }
        print("Network (api.call from a script; medians)")
        let hit = perCall("() => api.call('items.cached')", 2_000, runs: 7)
        let sync = perCall("() => hybrid.call('bench.answer', null)", 2_000, runs: 7)
        print("  cache hit through api.call, awaited        \(format(hit)) µs  (\(String(format: "%.2f", hit / sync))x hybrid.call of a sync service answering the same object: \(format(sync)) µs)")

        let miss = perCall("() => api.call('items.fresh')", 200, runs: 5)
        let python = (0..<5).compactMap { _ in Python.output(["scripts/bench-http.py", "client", "http://127.0.0.1:\(port)/items", "200"]).flatMap(Double.init) }
        if let reference = python.isEmpty ? nil : Bench.median(python) * 1000 {
            print("  cache miss, loopback server, awaited       \(format(miss)) µs  (\(String(format: "%.2f", miss / reference))x Python http.client on the same server: \(format(reference)) µs)")
        }
        // Where a miss goes: the client called from Swift, and the transport alone.
        let url = URL(string: "http://127.0.0.1:\(port)/items")!
        let fromSwift = inTask(200, runs: 5) { _ = try? await client.call("items.fresh", params: .null) }
        let transport = inTask(200, runs: 5) {
            let request = HTTPTransport.Request(url: url, headers: [("Accept", "application/json")], timeout: .seconds(10), bodyLimit: 1 << 20)
            _ = try? await HTTPTransport.shared.send(request)
        }
        print("    of which APIClient.call from Swift       \(format(fromSwift)) µs")
        print("    of which HTTPTransport.send              \(format(transport)) µs")
        let raw = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let rawTime = inTask(200, runs: 5) {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "application/json")
            if let response = try? await raw.execute(request, timeout: .seconds(10)) { _ = try? await response.body.collect(upTo: 1 << 20) }
        }
        try? raw.syncShutdown()
        print("    raw AsyncHTTPClient execute + collect    \(format(rawTime)) µs  (the client under HTTPTransport, alone)")

        _ = Python.output(["scripts/bench-http.py", "count", String(port)])
        let rounds = 5
        let together = Bench.measure(runs: rounds) {
            runtime.evaluate("together(100)")
            runtime.loop.run(untilIdle: true)
        }
        // `measure` warms up with as many rounds as it measures.
        let requests = Python.output(["scripts/bench-http.py", "count", String(port)]) ?? "?"
        print("  100 concurrent calls of a dedupe API       \(String(format: "%8.3f", together)) ms  (\(requests) requests for \(2 * rounds) rounds of 100 calls)")
    }

    /// The median over `runs` of the mean microseconds of `count` sequential awaits of `body`,
    /// timed inside one task (no hop between them).
    private static func inTask(_ count: Int, runs: Int, _ body: @escaping @Sendable () async -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<runs + 1 {
            let done = DispatchSemaphore(value: 0)
            let elapsed = Mutex(0.0)
            Task {
                let start = ContinuousClock.now
                for _ in 0..<count { await body() }
                let time = ContinuousClock.now - start
                elapsed.withLock { $0 = Double(time.components.seconds) * 1e6 + Double(time.components.attoseconds) / 1e12 }
                done.signal()
            }
            done.wait()
            samples.append(elapsed.withLock { $0 } / Double(count))
        }
        return samples.dropFirst().sorted()[runs / 2]
    }

    private static func format(_ microseconds: Double) -> String {
        String(format: "%8.1f", microseconds)
    }
}

/// `python3` as a child process.
enum Python {
    final class Running {
        let process: Process
        let output: FileHandle
        init(process: Process, output: FileHandle) {
            self.process = process
            self.output = output
        }

        /// The next line it printed.
        func readLine() -> String? {
            var bytes: [UInt8] = []
            while let byte = try? output.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") { bytes.append(first) }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }

    static func start(_ arguments: [String]) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return Running(process: process, output: pipe.fileHandleForReading)
    }

    /// What it printed, trimmed, once it ended successfully.
    static func output(_ arguments: [String]) -> String? {
        guard let running = try? start(arguments) else { return nil }
        let data = running.output.readDataToEndOfFile()
        running.process.waitUntilExit()
        guard running.process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
