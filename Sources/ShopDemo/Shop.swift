import Foundation
import HybridTerm

/// The shop's native side: the cart, its services, the patchable total, and the built-in screen.
final class Shop: @unchecked Sendable {
    /// The app name bundles for this host must carry.
    static let appName = "shop"

    let app: HybridApp
    let cart = Cart()
    /// The one line that makes native code hot-fixable: scripts may replace it as
    /// `method:Cart.total` (or with `defineClass("Cart", { total: … })`).
    let total: Patchable<CartContents, Double, Never>

    init(app: HybridApp) {
        self.app = app
        total = app.patchable("Cart.total", Cart.shippedTotal)
        register()
        app.registerScreen("cart") { _ in Shop.screen }
    }

    /// The cart's total, through whatever patches are in place.
    func currentTotal() -> Double { total(CartContents(items: cart.lines)) }

    /// The lines and their total, as `cart.add` and `cart.clear` answer.
    func summary() -> CartSummary { CartSummary(items: cart.lines, total: currentTotal()) }

    private func register() {
        let cart = cart
        app.services.register("cart.add", permission: "cart", summary: "Adds qty units of sku at price; answers {items, total}.") { [self] (item: AddItem) in
            try cart.add(item)
            return summary()
        }
        app.services.register("cart.items", permission: "cart", summary: "The cart's lines.") { (_: Empty) in cart.lines }
        app.services.register("cart.total", permission: "cart", summary: "The cart's total, computed by Cart.total.") { [self] (_: Empty) in
            currentTotal()
        }
        app.services.register("cart.clear", permission: "cart", summary: "Empties the cart; answers {items, total}.") { [self] (_: Empty) in
            cart.clear()
            return summary()
        }
    }

    /// Opens the built-in cart screen: what runs without a bundle, or when every bundle failed.
    func openCart() throws(AppError) {
        try app.registerBuiltIns(app: Self.appName, screenSize: { [app] in app.size })
        try app.push(url: "app://cart", replacing: true)
    }

    /// The built-in screen (a test checks it decodes without a problem).
    static let screen = (try? JSONParser.parse(CartScreen.json).plain) ?? .null
}
