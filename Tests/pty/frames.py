#!/usr/bin/env python3
"""`hybrid run SCREEN` in a real pseudo-terminal, keys pressed one at a time, for a test that
replays what the app wrote on its own terminal model (styles and all).

    python3 Tests/pty/frames.py BINARY SCREEN COLUMNSxROWS TEXT [KEY TEXT]...

Waits until TEXT shows on the screen, presses KEY (tab, down, up, enter or a character), waits
for the next TEXT, and so on; then writes every byte the app wrote to standard output and ends
it. Each wait is for specific text (drive.py's generous timeout), never for a time. Exits 1
with a reason on standard error when a text never shows.
"""

import sys

from drive import Child, Failure, Screen, SYNC_END

KEYS = {"tab": b"\t", "down": b"\x1b[B", "up": b"\x1b[A", "enter": b"\r"}


def main():
    binary, screen, size, first, *rest = sys.argv[1:]
    columns, rows = (int(part) for part in size.split("x"))
    child = Child(binary, [screen], ".", columns=columns, rows=rows)
    try:
        steps = [(None, first)] + list(zip(rest[0::2], rest[1::2]))
        for key, text in steps:
            if key is not None:
                child.send(KEYS.get(key, key.encode()))
            start = len(child.output)

            def shows(out, text=text, start=start):
                # A whole frame written since the key, with the text on the screen it leaves.
                if SYNC_END not in out[start:]:
                    return False
                model = Screen(columns, rows)
                model.feed(out[: out.rindex(SYNC_END) + len(SYNC_END)])
                return model.find(text) is not None

            child.wait_for(repr(text), shows)
        sys.stdout.buffer.write(bytes(child.output))
        return 0
    except Failure as failure:
        sys.stderr.write("%s\n%s\n" % (failure, bytes(child.output)[-2000:]))
        return 1
    finally:
        child.close()


if __name__ == "__main__":
    sys.exit(main())
