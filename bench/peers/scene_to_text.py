#!/usr/bin/env python3
"""Turns the peer benchmark scene (samples/peer-scene.json) into the line-oriented text that
the peers read (bench/peers/ncurses_scene.c and bench/peers/tui_scene), so they draw the very
spans and colours of the JSON without a JSON parser of their own (their figures then measure
drawing, not parsing).

Usage: scene_to_text.py SCENE.json OUT.txt

The scene must have the shape the benchmark uses: a column whose first child is a text node
(the header, `@{path}` bindings taken from the document's state) and whose other children are
rounded boxes, each with a title and a column of text nodes made of spans. Anything else is
refused with the JSON path of the node, since the peers could not draw it faithfully.

Output, one record a line, fields separated by tabs, text always last:
    header  ATTRS  FG  BG  TEXT
    box     TITLE
    line
    span    ATTRS  FG  BG  TEXT
ATTRS is a string of b (bold), i (italic), u (underline), r (reverse), d (dim) or "-"; FG and
BG are xterm-256color indexes, -1 for the terminal's default. Hex colours become the nearest
of the 256: the only colour terminfo entry Debian ships by default is xterm-256color (the
truecolor xterm-direct is in ncurses-term), so the peer draws in 256 colours.
"""
import json
import sys

NAMED = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
NAMED_INDEX = {name: i for i, name in enumerate(NAMED)}
NAMED_INDEX.update({"bright-" + name: i + 8 for i, name in enumerate(NAMED)})
CUBE = [0, 0x5F, 0x87, 0xAF, 0xD7, 0xFF]


def fail(path, message):
    sys.exit(f"scene_to_text: {path}: {message}")


def palette():
    """The RGB of xterm's colours 16–255 (the 6×6×6 cube and the grey ramp)."""
    colours = {}
    for index in range(16, 232):
        n = index - 16
        colours[index] = (CUBE[n // 36], CUBE[n // 6 % 6], CUBE[n % 6])
    for index in range(232, 256):
        level = 8 + 10 * (index - 232)
        colours[index] = (level, level, level)
    return colours


PALETTE = palette()


def colour(value, path):
    if value is None:
        return -1
    if value in NAMED_INDEX:
        return NAMED_INDEX[value]
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        rgb = tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
        return min(PALETTE, key=lambda i: sum((a - b) ** 2 for a, b in zip(PALETTE[i], rgb)))
    fail(path, f"colour {value!r} is neither an ANSI name nor #rrggbb")


def style_fields(style, path):
    style = style or {}
    known = {"bold": "b", "italic": "i", "underline": "u", "reverse": "r", "dim": "d"}
    for key in style:
        if key not in known and key not in ("color", "background", "wrap"):
            fail(path, f"style field {key!r} is not drawn by the ncurses peer")
    attrs = "".join(letter for key, letter in known.items() if style.get(key)) or "-"
    return [attrs, str(colour(style.get("color"), path)), str(colour(style.get("background"), path))]


def bound(text, state, path):
    """The text with a whole-string `@{path}` binding replaced by the state's value."""
    if text.startswith("@{") and text.endswith("}"):
        value = state
        for part in text[2:-1].strip().split("."):
            if not isinstance(value, dict) or part not in value:
                fail(path, f"binding {text!r} names no state value")
            value = value[part]
        return str(value)
    return text


def clean(text, path):
    if "\t" in text or "\n" in text:
        fail(path, "text with a tab or a newline cannot be a record field")
    return text


def records(scene):
    body = scene.get("body", {})
    children = body.get("children", [])
    if body.get("type") != "column" or len(children) < 2:
        fail("body", "expected a column of a header and boxes")
    header = children[0]
    if header.get("type") != "text" or "text" not in header:
        fail("body.children[0]", "expected the header text node")
    text = clean(bound(header["text"], scene.get("state", {}), "body.children[0].text"), "body.children[0]")
    yield ["header", *style_fields(header.get("style"), "body.children[0].style"), text]
    for b, box in enumerate(children[1:], start=1):
        path = f"body.children[{b}]"
        lines = box.get("child", {}).get("children", [])
        if box.get("type") != "box" or box.get("style", {}).get("border") != "rounded":
            fail(path, "expected a box with a rounded border")
        if box.get("style", {}).get("height") not in (None, len(lines) + 2):
            fail(path, "the box's height must be its lines and two borders")
        yield ["box", clean(box.get("title", ""), path)]
        for n, line in enumerate(lines):
            line_path = f"{path}.child.children[{n}]"
            if line.get("type") != "text" or "spans" not in line:
                fail(line_path, "expected a text node of spans")
            yield ["line"]
            for s, span in enumerate(line["spans"]):
                span_path = f"{line_path}.spans[{s}]"
                yield ["span", *style_fields(span.get("style"), span_path), clean(span["text"], span_path)]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scene_to_text.py SCENE.json OUT.txt")
    with open(sys.argv[1], encoding="utf-8") as file:
        scene = json.load(file)
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        for record in records(scene):
            out.write("\t".join(record) + "\n")


if __name__ == "__main__":
    main()
