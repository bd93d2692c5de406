#!/usr/bin/env python3
"""Rows of SQL statements as Python's sqlite3 module gives them, in HybridTerm's JSON mapping
(SPEC §7.3): integers beyond ±2^53 as strings, BLOBs as {"$bytes": [...]}, REALs as numbers.

    python3 Tests/python/sqlite_rows.py DB-FILE STATEMENTS-FILE

STATEMENTS-FILE holds one statement per line; the output is one JSON array of results (each
an array of row objects by column name), the reference HybridDatabaseTests compares with.
"""
import json
import sqlite3
import sys

LIMIT = 1 << 53


def value(v):
    if isinstance(v, bytes):
        return {"$bytes": list(v)}
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > LIMIT:
        return str(v)
    return v


def main():
    connection = sqlite3.connect(sys.argv[1])
    results = []
    with open(sys.argv[2], encoding="utf-8") as statements:
        for line in statements:
            cursor = connection.execute(line)
            names = [column[0] for column in cursor.description]
            results.append([{name: value(v) for name, v in zip(names, row)} for row in cursor.fetchall()])
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
