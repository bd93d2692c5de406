// HybridBundles: what a bundle is on disk and how it gets there (SPEC §5), by folder:
//
// - `Manifest/`: `BundleManifest` decodes `manifest.json`, reporting every problem as a located
//   `Diagnostic` like a screen document does; `BundleNames` (app, screen and permission names),
//   `SemanticVersion` and `VersionRequirement` (ordering versions, checking `runtime`), and
//   `ManifestText` (writing a manifest back, readable).
// - `Files/`: `BundlePath` holds the rules every path in a bundle follows (relative, no `..`);
//   `BundleFolder` opens a bundle folder whose manifest names files inside it; `BundleContents`
//   lists and hashes a folder's files as signing sees them. (What is at a path, locks and atomic
//   writes are HybridFiles'.)
// - `Signing/`: `BundleKey` / `BundlePublicKey` are Ed25519 keys (swift-crypto) and their
//   one-line key files; `BundleSignature` is `manifest.sig`; `BundleSigner` packs (lists every
//   file's SHA-256 and size in `files`, signs, writes `.hbundle` ZIP archives with ZIPFoundation);
//   `BundleVerifier` checks a signed folder or archive (on disk or in memory) against trusted
//   keys, naming the first file that fails, and unpacks an archive into a staging folder
//   (`VerifiedBundle`); `ArchiveReader` is the bounded ZIP reader under it and `hybrid serve`
//   (each entry read from its own compressed bytes, never past the limit it is given).
// - `Install/`: `BundleInstaller` fetches (manifest first, then a capped `Download`, all under one
//   deadline) and installs into `BundleCache` (`APP/VERSION/` folders under a per-app lock, with
//   the `BootRecord` of each version's starts and a start marker while one is `trying`; a shared
//   lock on the staging folder, cleared of what killed installs left; `hybrid cache`'s listing,
//   clearing and forgetting in `BundleCache+Maintenance`); `DevelopmentMirror` keeps a served
//   development folder in step.
//
// `BundleError` (here) is the one error of them all. Nothing here loads screens or runs
// scripts: the runtime does.
