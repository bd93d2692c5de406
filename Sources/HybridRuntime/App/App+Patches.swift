import HybridBridge
import HybridServices

/// A Swift function scripts can patch (SPEC §4): `app.patchable("Cart.total") { (cart: Cart) in … }`.
///
/// Calling it runs the hooks a script put on `method:Cart.total` (`patch.*`, `defineClass`), if
/// any: the input goes to them as one argument (its JSON), `original` runs the Swift body, and
/// the result is decoded back. Without hooks, or before any script runs, it calls the body
/// directly, with no JSON round trip. What happens when hooks fail is in docs/hot-fixes.md.
/// Call it on the app's loop thread, like everything that touches the app.
public struct Patchable<In: Codable, Out: Codable, Failure: Error> {
    /// The name scripts patch it by (`method:` + name).
    public let name: String
    private weak var app: HybridApp?
    private let body: (In) throws(Failure) -> Out

    init(name: String, app: HybridApp, body: @escaping (In) throws(Failure) -> Out) {
        self.name = name
        self.app = app
        self.body = body
    }

    /// Runs the function (patched or not) on `input`.
    public func callAsFunction(_ input: In) throws(Failure) -> Out {
        guard let scripts = app?.scripts else { return try body(input) }
        return try scripts.callPatchable(name, input, body: body)
    }
}

extension Patchable where In == Empty {
    /// Runs a function declared without input (its hooks get no arguments).
    public func callAsFunction() throws(Failure) -> Out {
        guard let scripts = app?.scripts, scripts.hasHooks(onMethod: name) else { return try body(Empty()) }
        let body = body
        return try scripts.callPatchable(name) { () throws(Failure) in try body(Empty()) }
    }
}

extension HybridApp {
    /// Declares a Swift function scripts can patch as `method:NAME` (`"Type.name"` by
    /// convention, which is what `defineClass("Type", { name: … })` patches); a later
    /// declaration of the same name replaces the earlier one for scripts.
    public func patchable<In: Codable, Out: Codable, Failure: Error>(
        _ name: String, _ body: @escaping (In) throws(Failure) -> Out
    ) -> Patchable<In, Out, Failure> {
        services.patchableMethods.declare(name, body)
        return Patchable(name: name, app: self, body: body)
    }

    /// Declares a patchable Swift function without input.
    public func patchable<Out: Codable, Failure: Error>(_ name: String, _ body: @escaping () throws(Failure) -> Out) -> Patchable<Empty, Out, Failure> {
        services.patchableMethods.declare(name, body)
        return Patchable(name: name, app: self) { (_: Empty) throws(Failure) in try body() }
    }
}
