// @ts-check
// The flow sample: two screens through one router. The catalog's list opens
// app://detail?id=…&name=… (its query lands in the detail screen's state as `params`); the
// detail screen adds to a cart kept in the app store (and saved to storage), and Esc goes back
// to the catalog as it was.
const PRODUCTS = [
  { id: 'sen', name: 'Sencha', kind: 'green', origin: 'Shizuoka, Japan', price: 950, notes: 'Grassy and bright; steep at 75 °C for a minute.' },
  { id: 'erl', name: 'Earl Grey', kind: 'black', origin: 'Sri Lanka, bergamot oil', price: 700, notes: 'Black tea with bergamot oil; good with a slice of lemon.' },
  { id: 'drj', name: 'Darjeeling', kind: 'black', origin: 'West Bengal, India', price: 1200, notes: 'First flush: light, floral, muscatel; three minutes at 90 °C.' },
  { id: 'lap', name: 'Lapsang Souchong', kind: 'black', origin: 'Fujian, China', price: 820, notes: 'Dried over pine fires: smoky, like a campfire in a cup.' },
  { id: 'jas', name: 'Jasmine Pearls', kind: 'green', origin: 'Fujian, China', price: 1400, notes: 'Hand-rolled leaves scented with jasmine blossoms overnight.' },
  { id: 'roo', name: 'Rooibos', kind: 'herbal', origin: 'Cederberg, South Africa', price: 540, notes: 'No caffeine; sweet and nutty, fine with milk.' },
];
const CART_KEY = 'cart';

// The cart lives in the app store, shared by both screens: the headers and the cart box
// read @{store.cartCount}, @{store.cartText} and @{store.cartTotal}, and redraw when they
// change. Each screen's own state keeps what only it shows.
function cart() {
  return store.get('cart') || {};
}

function euros(cents) {
  return `€ ${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

// Puts a cart in the store with what the screens show of it.
function setCart(next) {
  const lines = PRODUCTS.filter((p) => next[p.id]).map((p) => `${next[p.id]} × ${p.name} (${euros(next[p.id] * p.price)})`);
  store.set('cart', next);
  store.set('cartCount', Object.values(next).reduce((sum, n) => sum + n, 0));
  store.set('cartText', lines.join(' · '));
  store.set('cartTotal', euros(PRODUCTS.reduce((sum, p) => sum + (next[p.id] || 0) * p.price, 0)));
}

// The catalog's list, with how many of each tea are in the cart (the current screen's state).
function showItems() {
  const inCart = cart();
  state.set('items', PRODUCTS.map((p) => ({ id: p.id, name: p.name, kind: p.kind, origin: p.origin, price: euros(p.price), inCart: inCart[p.id] || 0 })));
}

// No screen is open yet, and none is needed: the saved cart goes straight into the store.
hybrid.call('storage.get', { key: CART_KEY }).then((saved) => {
  if (saved && typeof saved === 'object') setCart(saved);
  if (ui.screen === 'catalog') showItems();
  // Every change of the cart is saved, wherever it was made.
  store.watch('cart', (next) => hybrid.call('storage.set', { key: CART_KEY, value: next }));
  hybrid.ready();
});

ui.handler('catalog.load', () => showItems());

ui.handler('detail.load', () => {
  const id = state.get('params.id');
  const product = PRODUCTS.find((p) => p.id === id);
  if (!product) {
    state.set('product', { kind: '?', origin: '?', price: '?', notes: `No tea with id "${id}".` });
    return;
  }
  state.set('product', { kind: product.kind, origin: product.origin, price: euros(product.price), notes: product.notes });
  state.set('inCart', cart()[id] || 0);
});

ui.handler('cart.add', () => {
  const id = state.get('params.id');
  if (!PRODUCTS.some((p) => p.id === id)) return;
  const next = { ...cart(), [id]: (cart()[id] || 0) + 1 };
  setCart(next);
  state.set('inCart', next[id]);
  state.set('message', `✔ Added ${state.get('params.name')} to the cart`);
});

// Runs after a `back` action: the catalog is the current screen again, and it was not
// re-opened (its list keeps its selection), so its list is told about the cart here.
ui.handler('cart.sync', () => {
  if (ui.screen === 'catalog') showItems();
});

ui.handler('cart.clear', () => {
  setCart({});
  showItems();
});
