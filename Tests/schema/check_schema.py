#!/usr/bin/env python3
"""Check schemas/screen.schema.json against the samples and the invalid fixtures.

Run from anywhere (paths are resolved from this file):

    python3 Tests/schema/check_schema.py [-v]

1. the schema is a valid JSON Schema (draft 2020-12);
2. every samples/*.json whose "$schema" ends in "screen.schema.json" validates;
   and none uses an undefined component or repeats a node id in `body`;
3. every file named in Tests/Fixtures/invalid/schema-detectable.txt is rejected,
   and every other fixture is either not JSON or accepted by the schema (so the
   list stays honest: those errors are the runtime validator's job);
4. together the samples use every node type, every style field and every enum
   value of align / justify / border / wrap / textAlign.

Prints one line per file and exits 1 on any mismatch. Format checking is off.
Needs the `jsonschema` package (pip install jsonschema, or Debian's python3-jsonschema).
"""

import json
import sys

from schema_support import ROOT, VERBOSE, Report, describe, load_validator, rel

SCHEMA = ROOT / "schemas" / "screen.schema.json"
SAMPLES = ROOT / "samples"
INVALID = ROOT / "Tests" / "Fixtures" / "invalid"
DETECTABLE = INVALID / "schema-detectable.txt"


def main():
    report = Report()

    # 1. The schema itself.
    schema, validator = load_validator(SCHEMA, report)
    if validator is None:
        return report.finish()

    # 2. Samples.
    samples = {}
    for path in sorted(SAMPLES.glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            report(False, rel(path), f"not JSON: {exc}")
            continue
        if not (isinstance(doc, dict) and str(doc.get("$schema", "")).endswith("screen.schema.json")):
            if VERBOSE:
                print(f"skip {rel(path)} (not a screen document)")
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        problems = [describe(e) for e in errors[:5]] or lint(doc)
        report(not problems, rel(path), "; ".join(problems) if problems else "valid")
        samples[path.name] = doc
    if not samples:
        report(False, rel(SAMPLES), "no screen samples found")

    # 3. Invalid fixtures.
    listed = []
    if DETECTABLE.exists():
        for line in DETECTABLE.read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                listed.append(line)
    else:
        report(False, rel(DETECTABLE), "missing")
    fixtures = sorted(p.name for p in INVALID.glob("*.json"))
    for name in listed:
        if name not in fixtures:
            report(False, f"{rel(INVALID)}/{name}", "listed in schema-detectable.txt but missing")
    for name in fixtures:
        path = INVALID / name
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            parsed = True
        except ValueError as exc:
            parsed, doc = False, None
            syntax = str(exc)
        if name in listed:
            if not parsed:
                report(False, rel(path), f"listed as schema-detectable but is not JSON: {syntax}")
                continue
            errors = list(validator.iter_errors(doc))
            report(bool(errors), rel(path),
                   f"rejected ({len(errors)} error(s)): " + describe(errors[0]) if errors
                   else "listed as schema-detectable but the schema accepts it")
        else:
            if not parsed:
                report(True, rel(path), f"not JSON, for the runtime to report: {syntax}")
                continue
            errors = list(validator.iter_errors(doc))
            report(not errors, rel(path),
                   "accepted by the schema, for the runtime to report" if not errors
                   else "rejected by the schema but not listed in schema-detectable.txt: "
                   + describe(errors[0]))

    # 4. Coverage of the samples.
    report(*coverage(schema, samples))

    return report.finish()


def lint(doc):
    """What the schema cannot see but a sample must not do either: use a component that
    the document does not define, or give two nodes of `body` the same id (ids inside list
    templates and components repeat per instance and are left out)."""
    problems, seen = [], {}
    defined = set(doc.get("components", {}))

    def walk(node, where, count_ids):
        if isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, f"{where}[{i}]", count_ids)
            return
        if not isinstance(node, dict):
            return
        if node.get("type") == "component" and node.get("name") not in defined:
            problems.append(f"{where}.name: unknown component {node.get('name')!r}")
        if count_ids and isinstance(node.get("id"), str):
            if node["id"] in seen:
                problems.append(f"{where}.id: duplicate id {node['id']!r} (first at {seen[node['id']]})")
            seen.setdefault(node["id"], where)
        for key in ("children", "child"):
            if key in node:
                walk(node[key], f"{where}.{key}", count_ids)
        if "template" in node:
            walk(node["template"], f"{where}.template", False)
        for i, tab in enumerate(node.get("tabs", []) if isinstance(node.get("tabs"), list) else []):
            if isinstance(tab, dict):
                walk(tab.get("body"), f"{where}.tabs[{i}].body", count_ids)

    walk(doc.get("body"), "$.body", True)
    for name, template in doc.get("components", {}).items():
        walk(template, f"$.components.{name}", False)
    return problems


def coverage(schema, samples):
    defs = schema["$defs"]
    want_types = set(defs["node"]["properties"]["type"]["enum"])
    want_style = set(defs["style"]["properties"])
    enums = {
        "align": set(defs["style"]["properties"]["align"]["anyOf"][0]["enum"]),
        "justify": set(defs["style"]["properties"]["justify"]["anyOf"][0]["enum"]),
        "border": set(defs["style"]["properties"]["border"]["anyOf"][0]["enum"]),
        "wrap": set(defs["style"]["properties"]["wrap"]["anyOf"][0]["enum"]),
        "textAlign": set(defs["textAlign"]["anyOf"][0]["enum"]),
    }
    seen_types, seen_style = set(), set()
    seen_enum = {k: set() for k in enums}

    def walk(value, key=None):
        if isinstance(value, dict):
            if key == "style":
                seen_style.update(value)
                for k in enums:
                    if isinstance(value.get(k), str):
                        seen_enum[k].add(value[k])
            elif isinstance(value.get("type"), str):
                seen_types.add(value["type"])
            for k, v in value.items():
                if key in ("state", "props", "params", "args"):
                    continue
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for doc in samples.values():
        walk(doc)
    missing = []
    if want_types - seen_types:
        missing.append("node types " + ", ".join(sorted(want_types - seen_types)))
    if want_style - seen_style:
        missing.append("style fields " + ", ".join(sorted(want_style - seen_style)))
    for k, want in enums.items():
        if want - seen_enum[k]:
            missing.append(f"{k} values " + ", ".join(sorted(want - seen_enum[k])))
    if missing:
        return False, "samples coverage", "samples never use: " + "; ".join(missing)
    return True, "samples coverage", (f"{len(seen_types)} node types, {len(seen_style)} style fields, "
                                      "all align/justify/border/wrap/textAlign values")


if __name__ == "__main__":
    sys.exit(main())
