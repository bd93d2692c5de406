import Foundation
import HybridFiles
import TestSupport
import XCTest

/// The file helpers every layer above shares: atomic replacement, locks, folders.
final class FileTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-files")
    }

    func testAtomicWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws {
        let path = folder.appendingPathComponent("nested/deeper/data.json").path
        try AtomicFile.write(Array("first".utf8), to: path)
        try AtomicFile.write(Array("second, longer".utf8), to: path, mode: 0o600)
        XCTAssertEqual(FileBytes.read(path), Array("second, longer".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("nested/deeper").path), ["data.json"])
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, "the mode asked for, whatever the file had")
    }

    /// A path to something that never ends is read up to `maximumSize`, then refused: `hybrid
    /// render /dev/zero` took gigabytes.
    func testAReadStopsAtTheMostAFileMayHold() throws {
        XCTAssertThrowsError(try FileBytes.contents(of: "/dev/zero")) { error in
            XCTAssertEqual("\(error)", "cannot read /dev/zero: it holds more than 64 MiB, the most a file read here may hold")
        }
        let path = folder.appendingPathComponent("exactly").path
        try AtomicFile.write([UInt8](repeating: 7, count: FileBytes.maximumSize), to: path)
        XCTAssertEqual(try FileBytes.contents(of: path).count, FileBytes.maximumSize)
    }

    func testAtomicWriteOfNothingMakesAnEmptyFile() throws {
        let path = folder.appendingPathComponent("empty").path
        try AtomicFile.write([], to: path)
        XCTAssertEqual(FileBytes.read(path), [])
    }

    func testAFailedWriteLeavesTheOldFileAndSaysWhy() throws {
        let path = folder.appendingPathComponent("kept").path
        try AtomicFile.write(Array("old".utf8), to: path)
        // A folder where the file should go cannot be replaced by a rename.
        let blocked = folder.appendingPathComponent("blocked").path
        try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicFile.write(Array("new".utf8), to: blocked)) { error in
            XCTAssertEqual((error as? FileError)?.description.hasPrefix("cannot write \(blocked): "), true, "\(error)")
        }
        XCTAssertEqual(FileBytes.read(path), Array("old".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["blocked", "kept"])
    }

    func testLockedWorkIsNeverInterleaved() throws {
        let lock = folder.appendingPathComponent("sub/counter.lock").path
        let counter = folder.appendingPathComponent("counter").path
        try AtomicFile.write(Array("0".utf8), to: counter)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<25 {
                try? FileLock.withExclusiveLock(on: lock, failure: { $0 }) { () throws(FileError) in
                    let value = Int(String(decoding: FileBytes.read(counter) ?? [], as: UTF8.self)) ?? -1000
                    try AtomicFile.write(Array(String(value + 1).utf8), to: counter)
                }
            }
        }
        XCTAssertEqual(String(decoding: FileBytes.read(counter) ?? [], as: UTF8.self), "200")
    }

    func testALockThatCannotBeTakenIsTheCallersError() {
        struct Refused: Error, Equatable { var message: String }
        let file = folder.appendingPathComponent("file").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertThrowsError(try FileLock.withExclusiveLock(on: file + "/x.lock", failure: { Refused(message: $0.description) }) { () throws(Refused) in
            XCTFail("the body must not run")
        }) { error in
            XCTAssertEqual((error as? Refused)?.message.hasPrefix("cannot create the folder \(file): "), true, "\(error)")
        }
    }

    func testCreateFolderMakesEveryMissingLevel() throws {
        let deep = folder.appendingPathComponent("a/b/c").path
        try FileSystem.createFolder(deep)
        try FileSystem.createFolder(deep)
        XCTAssertEqual(FileSystem.kind(deep), .folder)
        XCTAssertEqual(FileSystem.parentFolder(of: "/a/b/"), "/a")
        XCTAssertEqual(FileSystem.parentFolder(of: "/a"), "/")
        XCTAssertEqual(FileSystem.parentFolder(of: "a"), ".")
    }

    /// Short names included: NSString's path methods trapped on `k` (`hybrid bundle keygen k`).
    func testPathPartsOfShortNames() {
        XCTAssertEqual(FileSystem.parentFolder(of: "k"), ".")
        XCTAssertEqual(FileSystem.lastComponent(of: "k"), "k")
        XCTAssertEqual(FileSystem.lastComponent(of: "a/k/"), "k")
        XCTAssertEqual(FileSystem.lastComponent(of: "/"), "/")
        XCTAssertEqual(FileSystem.join("k", "x"), "k/x")
        XCTAssertEqual(FileSystem.fileExtension(of: "a.b/home.json"), "json")
        XCTAssertEqual(FileSystem.fileExtension(of: "k"), "")
        XCTAssertEqual(FileSystem.fileExtension(of: "a.b/.hidden"), "")
        XCTAssertEqual(FileSystem.fileExtension(of: "k."), "")
    }

    /// The first holder of a shared lock clears; later ones, while it holds, do not.
    func testSharedLockClearsOnlyWhenAlone() throws {
        let path = folder.appendingPathComponent("staging.lock").path
        var cleared = 0
        let first = try SharedFileLock(path: path) { cleared += 1 }
        let second = try SharedFileLock(path: path) { cleared += 1 }
        XCTAssertEqual(cleared, 1)
        first.release()
        second.release()
        _ = try SharedFileLock(path: path) { cleared += 1 }
        XCTAssertEqual(cleared, 2)
    }
}
