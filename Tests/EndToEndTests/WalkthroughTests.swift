import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The README's walkthroughs, each run as written (the block between its markers) with bash:
/// only the wrapper scripts become the built products and port 8080 a free one, and it runs in
/// a scratch folder holding the repository's samples and scripts.
final class WalkthroughTests: XCTestCase {
    func testTheReadmeWalkthroughFixesTheTotal() throws {
        let (text, folder) = try run(marker: "walkthrough")
        // Step 1 prints the shipped frame, step 3 the fixed one.
        let totals = text.split(separator: "\n").filter { $0.contains("Total (Cart.total)") }
        XCTAssertEqual(totals.count, 2, text)
        XCTAssertTrue(totals.first?.hasSuffix("€ 16.50") ?? false, text)
        XCTAssertTrue(totals.last?.hasSuffix("€ 26.00") ?? false, text)
        XCTAssertTrue(text.contains("1.0.1 · hot fix"), text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cache/hybridterm/shop/1.0.1").path))
    }

    func testTheReadmeStoreWalkthroughSharesTheStoreBetweenScreens() throws {
        let (text, _) = try run(marker: "store-walkthrough")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertEqual(lines, ["counter: ok", "Detail sees 12", "Count 12 on linux"], text)
    }

    /// The catalog against scripts/sample-api.py: shipped prices in cents, a call queued while
    /// the server is down and sent once when it is back, and the signed hot fix's prices.
    func testTheReadmeCatalogWalkthroughQueuesOfflineAndHotFixesTheReformer() throws {
        let (text, _) = try run(marker: "catalog-walkthrough")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains("Sencha                                                          €950"), text)
        XCTAssertTrue(lines.contains("Tieguanyin                                                     €1600"), "the second page is appended: \(text)")
        XCTAssertTrue(lines.contains("offline: earl-grey waits in the outbox"), text)
        let posts = lines.filter { $0.hasPrefix("POST /v1/cart") }
        XCTAssertEqual(posts.count, 1, "sent once: \(text)")
        let fields = posts.first?.split(separator: " ") ?? []
        XCTAssertEqual(fields.count, 6, text)
        if fields.count == 6 { XCTAssertEqual(fields[2].dropFirst("id=".count), fields[3].dropFirst("key=".count), "its Idempotency-Key is its request id") }
        XCTAssertTrue(lines.contains { $0.hasSuffix("cart 1") }, text)
        XCTAssertTrue(lines.contains("Sencha                                                         €9.50"), "the hot fix's reformer: \(text)")
    }

    /// The notes sample through three versions: a note added by version 1 is on its list,
    /// version 2 migrates (tags) and keeps it, version 3 migrates, fails to start, and the
    /// database goes back to what version 2 left, which runs on.
    func testTheReadmeNotesWalkthroughMigratesAndRollsBackWithTheData() throws {
        let (text, _) = try run(marker: "notes-walkthrough")
        // Each frame, from its header to its footer (the pack lines between runs left out).
        let frames = text.components(separatedBy: " Notes ").dropFirst().map { frame in
            let lines = frame.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return Array(lines.prefix { !$0.contains("ctrl+n new note") })
        }
        XCTAssertEqual(frames.count, 3, text)
        guard frames.count == 3 else { return }
        let titles = { (frame: [String]) in frame.dropFirst(2).map { String($0.prefix { $0 != " " }) } }
        XCTAssertEqual(titles(frames[0]), ["Matcha", "Shopping", "Assam", "Sencha"], text)
        XCTAssertTrue(frames[1].contains { $0.hasPrefix("Matcha") && $0.contains("#tea") }, "version 2 tags the note version 1 added: \(text)")
        XCTAssertEqual(frames[2], frames[1], "version 3 failed; version 2 runs on the data it left: \(text)")
    }

    /// Runs the README block between `<!-- MARKER -->` and `<!-- /MARKER -->` with bash, as
    /// written but for the wrapper scripts (the built products) and port 8080 (a free one), in a
    /// scratch folder holding the repository's samples; answers its standard output and folder.
    private func run(marker: String) throws -> (output: String, folder: URL) {
        let readme = try String(contentsOf: CommandRunner.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "<!-- \(marker) -->"), let end = readme.range(of: "<!-- /\(marker) -->") else {
            XCTFail("README.md has no \(marker) markers")
            return ("", URL(fileURLWithPath: "/"))
        }
        let products = CommandRunner.productsFolder.path
        let script = readme[start.upperBound..<end.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("```") }
            .joined(separator: "\n")
            .replacingOccurrences(of: "./shop-demo.sh", with: products + "/shop-demo")
            .replacingOccurrences(of: "./hybrid.sh", with: products + "/hybrid")
            .replacingOccurrences(of: "8080", with: String(try freePort()))
        let folder = try makeTemporaryDirectory("walkthrough")
        for shared in ["samples", "scripts"] {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(shared),
                                                       withDestinationURL: CommandRunner.repository.appendingPathComponent(shared))
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-e", "-c", script]
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
             "SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let output = folder.appendingPathComponent("out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("err").path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("err"))
        try process.run()
        process.waitUntilExit()
        let errors = (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? ""
        XCTAssertEqual(process.terminationStatus, 0, errors)
        return (try String(contentsOf: output, encoding: .utf8), folder)
    }

    /// A port nothing listens on now (bound to 0, read, closed).
    private func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
