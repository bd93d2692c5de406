import Foundation
import HybridJSON
import HybridTerminal

/// The services every app has (SPEC §3): `device.info`, `storage.*`, `net.request`.
public enum BuiltInServices {
    /// The runtime's version (what `hybrid --version` prints).
    public static let version = "0.1.0"
    /// The runtime's name and version, as `device.info` reports it.
    public static let runtime = "HybridTerm/" + version

    /// Registers the built-in services for `app` into `registry`.
    /// - Parameters:
    ///   - storage: where `storage.*` keeps this app's values.
    ///   - screenSize: the terminal's current size in cells, for `device.info`.
    public static func register(in registry: ServiceRegistry, storage: KeyValueStore,
                                screenSize: @escaping @Sendable () -> TerminalSize) {
        registry.register("device.info", summary: "the platform, terminal size and runtime") { (_: Empty) in
            let size = screenSize()
            return DeviceInfo(platform: Self.platform, columns: size.columns, rows: size.rows, runtime: runtime)
        }
        registry.register("storage.set", permission: "storage", summary: "stores a value under a key, persistently") { (request: StorageSet) -> JSONValue in
            try storage.set(request.value, for: request.key)
            return .null
        }
        registry.register("storage.get", permission: "storage", summary: "the value stored under a key, or null") { (request: StorageKey) in
            try storage.value(for: request.key) ?? .null
        }
        registry.register("storage.remove", permission: "storage", summary: "forgets a key") { (request: StorageKey) -> JSONValue in
            try storage.remove(request.key)
            return .null
        }
        registry.register("storage.keys", permission: "storage", summary: "every stored key") { (_: Empty) in
            try storage.keys()
        }
        // The transport stops the request at its own `timeout` (default 30 s), so the registry adds
        // none: a script asking for `timeout: 60` gets 60 s.
        registry.register("net.request", permission: "net.request", summary: "an HTTP(S) request", timeout: nil) { (request: HTTPRequest) async throws in
            try await NetRequest.send(request)
        }
    }

    static var platform: String {
        #if os(Linux)
        "linux"
        #elseif os(macOS)
        "macos"
        #else
        "unknown"
        #endif
    }
}

struct DeviceInfo: Codable, Sendable {
    var platform: String
    var columns: Int
    var rows: Int
    var runtime: String
}

struct StorageKey: Codable, Sendable {
    var key: String
}

struct StorageSet: Codable, Sendable {
    var key: String
    var value: JSONValue
}
