#!/usr/bin/python3
"""layers.py - the include-direction check (run by tests/cli/t0022-layers.sh).

Data flows one way: runners -> ingest -> model -> views -> {plots, reports, cli}.
A file never includes a header of a layer to its right in

    core < runners < ingest < model < views < plots < reports < cli

and on top of that:
  - views/ includes only core/, model/ and views/ (it decides what a table or
    figure shows, renderer-neutral: no cairo, no jansson, no argv);
  - plots/ includes only core/, views/ and plots/ (it never touches SQLite);
  - cli/cmd_plot.c goes cli -> views -> plots, never through reports/.
Known exceptions are listed in KNOWN with the reason; an exception that no
longer occurs is reported too, so the list cannot rot.

Usage: layers.py ROOT   prints one line per violation; exit 1 if any.
"""
import os
import re
import sys

ORDER = ["core", "runners", "ingest", "model", "views", "plots", "reports", "cli"]
ONLY = {
    "views": {"core", "model", "views"},
    "plots": {"core", "views", "plots"},
}
FILE_FORBIDS = {
    "cli/cmd_plot.c": {"reports"},
}
# (file, included layer): why it is tolerated for now
KNOWN = {
}
SYSTEM_ONLY = {
    # renderer libraries views/ must not depend on
    "views": {"cairo.h", "pango/pangocairo.h", "jansson.h", "xlsxwriter.h"},
}
INC = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def layer_of(path):
    top = path.split("/", 1)[0]
    return top if top in ORDER else None


def main(root):
    bad, seen_known = [], set()
    for top in ORDER:
        d = os.path.join(root, top)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith((".c", ".h")):
                continue
            rel = f"{top}/{name}"
            with open(os.path.join(d, name), encoding="utf-8", errors="replace") as fp:
                for lineno, line in enumerate(fp, 1):
                    m = INC.match(line)
                    if not m:
                        continue
                    kind, target = m.groups()
                    if kind == "<":
                        if target in SYSTEM_ONLY.get(top, ()):
                            bad.append(f"{rel}:{lineno}: {top}/ must not include <{target}>")
                        continue
                    inc = layer_of(target) if "/" in target else top
                    if inc is None:
                        continue
                    why = None
                    if ORDER.index(inc) > ORDER.index(top):
                        why = f"{top}/ is upstream of {inc}/ (data flows {' -> '.join(ORDER[1:5])} -> renderers)"
                    elif top in ONLY and inc not in ONLY[top]:
                        why = f"{top}/ may include only {', '.join(sorted(ONLY[top]))}"
                    elif inc in FILE_FORBIDS.get(rel, ()):
                        why = f"{rel} must not go through {inc}/"
                    if why is None:
                        continue
                    if (rel, inc) in KNOWN:
                        seen_known.add((rel, inc))
                        continue
                    bad.append(f"{rel}:{lineno}: includes \"{target}\": {why}")
    for k in sorted(set(KNOWN) - seen_known):
        bad.append(f"listed exception {k[0]} -> {k[1]}/ no longer occurs: remove it from KNOWN")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
