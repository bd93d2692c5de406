// The flow sample: two screens through one router. The catalog's list opens
// app://detail?id=…&name=… (its query lands in the detail screen's state as `params`); the
// detail screen adds to a cart kept in storage, and Esc goes back to the catalog as it was.
const PRODUCTS = [
  { id: 'sen', name: 'Sencha', kind: 'green', origin: 'Shizuoka, Japan', price: 950, notes: 'Grassy and bright; steep at 75 °C for a minute.' },
  { id: 'erl', name: 'Earl Grey', kind: 'black', origin: 'Sri Lanka, bergamot oil', price: 700, notes: 'Black tea with bergamot oil; good with a slice of lemon.' },
  { id: 'drj', name: 'Darjeeling', kind: 'black', origin: 'West Bengal, India', price: 1200, notes: 'First flush: light, floral, muscatel; three minutes at 90 °C.' },
  { id: 'lap', name: 'Lapsang Souchong', kind: 'black', origin: 'Fujian, China', price: 820, notes: 'Dried over pine fires: smoky, like a campfire in a cup.' },
  { id: 'jas', name: 'Jasmine Pearls', kind: 'green', origin: 'Fujian, China', price: 1400, notes: 'Hand-rolled leaves scented with jasmine blossoms overnight.' },
  { id: 'roo', name: 'Rooibos', kind: 'herbal', origin: 'Cederberg, South Africa', price: 540, notes: 'No caffeine; sweet and nutty, fine with milk.' },
];
const CART_KEY = 'cart';

// The cart, by product id: the script's copy, saved to storage after each change.
let cart = {};

function cartCount() {
  return Object.values(cart).reduce((sum, n) => sum + n, 0);
}

function euros(cents) {
  return `€ ${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

// Shows the cart on the catalog (the current screen): a marker per item, the count, one
// line per tea in the cart and the total.
function showCatalog() {
  state.set('items', PRODUCTS.map((p) => ({ id: p.id, name: p.name, kind: p.kind, origin: p.origin, price: euros(p.price), inCart: cart[p.id] || 0 })));
  const lines = PRODUCTS.filter((p) => cart[p.id]).map((p) => `${cart[p.id]} × ${p.name} (${euros(cart[p.id] * p.price)})`);
  state.set('cartText', lines.join(' · '));
  state.set('cartTotal', euros(PRODUCTS.reduce((sum, p) => sum + (cart[p.id] || 0) * p.price, 0)));
  state.set('cartCount', cartCount());
}

ui.handler('catalog.load', () => {
  showCatalog();
  return hybrid.call('storage.get', { key: CART_KEY }).then((saved) => {
    if (saved && typeof saved === 'object') cart = saved;
    showCatalog();
    hybrid.ready();
  });
});

ui.handler('detail.load', () => {
  const id = state.get('params.id');
  const product = PRODUCTS.find((p) => p.id === id);
  if (!product) {
    state.set('product', { kind: '?', origin: '?', price: '?', notes: `No tea with id "${id}".` });
    return;
  }
  state.set('product', { kind: product.kind, origin: product.origin, price: euros(product.price), notes: product.notes });
  state.set('inCart', cart[id] || 0);
  state.set('cartCount', cartCount());
});

ui.handler('cart.add', () => {
  const id = state.get('params.id');
  if (!PRODUCTS.some((p) => p.id === id)) return;
  cart[id] = (cart[id] || 0) + 1;
  state.set('inCart', cart[id]);
  state.set('cartCount', cartCount());
  state.set('message', `✔ Added ${state.get('params.name')} to the cart`);
  return hybrid.call('storage.set', { key: CART_KEY, value: cart });
});

// Runs after a `back` action: the catalog is the current screen again, and it was not
// re-opened (its list keeps its selection), so it is told about the cart here.
ui.handler('cart.sync', () => {
  if (ui.screen === 'catalog') showCatalog();
});

ui.handler('cart.clear', () => {
  cart = {};
  showCatalog();
  return hybrid.call('storage.remove', { key: CART_KEY });
});
