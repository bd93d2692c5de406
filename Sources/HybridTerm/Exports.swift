// The library a Swift program embeds: one import brings every layer.
@_exported import HybridBridge
@_exported import HybridBundles
@_exported import HybridCells
@_exported import HybridDatabase
@_exported import HybridDocument
@_exported import HybridEventLoop
@_exported import HybridExpressions
@_exported import HybridFiles
@_exported import HybridJSON
@_exported import HybridJavaScript
@_exported import HybridLayout
@_exported import HybridNetwork
@_exported import HybridRuntime
@_exported import HybridServices
@_exported import HybridTerminal
@_exported import HybridWidgets
