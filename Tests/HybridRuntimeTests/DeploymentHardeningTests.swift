import Foundation
import HybridBundles
import HybridEventLoop
import HybridRuntime
import TestSupport
import XCTest

/// What a hostile or slow server, and a user quitting, must not do to start-up (issue 11):
/// hold it past the download deadline, swap the app at a URL, downgrade in silence, condemn a
/// version that never failed, or leave files behind.
extension DeploymentTests {
    func testADrippingServerHoldsStartUpNoLongerThanTheDeadline() async throws {
        try await installFirstVersion()
        let offer = try makeBundle("1.1.0").offer
        serve(offer)
        // A byte every quarter second: never silent long enough for an idle timer.
        var drip = LoopbackHTTPServer.Response(status: 200, bytes: offer.manifest)
        drip.dripInterval = 0.25
        routes["/shop/manifest.json"] = drip
        let (frame, problems) = try await launch(downloadTimeout: 1)
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        XCTAssertTrue(problems.contains { $0.contains("/shop/manifest.json") && $0.contains("did not finish within 1 s") }, "\(problems)")
    }

    func testAnotherAppServedAtTheURLIsRefusedNamingBoth() async throws {
        try await installFirstVersion()
        let other = try makeBundle("2.0.0", app: "other").offer
        for withManifest in [true, false] {
            serve(other, withManifest: withManifest)
            let (frame, problems) = try await launch()
            XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
            XCTAssertTrue(problems.contains { $0.contains("\"other\"") && $0.contains("\"shop\"") && $0.contains(url.absoluteString) }, "\(problems)")
            XCTAssertEqual(cache.installedVersions(of: "other"), [])
        }
        XCTAssertEqual(cache.app(forOrigin: url.absoluteString), "shop")
    }

    func testTheKeptPreviousVersionOfferedAgainIsReported() async throws {
        try await installFirstVersion()
        let first = try makeBundle("1.0.0").offer
        serve(try makeBundle("1.1.0").offer)
        _ = try await launch()
        serve(first)
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.1.0"), frame)
        XCTAssertTrue(problems.contains { $0.contains("1.0.0 is older than the installed 1.1.0") }, "\(problems)")
    }

    /// The run ends (quit, Ctrl-C as a key, the end of a headless run) before the new version
    /// is ready: no failure of its own, so it starts again next time and is judged then.
    func testQuitWhileANewVersionStartsLeavesItUnjudged() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", script: "setTimeout(() => hybrid.ready(), 1000);\n").offer)
        let app = HybridApp(loop: EventLoop(clock: .manual(ManualClock())))
        app.trustedKeys = [key.publicKey]
        app.bundleCache = cache
        app.readyTimeout = 5
        try await app.load(bundle: .url(url))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.startMarker(of: SemanticVersion("1.1.0")!, app: "shop")))
        app.runDidEnd()
        XCTAssertNil(cache.installedVersions(of: "shop").first?.state)
        let (frame, problems) = try await launch(readyTimeout: 5)
        XCTAssertTrue(frame.hasPrefix("v1.1.0"), "\(frame) \(problems)")
        XCTAssertEqual(cache.bootRecord(of: "shop").versions["1.1.0"]?.state, .healthy)
    }

    func testLeftoversOfInterruptedInstallsAreCleared() async throws {
        try await installFirstVersion()
        // What a killed download and a killed unpack leave.
        try FileManager.default.createDirectory(atPath: cache.stagingFolder + "/.hbundle-staging-Ab12Cd/screens", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: cache.stagingFolder + "/download-1.hbundle", contents: Data(count: 500_000)))
        serve(try makeBundle("1.1.0").offer)
        let (frame, _) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.1.0"), frame)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.stagingFolder), [])
    }

    func testTheBootRecordForgetsVersionsThatAreGone() async throws {
        try await installFirstVersion()
        for version in ["1.1.0", "1.2.0"] {
            serve(try makeBundle(version).offer)
            _ = try await launch()
        }
        XCTAssertEqual(cache.installedVersions(of: "shop").map(\.version.description), ["1.2.0", "1.1.0"])
        XCTAssertEqual(Set(cache.bootRecord(of: "shop").versions.keys), ["1.1.0", "1.2.0"])
        // A bad version newer than every good one keeps its mark, which refuses it next time
        // (installing it removed 1.1.0: two versions are kept).
        serve(try makeBundle("1.3.0", script: "throw new Error('boom');\n").offer)
        _ = try await launch()
        XCTAssertEqual(Set(cache.bootRecord(of: "shop").versions.keys), ["1.2.0", "1.3.0"])
        XCTAssertEqual(cache.bootRecord(of: "shop").versions["1.3.0"]?.state, .bad)
    }
}
