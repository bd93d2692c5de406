import Foundation
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

    /// Reads of a damaged file say so; the next write moves it aside (nothing lost) and starts afresh.
    func testADamagedFileIsReportedThenMovedAsideOnWrite() throws {
        for damage in [#"{"a": 1,"#, #"[1, 2]"#] {
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
            XCTAssertEqual(try store.keys(), ["b"])
            let damaged = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("storage.json.damaged-") }
            XCTAssertEqual(damaged.count, 1, "\(damaged)")
            let kept = try String(contentsOf: folder.appendingPathComponent(damaged[0]), encoding: .utf8)
            XCTAssertEqual(kept, damage)
            // Moved aside once: later writes just write.
            try store.set(.integer(2), for: "c")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("storage.json.damaged-") }.count, 1)
        }
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
