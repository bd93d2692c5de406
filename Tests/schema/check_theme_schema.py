#!/usr/bin/env python3
"""Check schemas/theme.schema.json (which refers to screen.schema.json's named style).

Run from anywhere (paths are resolved from this file):

    python3 Tests/schema/check_theme_schema.py [-v]

1. the schema is a valid JSON Schema (draft 2020-12);
2. every sample bundle's theme (the file its manifest's "theme" names) validates;
3. themes the decoder refuses are refused: a name with a space, an unknown style field, a
   bound value, a value of the wrong kind.

Prints one line per check and exits 1 on any mismatch.
Needs the `jsonschema` package (with `referencing`).
"""

import json
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from schema_support import ROOT, Report, load_validator, rel

SCHEMAS = ROOT / "schemas"
BROKEN = {
    "a name with a space": {"a b": {"bold": True}},
    "an unknown style field": {"title": {"widht": 3}},
    "a bound value": {"title": {"color": "@{accent}"}},
    "a value of the wrong kind": {"title": {"bold": "yes"}},
    "a style that is not an object": {"title": 3},
}


def main():
    report = Report()
    schema, _ = load_validator(SCHEMAS / "theme.schema.json", report)
    if schema is None:
        return report.finish()
    screen = json.loads((SCHEMAS / "screen.schema.json").read_text(encoding="utf-8"))
    registry = Registry().with_resource(screen["$id"], Resource.from_contents(screen))
    validator = Draft202012Validator(schema, registry=registry)

    themes = []
    for manifest in sorted((ROOT / "samples").glob("*/manifest.json")):
        name = json.loads(manifest.read_text(encoding="utf-8")).get("theme")
        if name:
            themes.append(manifest.parent / name)
    if not themes:
        report(False, "samples", "no sample bundle names a theme")
    for path in themes:
        errors = [e.message for e in validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        report(not errors, rel(path), "; ".join(errors[:3]) or "valid")
    for what, theme in BROKEN.items():
        report(not validator.is_valid(theme), what, "refused" if not validator.is_valid(theme) else "accepted by the schema")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
