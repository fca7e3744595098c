#!/usr/bin/python3
"""fake_jube_new.py - a stand-in for JUBE >= 2.6 (it says 2.7.1), for tests.

Debian ships JUBE 2.5.1, whose `jube result` aborts on a failed run with
'"nan" is not of type "float"'; newer JUBE prints the failed run as a row
with "nan" in its derived columns and empty pattern cells (see
../shared/formats/caraml.md and the constructed JUBE 2.7.1 tables in
../shared/samples/caraml/).  This script runs a small JUBE config the way
JUBE does as far as accelbench sees it: `jube run` expands the parameter
sets, runs each step's <do> in <outpath>/<id>/<wp>_<step>/work (stdout,
stderr, "done" or "error"), writes configuration.xml and workpackages.xml
and prints the benchmark summary; `jube status` prints FINISHED or ERROR;
`jube continue` has nothing to do (synchronous steps); `jube result -a
OUTPATH -i ID -s csv` evaluates patterns ($jube_pat_fp, $jube_pat_int),
derived python patterns (nan when an input is missing) and writes and
prints the csv tables.  Only what the tests' configs use is supported.
"""
import itertools
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

PAT = {"$jube_pat_fp": r"([+-]?(?:\d*\.?\d+(?:[eE][-+]?\d+)?|\d+\.))",
       "$jube_pat_int": r"([+-]?\d+)", "$jube_pat_wrd": r"(\S+)"}


def subst(text, values):
    return re.sub(r"\$\{?(\w+)\}?", lambda m: str(values.get(m.group(1), m.group(0))), text)


def expand(bench):
    """Workpackage parameter dicts: the cartesian product of comma lists."""
    names, choices, python = [], [], []
    for ps in bench.iter("parameterset"):
        for p in ps.iter("parameter"):
            if p.get("mode") == "python":
                python.append(p)
                continue
            names.append(p.get("name"))
            choices.append([v.strip() for v in (p.text or "").split(",")])
    wps = []
    for combo in itertools.product(*choices):
        vals = dict(zip(names, combo))
        for p in python:
            vals[p.get("name")] = str(eval(subst(p.text, vals)))
        wps.append(vals)
    return wps


def wp_xml(wps, step):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<workpackages>"]
    for i, vals in enumerate(wps):
        out.append('  <workpackage id="%d">' % i)
        out.append('    <step iteration="0" cycle="0">%s</step>' % step)
        out.append("    <parameterset>")
        for k, v in vals.items():
            out.append('      <parameter name="%s" type="string" separator="," duplicate="none" mode="text">' % k)
            out.append("        <value>%s</value>" % v)
            out.append("      </parameter>")
        out.append("    </parameterset>")
        out.append("  </workpackage>")
    out.append("</workpackages>")
    return "\n".join(out) + "\n"


def cmd_run(args):
    outpath = None
    rest = []
    i = 0
    while i < len(args):
        if args[i] == "-o":
            outpath = args[i + 1]
            i += 2
            continue
        if args[i] == "--tag":
            break
        if not args[i].startswith("-"):
            rest.append(args[i])
        i += 1
    config = rest[0]
    bench = ET.parse(config).getroot().find("benchmark")
    outpath = outpath or bench.get("outpath")
    bdir = os.path.join(outpath, "000000")
    os.makedirs(bdir, exist_ok=True)
    shutil.copy(config, os.path.join(bdir, "configuration.xml"))
    step = bench.find("step")
    wps = expand(bench)
    errors = 0
    for i, vals in enumerate(wps):
        work = os.path.join(bdir, "%06d_%s" % (i, step.get("name")), "work")
        os.makedirs(work, exist_ok=True)
        with open(os.path.join(work, "stdout"), "w") as so, open(os.path.join(work, "stderr"), "w") as se:
            rc = subprocess.call(["/bin/sh", "-c", subst(step.find("do").text, vals)], cwd=work,
                                 stdout=so, stderr=se)
        flag = "done" if rc == 0 else "error"
        errors += rc != 0
        open(os.path.join(work, "..", flag), "w").close()
    with open(os.path.join(bdir, "workpackages.xml"), "w") as f:
        f.write(wp_xml(wps, step.get("name")))
    print("#" * 70)
    print("# benchmark: %s" % bench.get("name"))
    print("# id: 0\n#\n#\n" + "#" * 70 + "\n")
    print("  | stepname | all | open | wait | error | done |")
    print("  | %8s | %3d |    0 |    0 | %5d | %4d |\n" % (step.get("name"), len(wps), errors,
                                                         len(wps) - errors))
    print(">>>> Benchmark information and further useful commands:")
    print(">>>>       id: 0\n>>>>   handle: %s\n>>>>      dir: %s" % (outpath, bdir))
    print("#" * 70)


def cmd_status(args):
    bdir = os.path.join(args[0], "000000")
    err = any(os.path.exists(os.path.join(bdir, d, "error")) for d in os.listdir(bdir))
    print("ERROR" if err else "FINISHED")


def fmt(v, f):
    if v is None:
        return ""
    if isinstance(v, float) and f:
        return format(v, f.lstrip("%"))
    return str(v)


def cmd_result(args):
    outpath = args[args.index("-a") + 1]
    bdir = os.path.join(outpath, "000000")
    bench = ET.parse(os.path.join(bdir, "configuration.xml")).getroot().find("benchmark")
    step = bench.find("step").get("name")
    wps = expand(bench)
    patterns = [p for ps in bench.iter("patternset") for p in ps.iter("pattern")]
    os.makedirs(os.path.join(bdir, "result"), exist_ok=True)
    for table in bench.iter("table"):
        lines = [",".join(c.get("title") or c.text.strip() for c in table.iter("column"))]
        for i, vals in enumerate(wps):
            work = os.path.join(bdir, "%06d_%s" % (i, step), "work")
            text = open(os.path.join(work, "stdout")).read()
            got = dict(vals)
            for p in patterns:
                if p.get("mode") == "python":
                    continue
                rx = p.text
                for k, v in PAT.items():
                    rx = rx.replace(k, v)
                m = re.findall(rx, text)
                got[p.get("name")] = float(m[-1]) if m else None
            for p in patterns:
                if p.get("mode") != "python":
                    continue
                try:
                    expr = re.sub(r"\$\{?(\w+)\}?", lambda m: "None" if got.get(m.group(1)) is None
                                  else str(got[m.group(1)]), p.text)
                    got[p.get("name")] = float(eval(expr))
                except TypeError:
                    got[p.get("name")] = float("nan")  # what JUBE >= 2.6 prints
            row = [fmt(got.get(c.text.strip()), c.get("format")) for c in table.iter("column")]
            lines.append(",".join(row))
        text = "\n".join(lines) + "\n"
        with open(os.path.join(bdir, "result", table.get("name") + ".dat"), "w") as f:
            f.write(text)
        sys.stdout.write(text)


def main():
    a = sys.argv[1:]
    if a and a[0] == "--version":
        print("JUBE, version 2.7.1")
    elif a and a[0] == "run":
        cmd_run(a[1:])
    elif a and a[0] == "status":
        cmd_status(a[1:])
    elif a and a[0] == "continue":
        pass
    elif a and a[0] == "result":
        cmd_result(a[1:])
    else:
        sys.exit("fake jube: unsupported: %s" % " ".join(a))


main()
