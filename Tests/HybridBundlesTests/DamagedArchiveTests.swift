import Foundation
import HybridBundles
import TestSupport
import XCTest

/// Archives damaged inside an entry's compressed data (what a fuzzer finds first): every one is
/// refused, located, with nothing staged — never a read that goes on for ever. Reading is
/// bounded by the entry's own compressed bytes and the sizes the signed manifest lists.
final class DamagedArchiveTests: SigningTestCase {
    /// Where each entry's compressed data lies in a ZIP: `(name, offset, count)`.
    private func compressedData(in bytes: [UInt8]) -> [(name: String, offset: Int, count: Int)] {
        var found: [(String, Int, Int)] = []
        var offset = 0
        func number(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        while offset + 30 <= bytes.count, number(offset, 4) == 0x0403_4b50 {
            let nameCount = number(offset + 26, 2)
            let data = offset + 30 + nameCount + number(offset + 28, 2)
            let name = String(decoding: bytes[(offset + 30)..<(offset + 30 + nameCount)], as: UTF8.self)
            found.append((name, data, number(offset + 18, 4)))
            offset = data + number(offset + 18, 4)
        }
        return found
    }

    /// One byte changed, anywhere in any entry's compressed data, of the manifest (read before
    /// the signature is checked) as of the files: a clear refusal every time.
    func testEveryDamagedByteOfCompressedDataIsRefused() throws {
        try pack(archive: true)
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: archivePath)))
        let entries = compressedData(in: good)
        XCTAssertEqual(Set(entries.map(\.name)), ["manifest.json", "manifest.sig", "main.js", "screens/home.json"])
        var refusals = 0
        var unread = 0
        for entry in entries {
            for position in entry.offset..<(entry.offset + entry.count) {
                for damage: UInt8 in [0xFF, 0x01] {
                    var bytes = good
                    bytes[position] ^= damage
                    do {
                        // Only bits inflating never reads (padding, as after a stream's last
                        // block) can change and still verify: the signature and every hash
                        // then vouch that the content is the signed one.
                        let verified = try verifier.verifyArchive(bytes: bytes, name: "damaged.hbundle", stagingParent: staging)
                        verified.removeStaging()
                        unread += 1
                    } catch {
                        refusals += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(refusals, 100)
        XCTAssertLessThanOrEqual(unread, entries.count * 2)
        XCTAssertEqual(try stagingLeftovers(), [])
    }

    /// On disk, as `bundle verify` reads it: the entry is named and the archive is not trusted.
    func testDamagedEntryOnDiskIsNamed() throws {
        try pack(archive: true)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: archivePath)))
        let manifest = try XCTUnwrap(compressedData(in: bytes).first { $0.name == "manifest.json" })
        // The stream's last bytes cut off: inflating wants input the entry does not have.
        for position in (manifest.offset + manifest.count - 4)..<(manifest.offset + manifest.count) { bytes[position] = 0 }
        let damaged = base.appendingPathComponent("damaged.hbundle").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let error = bundleError { try verifier.verifyArchive(damaged, stagingParent: staging) }
        XCTAssertEqual(error?.file, "manifest.json", error?.description ?? "")
        XCTAssertEqual(try stagingLeftovers(), [])
    }

    /// A deflate stream that has not ended when its entry's bytes do (a stored block claiming
    /// the rest of the file, then no final block): the read stops at the entry's last byte.
    func testAStreamThatDoesNotEndWithinItsEntryIsRefused() throws {
        func le(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let name = Array("manifest.json".utf8)
        let rest = 46 + name.count + 22
        let data: [UInt8] = [0x00] + le(rest, 2) + le(rest ^ 0xFFFF, 2)
        let local = le(0x0403_4b50, 4) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 8) + le(data.count, 4) + le(rest, 4)
            + le(name.count, 2) + le(0, 2) + name + data
        let central = le(0x0201_4b50, 4) + le(0x031E, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 8) + le(data.count, 4) + le(rest, 4)
            + le(name.count, 2) + le(0, 6) + le(0, 2) + le(0o100644 << 16, 4) + le(0, 4) + name
        let end = le(0x0605_4b50, 4) + le(0, 4) + le(1, 2) + le(1, 2) + le(central.count, 4) + le(local.count, 4) + le(0, 2)
        let archive = local + central + end
        let error = bundleError { try verifier.verifyArchive(bytes: archive, stagingParent: staging) }
        XCTAssertEqual(error?.description, "manifest.json: cannot be read from the archive: its compressed data is damaged or truncated")
        let path = base.appendingPathComponent("endless.hbundle").path
        try Data(archive).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(bundleError { try verifier.verifyArchive(path, stagingParent: staging) }?.kind, .damagedArchive)
    }

    /// Random damage anywhere — headers, directory, sizes, offsets — as a fuzzer would do it
    /// (a fixed seed, so every run tries the same archives): each one answers, none traps.
    func testRandomDamageAnywhereAlwaysAnswers() throws {
        try pack(archive: true)
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: archivePath)))
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { random.next(bound) }
        var accepted = 0
        for _ in 0..<2_000 {
            var bytes = good
            for _ in 0...next(4) { bytes[next(bytes.count)] = UInt8(next(256)) }
            if next(8) == 0 { bytes.removeLast(next(bytes.count)) }
            if let verified = try? verifier.verifyArchive(bytes: bytes, stagingParent: staging) {
                verified.removeStaging()
                accepted += 1
            }
        }
        // Only damage the signed content never reads (names of unread fields, padding) passes.
        XCTAssertLessThan(accepted, 2_000)
        XCTAssertEqual(try stagingLeftovers(), [])
    }
}
