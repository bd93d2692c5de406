#!/usr/bin/env python3
"""What `hybrid run SCREEN` writes to a real pseudo-terminal while keys are pressed.
    python3 Tests/pty/frame.py BINARY SCREEN COLUMNS ROWS [KEYS_JSON] [--repo DIR]
KEYS_JSON is a JSON array of strings, each sent as the bytes a terminal sends for one key
(e.g. "\\u001b[1;5D" for ctrl+left); after each, the output is let go quiet. Then ctrl+c quits
and every byte the program wrote, from the start, goes to standard output, for a test to
replay on a terminal model (the focused frame a person sees, caret and styles included).
Exits 1 with a reason on standard error when the program does not draw or quit.
Uses `drive.py`'s Child (the same pty, terminal settings and waits).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from drive import Child, Failure  # noqa: E402


def main(argv):
    repo = os.getcwd()
    if "--repo" in argv:
        at = argv.index("--repo")
        repo = argv[at + 1]
        del argv[at:at + 2]
    if len(argv) not in (5, 6):
        sys.stderr.write(__doc__)
        return 2
    binary, screen, columns, rows = argv[1], argv[2], int(argv[3]), int(argv[4])
    keys = json.loads(argv[5]) if len(argv) == 6 else []
    child = Child(binary, [screen], repo, columns=columns, rows=rows)
    try:
        child.wait_first_frame()
        child.wait_quiet()
        for key in keys:
            child.send(key.encode("utf-8"))
            child.wait_quiet()
        child.send(b"\x03")
        child.wait_exit()
    except Failure as failure:
        sys.stderr.write("frame.py: %s\n" % failure)
        return 1
    finally:
        child.close()
    sys.stdout.buffer.write(bytes(child.output))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
