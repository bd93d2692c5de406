import Foundation
import HybridFiles
import HybridJSON
import HybridServices
import TestSupport
import XCTest

final class StorageTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-storage")
    }

    /// Two stores over one folder (as two processes would be) writing at once lose nothing:
    /// the lock file makes each read-modify-write whole.
    func testConcurrentWritersLoseNothing() throws {
        let writes = 200
        let failures = Failures()
        let folder = folder!
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let store = KeyValueStore(folder: folder)
            for index in 0..<writes {
                do {
                    try store.set(.integer(index), for: "w\(writer)-\(index)")
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        XCTAssertEqual(failures.all, [])
        let keys = try KeyValueStore(folder: folder).keys()
        XCTAssertEqual(keys.count, 2 * writes)
        XCTAssertEqual(Set(keys), Set((0..<2).flatMap { writer in (0..<writes).map { "w\(writer)-\($0)" } }))
        XCTAssertEqual(try KeyValueStore(folder: folder).value(for: "w1-199"), .integer(199))
    }

    /// Reads of a damaged file say so; the next write moves it aside (nothing lost) and goes on
    /// with the keys that can still be read.
    func testADamagedFileIsReportedThenMovedAsideOnWrite() throws {
        for (damage, readable) in [(#"{"a": 1,"#, ["a"]), (#"[1, 2]"#, [])] {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = KeyValueStore(folder: folder)
            try Data(damage.utf8).write(to: store.file)
            XCTAssertThrowsError(try store.value(for: "a")) { error in
                let message = (error as? ServiceError)?.message ?? "\(error)"
                XCTAssertTrue(message.hasPrefix("storage: \(store.file.path) is damaged ("), message)
                XCTAssertEqual((error as? ServiceError)?.code, .failed)
            }
            XCTAssertThrowsError(try store.keys())
            try store.set(.string("fresh"), for: "b")
            XCTAssertEqual(try store.keys(), readable + ["b"])
            let damaged = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("storage.json.damaged-") }
            XCTAssertEqual(damaged.count, 1, "\(damaged)")
            let kept = try String(contentsOf: folder.appendingPathComponent(damaged[0]), encoding: .utf8)
            XCTAssertEqual(kept, damage)
            // Moved aside once: later writes just write.
            try store.set(.integer(2), for: "c")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("storage.json.damaged-") }.count, 1)
        }
    }

    /// Issue 11: one value too deep to read back cost every key of the app. Now each member is
    /// read on its own: only the bad one is lost (and the whole file is kept aside).
    func testADamagedFileCostsOnlyTheKeysThatCannotBeRead() throws {
        let store = KeyValueStore(folder: folder)
        let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let damage = #"{"first": {"x": [1, "}"]}, "deep": \#(tooDeep), "broken": [1,,2], "last": "kept"}"#
        try Data(damage.utf8).write(to: store.file)
        try store.set(.integer(1), for: "new")
        XCTAssertEqual(try store.keys(), ["first", "last", "new"])
        XCTAssertEqual(try store.value(for: "first"), .object(JSONObject([("x", .array([.integer(1), .string("}")]))])))
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("storage.json.damaged-") }
        XCTAssertEqual(try aside.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }, [damage])
    }

    /// Issue 11: what cannot be read back is refused when written, and the store stays readable.
    func testAValueTooDeepToReadBackIsRefusedOnWrite() throws {
        let store = KeyValueStore(folder: folder)
        try store.set(.integer(1), for: "other")
        func nested(_ levels: Int) -> JSONValue { (0..<levels).reduce(JSONValue.null) { inner, _ in .array([inner]) } }
        XCTAssertThrowsError(try store.set(nested(KeyValueStore.maximumValueDepth + 1), for: "deep")) { error in
            XCTAssertEqual((error as? ServiceError)?.code, .badParams)
        }
        XCTAssertThrowsError(try store.set(nested(20_000), for: "deeper"))
        try store.set(nested(KeyValueStore.maximumValueDepth), for: "deepest")
        XCTAssertEqual(try store.keys(), ["other", "deepest"])
        XCTAssertEqual(try store.value(for: "deepest"), nested(KeyValueStore.maximumValueDepth))
    }

    func testAnUnreadableFileIsNotTakenForAnEmptyOne() throws {
        guard getuid() != 0 else { throw XCTSkip("root reads every file") }
        let store = KeyValueStore(folder: folder)
        try store.set(.integer(1), for: "kept")
        chmod(store.file.path, 0)
        defer { chmod(store.file.path, 0o600) }
        XCTAssertThrowsError(try store.set(.integer(2), for: "other"))
        chmod(store.file.path, 0o600)
        XCTAssertEqual(try store.value(for: "kept"), .integer(1))
    }

    /// A file too large to read whole (every call would parse it: 300 MB ended the app at every
    /// start) fails each call with a clear error, writes included, and stays as it is.
    func testAFileTooLargeToReadFailsEveryCallAndIsKept() throws {
        let store = KeyValueStore(folder: folder)
        try store.set(.integer(1), for: "kept")
        let padding = String(repeating: " ", count: FileBytes.maximumSize)
        try Data(("{\"kept\": 1," + padding + "\"big\": 2}").utf8).write(to: store.file)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: store.file.path)[.size] as? Int)
        XCTAssertThrowsError(try store.value(for: "kept")) { error in
            XCTAssertEqual("\(error)", "E_FAILED: storage: cannot read \(store.file.path): it holds more than 64 MiB, the most a file read here may hold")
        }
        XCTAssertThrowsError(try store.set(.integer(2), for: "other"))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: store.file.path)[.size] as? Int, size)
    }

    func testForAppRejectsNamesThatLeaveTheFolder() throws {
        let environment = ["XDG_DATA_HOME": folder.path]
        for name in ["../x", "..", ".", "", ".hidden", "a/b", "/etc", "a\\b"] {
            XCTAssertThrowsError(try KeyValueStore.forApp(name, environment: environment), name) { error in
                XCTAssertEqual((error as? ServiceError)?.code, .badParams, name)
            }
        }
        let store = try KeyValueStore.forApp("shop.v2", environment: environment)
        XCTAssertEqual(store.file.path, folder.appendingPathComponent("hybridterm/shop.v2/storage.json").path)
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
