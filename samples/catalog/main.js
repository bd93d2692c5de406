// @ts-check
// The catalog's behaviour. The screens load their own data (their "data" blocks); this script
// shapes answers for them, adds to the cart, and shows whether calls wait in the outbox.
const { itemRows, itemDetail } = require('./reformers.js');

api.reformer('itemRows', itemRows);
api.reformer('itemDetail', itemDetail);

function showOutbox() {
  store.set('outbox', api.outbox().length);
}

function showCart() {
  return api.call('cart.get').then((answer) => store.set('cart.count', answer.data.count), () => {});
}

api.onStatus((online) => {
  store.set('online', online);
  showOutbox();
});

// Offline, cart.add (offline: "queue") waits in the outbox and is sent, once and in order,
// when the server answers again: before the next call to it, every 30 s, or on ctrl+s.
ui.handler('addToCart', (args) => {
  api.call('cart.add', { id: args.id }).then((answer) => {
    if (answer.queued) {
      store.set('note', `offline: ${args.id} waits in the outbox`);
    } else {
      store.set('cart.count', answer.data.count);
      store.set('note', `${args.id} added`);
    }
    showOutbox();
  }, (error) => store.set('note', `${error.code}: ${error.message}`));
});

ui.handler('sendOutbox', () => {
  api.flush().then((result) => {
    store.set('note', `sent ${result.sent}, ${result.left} waiting`);
    showOutbox();
    return showCart();
  });
});

showOutbox();
showCart().then(() => hybrid.ready());
