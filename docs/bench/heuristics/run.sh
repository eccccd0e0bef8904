#!/bin/sh
# The experiment of issue 29 item 5 (session 18): the six heuristics in loop-only mode over
# the built-in backend and over ESBMC. Run from the repository's root; the binary lives in
# /work/main/bin beside yices and esbmc (make deps), the results go to $OUT, and the files
# committed here are copied from there (collect.sh). Budget: one core, -j 1, nice -n 10.
set -eu
BIN=${BIN:-/work/main/bin/cegpv-heur-h29}
OUT=${OUT:-/tmp/h29/runs}
S=docs/bench/heuristics/samples
H=paper,steps1,steps2,steps4,cone,guards
HB=$H,smallcone # smallcone (examples/heuristic) over the built-in backend only

# cegpv with the example heuristics registered (guards, smallcone, shared1), at this branch's commit
nice -n 10 go build -o "$BIN" ./examples/heuristic

# the sample manifests (already committed; this rewrites them identically)
(cd docs/bench/heuristics && python3 samples/make.py)

bench() { # NAME HEURISTICS TIMEOUT MANIFEST [bench flags...]
	name=$1 h=$2 t=$3 m=$4
	shift 4
	mkdir -p "$OUT/$name"
	nice -n 10 "$BIN" bench --loop-only --heuristics "$h" --timeout "$t" -j 1 --out "$OUT/$name" "$@" "$m" \
		>"$OUT/$name/summary.txt" 2>"$OUT/$name/progress.txt" || true # a wrong verdict exits 1
}

# built-in backend (z3), 15 s per task and heuristic
bench lit $HB 15s $S/sv15-lit.tsv
bench wmm16 $HB 15s $S/sv15-wmm16.tsv
# ESBMC, 20 s per task and heuristic (mode cegpv@esbmc/H)
bench esbmc $H 20s $S/esbmc-lit-wmm8.tsv --modes cegpv@esbmc
# built-in backend again: the 2015 pthread/pthread-ext sample, then sv-comp-new's
bench ext $HB 15s $S/sv15-pthread-ext-every3.tsv
bench new $HB 15s $S/new-every4.tsv
