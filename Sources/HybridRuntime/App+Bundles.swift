import Foundation
import HybridBundles
import HybridJSON
import HybridServices

/// Running a bundle folder (SPEC §5): its screens through the router, its script, its
/// permissions for service calls.
extension HybridApp {
    /// Registers the built-in services for `app` (storage under its own folder).
    public func registerBuiltIns(app: String, screenSize: @escaping @Sendable () -> (columns: Int, rows: Int)) throws(AppError) {
        do {
            BuiltInServices.register(in: services, storage: try KeyValueStore.forApp(app), screenSize: screenSize)
        } catch {
            throw AppError("cannot keep storage for app \"\(app)\": \(error)")
        }
    }

    /// Loads a bundle folder: routes its screens, grants what its manifest asks, runs its
    /// `entry` script, then opens its `start` screen (unless the script already showed one).
    public func load(bundle folder: BundleFolder) throws(AppError) {
        let manifest = folder.manifest
        if !folder.isSigned {
            onProblem("\(folder.path): a development bundle (no \(BundleFolder.signatureName)); it runs unsigned")
        }
        router.folder = folder.path
        router.onlyListedFiles = true
        for name in manifest.screens.keys {
            guard let path = folder.screenPath(named: name) else { throw AppError("\(folder.path): the screen \"\(name)\" has no usable path") }
            router.files[name] = path
        }
        caller = ServiceCaller(name: manifest.app, permissions: Set(manifest.permissions))
        let runtime = startScripts(caller: caller)
        if let entry = manifest.entry {
            guard let path = folder.filePath(for: entry) else { throw AppError("\(folder.path): the entry \"\(entry)\" is not a usable path") }
            guard runtime.runMain(path: path) else { throw AppError("\(path): the bundle's script failed while starting") }
        }
        if screens.isEmpty {
            try push(url: manifest.start.hasPrefix("app://") ? manifest.start : "app://" + manifest.start)
        }
    }
}
