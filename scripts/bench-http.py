#!/usr/bin/env python3
"""Loopback HTTP for hybrid-bench's network figures (Python standard library only).

    python3 scripts/bench-http.py serve          # prints "port N", then serves
    python3 scripts/bench-http.py client URL N   # prints the mean milliseconds per request
    python3 scripts/bench-http.py count PORT     # prints the requests answered since the last count

`serve` answers every GET with a small JSON body over keep-alive connections and counts what
it answered (GET /count gives the count, and resets it). `client` makes N sequential GETs of
URL over one keep-alive connection with http.client: the reference hybrid-bench compares an
API call that misses its cache against, in the same run, on the same server.
"""
import http.client
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

BODY = json.dumps({"items": [{"id": i, "name": f"item {i}", "price": 100 + i} for i in range(10)]}).encode()
count = 0
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body leave in one write, with Nagle off: otherwise the body waits for the
    # client's delayed ACK (40 ms on Linux) and every figure measures that instead.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        global count
        if self.path == "/count":
            with lock:
                body, count = json.dumps({"count": count}).encode(), 0
        else:
            with lock:
                count += 1
            body = BODY
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()


def client(url, n):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    path = parts.path + ("?" + parts.query if parts.query else "")
    for _ in range(10):  # warm up
        connection.request("GET", path, headers={"Accept": "application/json"})
        json.loads(connection.getresponse().read())
    start = time.perf_counter()
    for _ in range(n):
        connection.request("GET", path, headers={"Accept": "application/json"})
        json.loads(connection.getresponse().read())
    print(f"{(time.perf_counter() - start) * 1000 / n:.4f}")


def count_requests(port):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/count")
    print(json.loads(connection.getresponse().read())["count"])


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve()
    elif sys.argv[1:2] == ["count"] and len(sys.argv) == 3:
        count_requests(int(sys.argv[2]))
    elif sys.argv[1:2] == ["client"] and len(sys.argv) == 4:
        client(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
