// @ts-check
// Reformers (SPEC §7.2): one answer of the API, shaped for the view that shows it.
// Prices come from the server in cents.
const price = (cents) => `€${cents}`;

module.exports = {
  // items.list → the rows of the list: what the list shows, nothing more.
  itemRows: (data) => data.items.map((item) => ({ id: item.id, name: item.name, price: price(item.price) })),
  // items.get → the detail screen's fields.
  itemDetail: (data) => Object.assign({}, data, { price: price(data.price), stock: `${data.stock} in stock` }),
};
