#!/usr/bin/env python3
"""The small JSON API samples/catalog talks to (Python standard library only).

    python3 scripts/sample-api.py [--port 8099] [--latency MS]

GET  /v1/items?q=TEXT&page=N   {"items": [{id, name, price, category}], "page": N, "total": T}
                               five to a page; prices are in cents
GET  /v1/items/ID              {id, name, price, category, description, stock}, or 404
POST /v1/cart {"id", "qty"}    {"count": ITEMS-IN-CART}; a repeated Idempotency-Key gets the
                               first answer again and adds nothing
GET  /v1/cart                  {"items": [{id, qty}], "count": N}

Each request is printed on standard output as one line: the method, the path, its
X-Request-ID and its Idempotency-Key (or "-"), then what was answered. `--latency` delays every
search (a non-empty q), so typing in the catalog cancels the search in flight.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

ITEMS = [
    ("sencha", "Sencha", 950, "green", "A grassy Japanese green tea, steamed and rolled."),
    ("gyokuro", "Gyokuro", 2400, "green", "Shaded for weeks before picking: sweet and deep."),
    ("matcha", "Matcha", 1800, "green", "Stone-ground tencha, whisked rather than steeped."),
    ("earl-grey", "Earl Grey", 700, "black", "Black tea with bergamot oil."),
    ("assam", "Assam", 650, "black", "Malty, strong, made for milk."),
    ("darjeeling", "Darjeeling", 1250, "black", "First flush: light, floral, muscatel."),
    ("lapsang", "Lapsang Souchong", 850, "black", "Smoked over pine fires."),
    ("tieguanyin", "Tieguanyin", 1600, "oolong", "A rolled oolong with an orchid scent."),
    ("da-hong-pao", "Da Hong Pao", 2900, "oolong", "A roasted rock oolong from the Wuyi mountains."),
    ("silver-needle", "Silver Needle", 3200, "white", "Unopened buds only."),
    ("rooibos", "Rooibos", 550, "herbal", "A red bush from South Africa, no caffeine."),
    ("chamomile", "Chamomile", 450, "herbal", "Dried flowers, for the evening."),
]
PAGE_SIZE = 5

lock = threading.Lock()
cart = {}            # id -> qty
answered_keys = {}   # Idempotency-Key -> the answer it got


def summary(item):
    return {"id": item[0], "name": item[1], "price": item[2], "category": item[3]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    latency = 0.0

    def log_message(self, format, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        key = self.headers.get("Idempotency-Key", "-")
        print(f"{self.command} {self.path} id={self.headers.get('X-Request-ID', '-')} key={key} -> {status}", flush=True)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            print(f"{self.command} {self.path}: closed by the client", flush=True)

    def do_GET(self):
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path == "/v1/items":
            q = query.get("q", [""])[0].strip().lower()
            try:
                page = max(1, int(query.get("page", ["1"])[0]))
            except ValueError:
                return self.answer(400, {"error": "page must be a number"})
            if q and self.latency:
                time.sleep(self.latency)
            found = [summary(item) for item in ITEMS if not q or q in item[1].lower() or q in item[3]]
            start = (page - 1) * PAGE_SIZE
            return self.answer(200, {"items": found[start:start + PAGE_SIZE], "page": page, "total": len(found)})
        if parts.path.startswith("/v1/items/"):
            wanted = parts.path[len("/v1/items/"):]
            for item in ITEMS:
                if item[0] == wanted:
                    return self.answer(200, dict(summary(item), description=item[4], stock=len(item[1]) % 7 + 1))
            return self.answer(404, {"error": f"no item {wanted}"})
        if parts.path == "/v1/cart":
            with lock:
                return self.answer(200, {"items": [{"id": k, "qty": v} for k, v in cart.items()], "count": sum(cart.values())})
        return self.answer(404, {"error": f"no route {parts.path}"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0") or 0)
        raw = self.rfile.read(length) if length else b""
        if urlsplit(self.path).path != "/v1/cart":
            return self.answer(404, {"error": f"no route {self.path}"})
        try:
            body = json.loads(raw or b"{}")
            wanted, qty = str(body["id"]), int(body.get("qty", 1))
        except (ValueError, KeyError, TypeError):
            return self.answer(400, {"error": "expected {\"id\": ITEM, \"qty\": N}"})
        if not any(item[0] == wanted for item in ITEMS):
            return self.answer(404, {"error": f"no item {wanted}"})
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key and key in answered_keys:
                return self.answer(200, answered_keys[key])
            cart[wanted] = cart.get(wanted, 0) + qty
            result = {"count": sum(cart.values())}
            if key:
                answered_keys[key] = result
        return self.answer(200, result)


def main():
    parser = argparse.ArgumentParser(description="The JSON API samples/catalog talks to.")
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--latency", type=int, default=0, help="milliseconds every search waits")
    options = parser.parse_args()
    Handler.latency = options.latency / 1000
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    print(f"sample API on http://127.0.0.1:{options.port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
