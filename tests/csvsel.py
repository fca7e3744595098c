#!/usr/bin/python3
"""csvsel.py - select named columns (and rows) of a CSV on stdin, for tests.

    csvsel.py COL,COL,... [FILTER...]

FILTER is COL=VALUE or COL!=VALUE (all must hold).  Writes CSV with the
selected columns, header first, quoting only where needed ("\\n" line ends).
A missing column is an error (exit 2), so a renamed field fails loudly.
"""
import csv
import sys


def main(argv):
    cols = argv[1].split(",")
    conds = []
    for f in argv[2:]:
        if "!=" in f:
            k, v = f.split("!=", 1)
            conds.append((k, v, False))
        else:
            k, v = f.split("=", 1)
            conds.append((k, v, True))
    rows = csv.DictReader(sys.stdin)
    missing = [c for c in cols + [k for k, _, _ in conds] if c not in (rows.fieldnames or [])]
    if missing:
        print(f"csvsel: no column {', '.join(missing)} in {rows.fieldnames}", file=sys.stderr)
        return 2
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(cols)
    for r in rows:
        if all((r[k] == v) == eq for k, v, eq in conds):
            out.writerow([r[c] for c in cols])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
