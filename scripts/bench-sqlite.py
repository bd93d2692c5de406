#!/usr/bin/env python3
"""The reference for hybrid-bench's database figures (Python's standard library only).

    python3 scripts/bench-sqlite.py DB-FILE ROWS RUNS

Inserts ROWS rows into a fresh `items (id INTEGER PRIMARY KEY, name TEXT, price REAL, qty
INTEGER)` table of DB-FILE with one `executemany` in one transaction, RUNS times, and prints the
median milliseconds: what `db.batch` of the same rows is compared with, in the same run.
"""
import sqlite3
import statistics
import sys
import time


def main():
    path, rows, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = [(f"item {i}", i * 0.5, i % 7) for i in range(rows)]
    connection = sqlite3.connect(path)
    times = []
    for _ in range(runs + 1):
        connection.execute("DROP TABLE IF EXISTS items")
        connection.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, qty INTEGER)")
        connection.commit()
        start = time.perf_counter()
        with connection:
            connection.executemany("INSERT INTO items (name, price, qty) VALUES (?, ?, ?)", data)
        times.append((time.perf_counter() - start) * 1000)
    print(f"{statistics.median(times[1:]):.3f}")


if __name__ == "__main__":
    main()
