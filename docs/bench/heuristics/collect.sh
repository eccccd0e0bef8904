#!/bin/sh
# Copies the runs of run.sh from $OUT into runs/, merges the built-in backend's runs into
# one CSV, writes the report page (cegpv bench-report), its screenshot and analysis.txt.
# Run from docs/bench/heuristics.
set -eu
BIN=${BIN:-/work/main/bin/cegpv-heur-h29}
OUT=${OUT:-/tmp/h29/runs}
for r in lit wmm16 esbmc new ext; do
	mkdir -p runs/$r
	if [ -f "$OUT/$r/results.json" ]; then
		cp "$OUT/$r/results.csv" "$OUT/$r/results.json" "$OUT/$r/summary.txt" runs/$r/
	elif [ -f "$OUT/$r/results.partial.csv" ]; then # a run stopped at the budget's end
		cp "$OUT/$r/results.partial.csv" runs/$r/results.csv
	fi
done
# the built-in backend's runs as one run (its modes are cegpv/H, ESBMC's cegpv@esbmc/H)
mkdir -p runs/builtin
first=1
for r in lit wmm16 new ext; do
	[ -f runs/$r/results.csv ] || continue
	if [ $first = 1 ]; then cat runs/$r/results.csv; first=0; else tail -n +2 runs/$r/results.csv; fi
done >runs/builtin/results.csv
esbmc=runs/esbmc/results.json
[ -f $esbmc ] || esbmc=runs/esbmc/results.csv
nice -n 10 "$BIN" bench-report --out report.html runs/builtin/results.csv $esbmc
nice -n 10 chromium --headless --no-sandbox --screenshot=report.png --window-size=1100,9000 --hide-scrollbars \
	"file://$PWD/report.html" 2>/dev/null
python3 analysis.py runs/lit runs/wmm16 runs/new runs/ext runs/esbmc >analysis.txt
