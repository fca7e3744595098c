#!/bin/sh
# t0003-plot: every chart kind from the demo database to PNG, SVG and PDF.
. "$(dirname "$0")/lib.sh"

png_size() { # prints "W H" of a PNG
	$PY -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print(*struct.unpack(">II", d[16:24]))' "$1"
}

test_expect_success 'set up the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null && test -f demo/accelbench.db
'
DB="--db demo/accelbench.db"

test_expect_success 'each chart kind renders a PNG, with ink in the plot area' '
	S="--width 640 --height 400" &&
	for k in bar bargroup scaling pareto; do
		ab $DB plot $k -b llm-gpt-800M --baseline A100 -o $k.png $S || exit 1
	done &&
	ab $DB plot devices -b resnet50 -o devices.png $S &&
	ab $DB plot heatmap --baseline A100 -o heatmap.png $S &&
	ab $DB plot power -o power.png $S &&
	for k in bar bargroup scaling pareto devices heatmap power; do
		test "$(png_size $k.png)" = "640 400" || { echo "$k size"; exit 1; }
		$PY - $k.png <<-\PYEOF || exit 1
		import sys, zlib, struct
		# decode the PNG (8-bit RGB/RGBA, filter per row) and count non-white pixels
		data = open(sys.argv[1], "rb").read()
		pos, idat, w, h, ct = 8, b"", 0, 0, 0
		while pos < len(data):
		    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
		    body = data[pos + 8:pos + 8 + n]
		    if kind == b"IHDR":
		        w, h, bd, ct = struct.unpack(">IIBB", body[:10])
		    elif kind == b"IDAT":
		        idat += body
		    pos += 12 + n
		raw = zlib.decompress(idat)
		bpp = 4 if ct == 6 else 3
		stride = w * bpp
		prev = bytearray(stride); ink = 0; i = 0
		for y in range(h):
		    f = raw[i]; row = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
		    for x in range(stride):
		        a = row[x - bpp] if x >= bpp else 0
		        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
		        if f == 1: row[x] = (row[x] + a) & 255
		        elif f == 2: row[x] = (row[x] + b) & 255
		        elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
		        elif f == 4:
		            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
		            row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
		    prev = row
		    if h // 5 < y < 4 * h // 5:   # the plot area, away from titles
		        for x in range(w // 10, 9 * w // 10, 4):
		            px = row[x * bpp:x * bpp + 3]
		            if max(px) < 200: ink += 1
		assert ink > 100, ink
		PYEOF
	done
'

test_expect_success 'bargroup without -b groups speedups over the baseline by benchmark' '
	ab $DB plot bargroup --baseline A100 -o bg.svg &&
	grep -q "Speedup over A100" bg.svg && grep -q "llm-gpt-800M" bg.svg && grep -q "resnet50" bg.svg &&
	expect_code 2 ab $DB plot bargroup -o bg2.svg 2>err &&
	grep -qx "accelbench: a bargroup chart needs a benchmark or a baseline system (-b BENCH or --baseline SYS)" err
'

test_expect_success 'PNG defaults to 1600x1000; --width/--height set the size' '
	ab $DB plot bar -b llm-gpt-800M -o big.png &&
	test "$(png_size big.png)" = "1600 1000" &&
	ab $DB plot bar -b llm-gpt-800M -o small.png --width 800 --height 500 &&
	test "$(png_size small.png)" = "800 500"
'

test_expect_success 'SVG carries axis titles with units and the system names' '
	ab $DB plot scaling -b llm-gpt-800M -o scaling.svg &&
	grep -q "<svg" scaling.svg &&
	grep -q "Global batch size" scaling.svg && grep -q "tokens/s" scaling.svg &&
	for s in A100 H100 WAIH100 JEDI MI250; do grep -q "$s" scaling.svg || exit 1; done
'

test_expect_success 'SVG output is byte-for-byte reproducible' '
	ab $DB plot bar -b llm-gpt-800M --baseline A100 -o a.svg &&
	ab $DB plot bar -b llm-gpt-800M --baseline A100 -o b.svg &&
	test_cmp a.svg b.svg
'

test_expect_success 'PDF output is a PDF with a reproducible date' '
	ab $DB plot pareto -b llm-gpt-800M -o p.pdf && head -c 5 p.pdf | grep -q "%PDF-" &&
	ab $DB plot pareto -b llm-gpt-800M -o q.pdf && test_cmp p.pdf q.pdf
'

test_expect_success 'an empty selection is an error that says what matched nothing' '
	expect_code 1 ab $DB plot bar -b no-such-bench -o x.png 2>err &&
	grep -q "^accelbench: plot: no benchmark '"'"'no-such-bench'"'"'; valid: .*llm-gpt-800M, resnet, resnet50$" err &&
	expect_code 1 ab $DB plot bar -b llm-gpt-800M --system TPU -o x.png 2>err &&
	grep -q "nothing to plot" err &&
	test ! -f x.png && test -z "$(find . -name ".x.png.*.tmp")"
'

test_expect_success 'usage errors: unknown kind, no output, bad extension' '
	expect_code 2 ab $DB plot pie -b llm-gpt-800M -o x.png 2>err &&
	expect_code 2 ab $DB plot bar -b llm-gpt-800M 2>err &&
	expect_code 2 ab $DB plot bar -b llm-gpt-800M -o x.jpg 2>err &&
	grep -q "x.jpg" err && test ! -f x.jpg
'

test_expect_success 'a failed write leaves no file behind' '
	expect_code 3 ab $DB plot bar -b llm-gpt-800M -o no/such/dir/x.png 2>err &&
	test ! -d no
'

test_expect_success 'a bar label prints the value as the stats table does (585.1 both)' '
	ab $DB plot bar -b resnet50 --devices 1 -o r1.svg && desc r1.svg >d &&
	ab $DB stats -b resnet50 >table &&
	awk "\$1 == \"resnet50\" && \$3 == 1 && \$4 == 1 { for (i = 5; i < NF; i++) if (\$(i + 1) == \"images/s\") print \$2, \$i }" table >want &&
	test "$(wc -l <want)" -ge 5 && grep -q "^GC200 585.1$" want && grep -q " · 1 device (" d &&
	while read -r sys v; do
		grep -qxF "$v" d || { echo "bar of $sys: no label $v"; cat d; exit 1; }
	done <want
'

test_done
