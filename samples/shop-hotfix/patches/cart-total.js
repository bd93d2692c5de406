// @ts-check
// Shop 1.0.1 hot fix: Cart.total (native Swift) forgot the quantities — each line counted once.
// defineClass replaces the patchable Swift function; self.ORIGtotal is the shipped version.
defineClass('Cart', {
  total: function (cart) {
    const shipped = self.ORIGtotal(cart);
    const fixed = cart.items.reduce((sum, line) => sum + line.price * line.qty, 0);
    if (shipped !== fixed) console.info(`Cart.total: ${shipped} → ${fixed} (hot fix 1.0.1)`);
    return Math.round(fixed * 100) / 100;
  },
});
