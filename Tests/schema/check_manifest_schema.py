#!/usr/bin/env python3
"""Check schemas/manifest.schema.json against the manifest fixtures.

Run from anywhere (paths are resolved from this file):

    python3 Tests/schema/check_manifest_schema.py [-v]

1. the schema is a valid JSON Schema (draft 2020-12);
2. every Tests/Fixtures/manifests/valid/*.json validates, and its `start` opens one of its
   `screens`;
3. every Tests/Fixtures/manifests/invalid/*.json is rejected: not JSON, refused by the schema,
   or (what no JSON Schema can say) its `start` names a screen missing from `screens`. Each
   line says which, so the cross-reference check cannot hide a gap in the schema.

Prints one line per file and exits 1 on any mismatch. Format checking is off.
Needs the `jsonschema` package (pip install jsonschema, or Debian's python3-jsonschema).
"""

import sys

from schema_support import ROOT, VERBOSE, Report, check_invalid, check_valid, load_validator, rel

SCHEMA = ROOT / "schemas" / "manifest.schema.json"
FIXTURES = ROOT / "Tests" / "Fixtures" / "manifests"
VALID = FIXTURES / "valid"
INVALID = FIXTURES / "invalid"


def cross_references(doc):
    """What the schema cannot see: `start` (a name or app://NAME?query) must be a key of
    `screens`. Only checked when both have the right shape; the schema reports the rest."""
    start, screens = doc.get("start"), doc.get("screens")
    if not isinstance(start, str) or not isinstance(screens, dict):
        return []
    name = start
    if start.startswith("app://"):
        name = start[len("app://"):].split("?", 1)[0].split("#", 1)[0]
    if name not in screens:
        return [f"$.start: unknown screen {name!r}; the screens are {sorted(screens)}"]
    return []


def main():
    report = Report()

    # 1. The schema itself.
    schema, validator = load_validator(SCHEMA, report)
    if validator is None:
        return report.finish()

    # 2. Valid manifests.
    valid = sorted(VALID.glob("*.json"))
    if not valid:
        report(False, rel(VALID), "no valid manifests found")
    check_valid(valid, validator, report, cross_references)

    # 3. Invalid manifests.
    invalid = sorted(INVALID.glob("*.json"))
    if len(invalid) < 12:
        report(False, rel(INVALID), f"only {len(invalid)} broken manifests; expected at least 12")
    check_invalid(invalid, validator, report, cross_references)

    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
