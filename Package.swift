// swift-tools-version:6.0
import PackageDescription

/// The rendering path's modules let the modules above them specialize their generic code
/// (the decoders' `inKey`, `required` and friends run once per field of a large screen).
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "HybridTerm",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "hybrid", targets: ["HybridCLI"]),
        .executable(name: "hybrid-bench", targets: ["HybridBench"]),
        .executable(name: "shop-demo", targets: ["ShopDemo"]),
        .executable(name: "hybrid-fuzz", targets: ["HybridFuzzer"]),
        .library(name: "HybridTerm", targets: ["HybridTerm"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Layer 0: values and text, and files.
        // The 64-byte scan that skims past unparsed node lists (`JSONSkim`), in C for SSE2.
        .target(name: "CJSONScan"),
        .target(name: "HybridJSON", dependencies: ["CJSONScan"], swiftSettings: crossModule),
        .target(name: "HybridFiles"),
        // `testRegex` calls the ICU that Foundation ships on Linux, for its match time limit.
        .target(name: "HybridExpressions", dependencies: ["HybridJSON"], swiftSettings: crossModule,
                linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]),
        .target(name: "HybridCells", swiftSettings: crossModule),
        .target(name: "HybridEventLoop"),
        // Layer 1: geometry, and the vocabulary of screen documents (bound values, actions, styles).
        .target(name: "HybridLayout", dependencies: ["HybridCells"], swiftSettings: crossModule),
        .target(name: "HybridDocument", dependencies: ["HybridJSON", "HybridExpressions", "HybridLayout"], swiftSettings: crossModule),
        // Layer 2: drawing and output.
        .target(name: "HybridTerminal", dependencies: ["HybridCells"], swiftSettings: crossModule),
        .target(name: "HybridWidgets", dependencies: ["HybridDocument", "HybridExpressions", "HybridLayout", "HybridCells", "HybridFiles"]),
        // The JavaScript engine.
        // Its C API, loaded with dlopen when the first context is made (Debian's
        // libjavascriptcoregtk-4.1-0), so programs that run no script never load it.
        .target(name: "CJavaScriptCore", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "HybridJavaScript", dependencies: ["CJavaScriptCore", "HybridJSON"]),
        // The data layer's network half (SPEC §7.1): API definitions declared in a bundle.
        .target(name: "HybridNetwork", dependencies: ["HybridJSON", "HybridFiles", "HybridHTTP", .product(name: "Crypto", package: "swift-crypto")]),
        // The data layer's database half (SPEC §7.3): one SQLite file per app through GRDB.
        .target(name: "HybridDatabase", dependencies: [
            "HybridJSON", "HybridFiles", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // HTTP for the whole process: one shared AsyncHTTPClient behind a small transport
        // (deadline, body cap, redirects checked hop by hop, errors in words).
        .target(name: "HybridHTTP", dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // Native services scripts call, and the bridge that runs scripts against them.
        .target(name: "HybridServices", dependencies: [
            "HybridJSON", "HybridFiles", "HybridTerminal", "HybridHTTP", .product(name: "Logging", package: "swift-log"),
        ]),
        // Its JavaScript (JavaScript/*.js) is embedded in the library at build time, so a host
        // binary carries it (resources would need a bundle shipped beside the binary on Linux).
        .target(name: "HybridBridge", dependencies: [
            "HybridJavaScript", "CJavaScriptCore", "HybridServices", "HybridEventLoop", "HybridJSON", "HybridFiles",
            .product(name: "Logging", package: "swift-log"),
        ], plugins: ["EmbedJavaScript"]),
        .plugin(name: "EmbedJavaScript", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),
        .plugin(name: "EmbedStarter", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),
        .executableTarget(name: "EmbedFilesTool", path: "Plugins/EmbedFilesTool"),
        // Bundles: manifests, folders, Ed25519 signatures (swift-crypto) and .hbundle archives (ZIPFoundation).
        .target(name: "HybridBundles", dependencies: [
            "HybridJSON", "HybridFiles", "HybridHTTP",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // The app: bundles, screens, focus, actions and the render loop, tied together.
        .target(name: "HybridRuntime", dependencies: [
            "HybridJSON", "HybridFiles", "HybridExpressions", "HybridCells", "HybridDocument", "HybridLayout",
            "HybridTerminal", "HybridWidgets", "HybridJavaScript", "HybridServices", "HybridEventLoop", "HybridBridge",
            "HybridBundles", "HybridNetwork", "HybridDatabase",
        ]),
        // `hybrid serve`: bundles over HTTP for development (Hummingbird); kept out of HybridTerm
        // so a host app does not pull in an HTTP server.
        .target(name: "HybridServer", dependencies: [
            "HybridBundles", "HybridJSON", "HybridFiles",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The embeddable library and the programs on top.
        .target(name: "HybridTerm", dependencies: [
            "HybridJSON", "HybridFiles", "HybridExpressions", "HybridCells", "HybridDocument",
            "HybridLayout", "HybridTerminal", "HybridWidgets", "HybridJavaScript", "HybridServices",
            "HybridEventLoop", "HybridBridge", "HybridBundles", "HybridRuntime", "HybridNetwork", "HybridDatabase",
        ]),
        // A library, not a program: what every program that runs apps shares (`hybrid run`, shop-demo):
        // run options, the terminal-or-headless runner, exit statuses. The `hybrid` program itself is HybridCLI.
        .target(name: "HybridAppRunner", dependencies: [
            "HybridTerm", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `hybrid init`'s files (Starter/, with types/ and schemas/) are embedded at build time.
        .executableTarget(name: "HybridCLI", dependencies: [
            "HybridTerm", "HybridServer", "HybridAppRunner",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["Starter"], plugins: ["EmbedStarter"]),
        .executableTarget(name: "HybridBench", dependencies: [
            "HybridTerm", "HybridHTTP", .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Fuzz targets for every parser of outside input; `hybrid-fuzz` replays inputs, or
        // (built by scripts/fuzz.sh) runs libFuzzer on them.
        .target(name: "HybridFuzz", dependencies: ["HybridJSON", "HybridExpressions", "HybridWidgets", "HybridBundles", "HybridNetwork", "HybridTerminal"]),
        .executableTarget(name: "HybridFuzzer", dependencies: ["HybridFuzz"]),
        // The example host: its own services and a patchable function, hot-fixed by a bundle.
        .executableTarget(name: "ShopDemo", dependencies: [
            "HybridTerm", "HybridAppRunner",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "HybridJSONTests", dependencies: ["HybridJSON", "CJSONScan", "TestSupport"]),
        .testTarget(name: "HybridFilesTests", dependencies: ["HybridFiles", "TestSupport"]),
        .testTarget(name: "HybridExpressionsTests", dependencies: ["HybridExpressions"], resources: [.copy("Conformance")]),
        .testTarget(name: "HybridCellsTests", dependencies: ["HybridCells", "TestSupport"]),
        .testTarget(name: "HybridTerminalTests", dependencies: ["HybridTerminal", "TestSupport"]),
        .testTarget(name: "HybridLayoutTests", dependencies: ["HybridLayout"]),
        .testTarget(name: "HybridWidgetsTests", dependencies: ["HybridWidgets", "HybridDocument", "HybridLayout", "TestSupport"]),
        .testTarget(name: "HybridJavaScriptTests", dependencies: ["HybridJavaScript", "CJavaScriptCore"]),
        // What tests share: a loopback HTTP server, temporary folders, crafted archives, the Python
        // checks, and frames as a person sees them (StyledFrame, TerminalModel).
        .target(name: "TestSupport", dependencies: ["HybridCells", .product(name: "ZIPFoundation", package: "ZIPFoundation")], path: "Tests/TestSupport"),
        .testTarget(name: "HybridServicesTests", dependencies: ["HybridServices", "HybridFiles", "TestSupport"]),
        .testTarget(name: "HybridHTTPTests", dependencies: ["HybridHTTP", "TestSupport"]),
        .testTarget(name: "HybridEventLoopTests", dependencies: ["HybridEventLoop", "TestSupport"]),
        .testTarget(name: "HybridBridgeTests", dependencies: ["HybridBridge", "HybridJavaScript", "HybridEventLoop"]),
        .testTarget(name: "HybridRuntimeTests", dependencies: [
            "HybridRuntime", "HybridWidgets", "HybridCells", "HybridEventLoop", "HybridJSON", "HybridJavaScript", "HybridTerminal", "HybridBundles", "TestSupport",
        ]),
        .testTarget(name: "HybridBundlesTests", dependencies: [
            "HybridBundles", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .testTarget(name: "HybridServerTests", dependencies: [
            "HybridServer", "HybridBundles", "TestSupport",
            .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "HybridFuzzTests", dependencies: ["HybridFuzz"]),
        .testTarget(name: "HybridDatabaseTests", dependencies: ["HybridDatabase", "HybridJSON", "TestSupport"]),
        .testTarget(name: "HybridNetworkTests", dependencies: ["HybridNetwork", "HybridJSON", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["HybridCLI", "ShopDemo", "HybridFuzzer", "HybridDatabase", "HybridJSON", "TestSupport"], exclude: ["Goldens"]),
    ]
)
