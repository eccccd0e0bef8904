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

# cegpv with the example heuristics registered (guards, shared1), at this branch's commit
nice -n 10 go build -o "$BIN" ./examples/heuristic

# the sample manifests (already committed; this rewrites them identically)
(cd docs/bench/heuristics && python3 samples/make.py)

bench() { # NAME TIMEOUT MANIFEST [bench flags...]
	name=$1 t=$2 m=$3
	shift 3
	mkdir -p "$OUT/$name"
	nice -n 10 "$BIN" bench --loop-only --heuristics $H --timeout "$t" -j 1 --out "$OUT/$name" "$@" "$m" \
		>"$OUT/$name/summary.txt" 2>"$OUT/$name/progress.txt" || true # a wrong verdict exits 1
}

# built-in backend (z3), 15 s per task and heuristic
bench lit 15s $S/sv15-lit.tsv
bench wmm16 15s $S/sv15-wmm16.tsv
# ESBMC, 20 s per task and heuristic (mode cegpv@esbmc/H)
bench esbmc 20s $S/esbmc-lit-wmm8.tsv --modes cegpv@esbmc
# built-in backend again: sv-comp-new's sample, then the 2015 pthread/pthread-ext sample
bench new 15s $S/new-every4.tsv
bench ext 15s $S/sv15-pthread-ext.tsv
