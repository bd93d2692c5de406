// Bundles: manifests and folders.
