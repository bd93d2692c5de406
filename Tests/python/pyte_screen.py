#!/usr/bin/env python3
"""What a VT emulator shows after replaying the bytes an app wrote to its terminal: pyte
(Debian's python3-pyte), an emulator written apart from HybridTerm, so a test of the frame
encoder does not rest on the project's own terminal model alone.

    python3 Tests/python/pyte_screen.py COLUMNS ROWS FILE...

Feeds each FILE in turn to a COLUMNS x ROWS pyte screen and prints one JSON array of rows,
each an array of cells [text, fg, bg, attributes]: text is "" for the right half of a wide
glyph; fg and bg are "default", an ANSI name (pyte gives the bright colours the names of the
normal ones) or six hex digits; attributes is a string of the letters b (bold), i (italic),
u (underline) and r (reverse).
"""
import json
import sys

import pyte


def main(argv):
    columns, rows, *files = argv[1:]
    screen = pyte.Screen(int(columns), int(rows))
    stream = pyte.ByteStream(screen)
    for name in files:
        with open(name, "rb") as handle:
            stream.feed(handle.read())
    out = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        cells = []
        for x in range(screen.columns):
            char = line[x]
            attributes = "".join(letter for letter, on in
                                 (("b", char.bold), ("i", char.italics), ("u", char.underscore), ("r", char.reverse)) if on)
            cells.append([char.data, char.fg, char.bg, attributes])
        out.append(cells)
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
