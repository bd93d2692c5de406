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
            problem("\(folder.path): a development bundle (no \(BundleFolder.signatureName)); it runs unsigned")
            status = nil
        }
        router.folder = folder.path
        for (name, path) in manifest.screens {
            router.files[name] = folder.filePath(for: path) ?? path
        }
        caller = ServiceCaller(name: manifest.app, permissions: Set(manifest.permissions))
        let runtime = startScripts(caller: caller)
        if let entry = manifest.entry, let path = folder.filePath(for: entry) {
            guard runtime.runMain(path: path) else { throw AppError("\(path): the bundle's script failed while starting") }
        }
        if screens.isEmpty {
            try push(url: manifest.start.hasPrefix("app://") ? manifest.start : "app://" + manifest.start)
        }
    }
}
