/// The shop's built-in screen, compiled into the binary: what runs before any bundle (and when
/// every bundle failed). Bundles for the app `shop` bring their own `cart` screen.
enum CartScreen {
    static let json = #"""
    {
      "format": 1,
      "id": "cart",
      "title": "Leaf & Cup",
      "state": {
        "edition": "built in",
        "teas": [
          { "sku": "SEN-01", "name": "Sencha", "price": 9.5 },
          { "sku": "EGR-02", "name": "Earl Grey", "price": 7.0 },
          { "sku": "DAR-03", "name": "Darjeeling", "price": 12.0 }
        ],
        "cart": { "items": [], "total": 0 }
      },
      "keys": {
        "q": { "action": "quit" },
        "x": { "action": "call", "service": "cart.clear", "result": "cart" }
      },
      "onAppear": [
        { "action": "call", "service": "cart.items", "result": "cart.items" },
        { "action": "call", "service": "cart.total", "result": "cart.total" }
      ],
      "body": {
        "type": "column",
        "style": { "padding": [0, 1] },
        "children": [
          {
            "type": "row",
            "children": [
              { "type": "text", "text": "Leaf & Cup", "style": { "bold": true, "flex": 1 } },
              { "type": "text", "text": "@{edition}", "style": { "width": "auto", "dim": true } }
            ]
          },
          { "type": "divider" },
          {
            "type": "list",
            "id": "teas",
            "items": "@{teas}",
            "onSelect": { "action": "call", "service": "cart.add", "params": { "sku": "@{item.sku}", "price": "@{item.price}", "qty": 1 }, "result": "cart" },
            "template": {
              "type": "row",
              "children": [
                { "type": "text", "text": "@{item.name}", "style": { "flex": 1 } },
                { "type": "text", "text": "€ @{decimalFormat(item.price, '0.00')}", "style": { "width": 9, "textAlign": "right" } }
              ]
            }
          },
          { "type": "divider" },
          { "type": "text", "text": "The cart is empty: Enter adds the selected tea.", "visible": "@{len(cart.items) == 0}", "style": { "dim": true } },
          {
            "type": "list",
            "items": "@{cart.items}",
            "template": {
              "type": "row",
              "children": [
                { "type": "text", "text": "@{item.qty} × @{item.sku}", "style": { "flex": 1 } },
                { "type": "text", "text": "€ @{decimalFormat(item.price * item.qty, '0.00')}", "style": { "width": 9, "textAlign": "right" } }
              ]
            }
          },
          {
            "type": "row",
            "children": [
              { "type": "text", "text": "Total (Cart.total)", "style": { "flex": 1, "bold": true } },
              { "type": "text", "text": "€ @{decimalFormat(cart.total, '0.00')}", "style": { "width": 9, "textAlign": "right", "bold": true } }
            ]
          },
          { "type": "text", "text": "Enter adds · x empties · q quits", "style": { "dim": true } }
        ]
      }
    }
    """#
}
