import Foundation
import HybridBridge
import HybridJSON
import HybridServices
import XCTest

/// Runs scripts from a temporary folder against a registry, collecting console lines and
/// reported failures.
final class ScriptHarness {
    let folder: URL
    let services: ServiceRegistry
    let runtime: ScriptRuntime
    private(set) var output: [String] = []
    private(set) var failures: [String] = []

    init(services: ServiceRegistry = ServiceRegistry(), permissions: Set<String>? = nil, timeLimit: Double = 1) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.services = services
        runtime = ScriptRuntime(services: services, caller: ServiceCaller(name: "test", permissions: permissions), timeLimit: timeLimit)
        runtime.console = { [unowned self] level, text in self.output.append(level == "log" ? text : "\(level): \(text)") }
        runtime.onError = { [unowned self] error in self.failures.append(error.report) }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `files` (relative path → source) into the folder.
    func write(_ files: [String: String]) throws {
        for (path, source) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Writes `main.js` (and other files), runs it and the loop until idle.
    @discardableResult
    func run(_ main: String, files: [String: String] = [:]) throws -> [String] {
        try write(files.merging(["main.js": main]) { $1 })
        runtime.runMain(path: folder.appendingPathComponent("main.js").path)
        runtime.loop.run(untilIdle: true)
        return output
    }

    /// The path of a file in the folder, as errors print it.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A strict-mode script's first lines, for tests of how globals are defined: `describe(name)`
    /// gives the global's descriptor as "configurable enumerable has-no-setter", and
    /// `refused(fn)` the name of the error `fn` throws, or "allowed".
    static let globalProbes = """
    'use strict';
    const describe = (name) => {
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
      return [descriptor.configurable, descriptor.enumerable, descriptor.set === undefined].join(' ');
    };
    const refused = (what) => { try { what(); return 'allowed'; } catch (error) { return error.name; } };

    """
}

/// Test services covering sync, async, permissions and failures.
struct Item: Codable, Sendable, Equatable {
    var sku: String
    var price: Double
    var qty: Int
    var note: String?
}

func testRegistry() -> ServiceRegistry {
    let services = ServiceRegistry()
    services.register("test.echo") { (value: JSONValue) in value }
    services.register("cart.add", permission: "cart") { (item: Item) in ["total": item.price * Double(item.qty)] }
    services.register("test.later") { (request: Later) async throws -> String in
        try await Task.sleep(nanoseconds: UInt64(request.ms) * 1_000_000)
        return "after \(request.ms) ms"
    }
    services.register("test.fail") { (_: Empty) -> String in
        throw ServiceError(.failed, "test.fail failed: the disk is full")
    }
    // Orders async answers without a clock: test.gate answers once test.open was called.
    let gate = Gate()
    services.register("test.gate") { (_: Empty) async -> String in
        await gate.wait()
        return "the gate opened"
    }
    services.register("test.open") { (_: Empty) -> Empty in
        gate.open()
        return Empty()
    }
    return services
}

/// Holds callers back until it opens.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = lock.withLock {
                if !isOpen { waiting.append(continuation) }
                return isOpen
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let released = lock.withLock {
            isOpen = true
            defer { waiting.removeAll() }
            return waiting
        }
        for continuation in released { continuation.resume() }
    }
}

struct Later: Codable, Sendable {
    var ms: Int
}
