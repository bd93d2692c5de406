"""What the two schema checks share: jsonschema, the repository root, error wording and the
ok/FAIL report. Imported by check_schema.py and check_manifest_schema.py (same folder)."""

import json
import sys
from pathlib import Path

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError:  # pragma: no cover
    print(f"{Path(sys.argv[0]).stem}: the Python package `jsonschema` is missing "
          "(pip install jsonschema, or apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(2)

ROOT = Path(__file__).resolve().parents[2]
VERBOSE = "-v" in sys.argv[1:]


def path_of(error):
    out = "$"
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def describe(error):
    # The deepest, most specific error reads best.
    best = error
    while best.context:
        best = min(best.context, key=lambda e: (-len(e.absolute_path), str(e.message)))
    return f"{path_of(best)}: {best.message}"


def rel(p):
    return p.relative_to(ROOT).as_posix()


class Report:
    """One `ok`/`FAIL` line per check, counted."""

    def __init__(self):
        self.passes = 0
        self.failures = 0

    def __call__(self, ok, name, detail=""):
        if ok:
            self.passes += 1
        else:
            self.failures += 1
        line = f"{'ok  ' if ok else 'FAIL'} {name}"
        if detail and (not ok or VERBOSE):
            line += f"  -- {detail}"
        print(line)

    def finish(self):
        print(f"{self.passes} passed, {self.failures} failed")
        return 1 if self.failures else 0


def load_validator(schema_path, report):
    """The schema (checked to be valid draft 2020-12) and a validator without format
    checking; `(None, None)` after reporting when it is not valid."""
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        report(True, rel(schema_path), "valid draft 2020-12 schema")
    except (ValueError, SchemaError) as exc:
        report(False, rel(schema_path), f"schema is invalid: {exc}")
        return None, None
    return schema, Draft202012Validator(schema)


def read_json(path):
    """The document in `path` and None, or None and why it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except ValueError as exc:
        return None, f"not JSON: {exc}"


def check_valid(paths, validator, report, cross_references):
    """Every file in `paths` must be accepted: JSON, by the schema and by `cross_references`;
    each line names the first problems when it is not."""
    for path in paths:
        doc, unreadable = read_json(path)
        if unreadable:
            report(False, rel(path), unreadable)
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        problems = [describe(e) for e in errors[:5]] or cross_references(doc)
        report(not problems, rel(path), "; ".join(problems) if problems else "valid")


def check_invalid(paths, validator, report, cross_references):
    """Every file in `paths` must be refused: not JSON, by the schema, or by `cross_references`
    (what no schema can state); each line says which."""
    for path in paths:
        doc, unreadable = read_json(path)
        if unreadable:
            report(True, rel(path), unreadable)
            continue
        errors = list(validator.iter_errors(doc))
        if errors:
            report(True, rel(path), f"rejected by the schema ({len(errors)} error(s)): " + describe(errors[0]))
            continue
        problems = cross_references(doc)
        report(bool(problems), rel(path),
               "rejected by the cross-reference check (the schema cannot see this): " + problems[0] if problems
               else "the schema accepts it")
