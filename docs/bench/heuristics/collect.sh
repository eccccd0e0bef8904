#!/bin/sh
# Copies the runs of run.sh from $OUT into runs/, merges the built-in backend's runs into
# runs/builtin/results.csv and ESBMC's into runs/esbmc-all/results.csv, writes the report
# page (cegpv bench-report), its screenshot and analysis.txt. Run from docs/bench/heuristics.
set -eu
BIN=${BIN:-/work/main/bin/cegpv-heur-h29}
OUT=${OUT:-/tmp/h29/runs}
# complete: a run stopped at its deadline keeps the tasks every heuristic finished; the runs
# the stop cancelled (reason "timeout" alone, no time) are dropped
complete() {
	python3 - "$1" <<'EOF'
import csv, collections, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keep = [r for r in rows if not (r["reason"] == "timeout" and float(r["wall_seconds"] or 0) < 15)]
modes = {r["mode"] for r in rows}
n = collections.Counter(r["file"] for r in keep)
w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
w.writerows(r for r in keep if n[r["file"]] == len(modes))
EOF
}
for r in lit wmm16 ext new esbmc esbmc-cut1; do
	mkdir -p runs/$r
	if [ -f "$OUT/$r/results.json" ]; then
		cp "$OUT/$r/results.csv" "$OUT/$r/results.json" "$OUT/$r/summary.txt" runs/$r/
	elif [ -f "$OUT/$r/results.partial.csv" ]; then # a run stopped at its deadline
		complete "$OUT/$r/results.partial.csv" >runs/$r/results.csv
	fi
done
merge() { # RUN... : one CSV of the runs' rows
	first=1
	for r in "$@"; do
		[ -f runs/$r/results.csv ] || continue
		if [ $first = 1 ]; then cat runs/$r/results.csv; first=0; else tail -n +2 runs/$r/results.csv; fi
	done
}
# the built-in backend's runs as one run (its modes are cegpv/H, ESBMC's cegpv@esbmc/H)
mkdir -p runs/builtin runs/esbmc-all
merge lit wmm16 ext new >runs/builtin/results.csv
merge esbmc-cut1 esbmc >runs/esbmc-all/results.csv
nice -n 10 "$BIN" bench-report --out report.html runs/builtin/results.csv runs/esbmc-all/results.csv
nice -n 10 chromium --headless --no-sandbox --screenshot=report.png --window-size=1100,${HEIGHT:-14000} --hide-scrollbars \
	"file://$PWD/report.html" 2>/dev/null
# the loop's section alone (its table and plots) for a readable screenshot, report-loop.png
python3 -c '
s = open("report.html").read()
a, b = s.index("<h2>The CEGPV loop per mode"), s.index("<h2>Tasks")
open("/tmp/report-loop.html", "w").write(s[:s.index("<body")] + "<body>" + s[a:b] + "</body></html>")
'
nice -n 10 chromium --headless --no-sandbox --screenshot=report-loop.png --window-size=1100,${LOOPHEIGHT:-4200} --hide-scrollbars \
	file:///tmp/report-loop.html 2>/dev/null
python3 analysis.py runs/lit runs/wmm16 runs/ext runs/new runs/esbmc-cut1 runs/esbmc >analysis.txt
