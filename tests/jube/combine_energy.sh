#!/bin/sh
# combine_energy.sh SYSTEM - the combine_energy step of the JUBE test
# benchmark: like CARAML's aux/combine_energy.py (2024 layout), one row per
# rank from benchmark/<SYSTEM>_power.<rank>.energy.csv into
# combined_energy.csv, then the line the EnergyFile pattern matches.
sys=$1
out=$PWD/combined_energy.csv
for f in benchmark/"${sys}"_power.*.energy.csv; do
	[ -f "$f" ] || { echo "no energy files" >&2; exit 1; }
	cols=$(grep '^pynvml' "$f" | cut -d, -f1 | paste -sd, -)
	vals=$(grep '^pynvml' "$f" | cut -d, -f2 | paste -sd, -)
	node=$(grep '^nodename,' "$f" | cut -d, -f2)
	rank=$(grep '^rank,' "$f" | cut -d, -f2)
	[ -f "$out" ] || echo ",nodename,rank,$cols" >"$out"
	echo "$rank,$node,$rank,$vals" >>"$out"
done
echo "Writing combined energy DataFrame to $out"
