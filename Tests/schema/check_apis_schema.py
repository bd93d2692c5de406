#!/usr/bin/env python3
"""Check schemas/apis.schema.json against the API-definition fixtures.

Run from anywhere (paths are resolved from this file):

    python3 Tests/schema/check_apis_schema.py [-v]

1. the schema is a valid JSON Schema (draft 2020-12);
2. every Tests/Fixtures/apis/valid/*.json validates, and passes the cross-references no schema
   can state (each API names a declared service; each {name} in a path is a declared param);
3. every Tests/Fixtures/apis/invalid/*.json is rejected, by the schema or the cross-references,
   and each line says which.

Prints one line per file and exits 1 on any mismatch. Needs Python's jsonschema.
"""

import re
import sys

from schema_support import ROOT, Report, check_invalid, check_valid, load_validator, rel

SCHEMA = ROOT / "schemas" / "apis.schema.json"
FIXTURES = ROOT / "Tests" / "Fixtures" / "apis"


def cross_references(doc):
    services = doc.get("services") if isinstance(doc.get("services"), dict) else {}
    problems = []
    for name, api in (doc.get("apis") or {}).items():
        if not isinstance(api, dict):
            continue
        if api.get("service") not in services:
            problems.append(f"$.apis[{name!r}].service: unknown service {api.get('service')!r}")
        params = api.get("params") if isinstance(api.get("params"), dict) else {}
        for placeholder in re.findall(r"\{([^{}]*)\}", str(api.get("path", ""))):
            if placeholder not in params:
                problems.append(f"$.apis[{name!r}].path: {{{placeholder}}} names no param")
    return problems


def main():
    report = Report()
    schema, validator = load_validator(SCHEMA, report)
    if validator is None:
        return report.finish()
    valid = sorted((FIXTURES / "valid").glob("*.json"))
    if not valid:
        report(False, rel(FIXTURES / "valid"), "no valid definitions found")
    check_valid(valid, validator, report, cross_references)
    check_invalid(sorted((FIXTURES / "invalid").glob("*.json")), validator, report, cross_references)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
