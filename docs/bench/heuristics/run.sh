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

bench() { # NAME HEURISTICS TIMEOUT MANIFEST DEADLINE(HHMM, UTC) [bench flags...]
	name=$1 h=$2 t=$3 m=$4 until=$5
	shift 5
	mkdir -p "$OUT/$name"
	nice -n 10 "$BIN" bench --loop-only --heuristics "$h" --timeout "$t" -j 1 --out "$OUT/$name" "$@" "$m" \
		>"$OUT/$name/summary.txt" 2>"$OUT/$name/progress.txt" &
	pid=$!
	# at the deadline the run is stopped (SIGTERM): it keeps the rows it finished in
	# results.partial.csv (collect.sh drops the runs the stop cancelled)
	while kill -0 $pid 2>/dev/null; do
		[ "$(date -u +%H%M)" -lt "$until" ] || kill -TERM $pid
		sleep 5
	done
	wait $pid || true # a wrong verdict exits 1
}

# What ran (session 18, from 04:35 UTC). The first plan, all runs to the end in the order
# lit, wmm16, esbmc (samples/esbmc-lit-wmm8.tsv), ext, new, did not fit: with two other
# benchmarks beside it ESBMC's runs on pthread-lit timed out one after the other. esbmc was
# stopped after its first two tasks (12 runs, kept: runs/esbmc takes them from esbmc-cut1)
# and the rest runs interleaved, each run up to a deadline:
#
# built-in backend (z3), 15 s per task and heuristic
# bench lit $HB 15s $S/sv15-lit.tsv 9999
# bench wmm16 $HB 15s $S/sv15-wmm16.tsv 9999
# ESBMC, 20 s per task and heuristic (mode cegpv@esbmc/H), stopped by hand (SIGTERM) after
# 2 tasks; it ran as "esbmc" and its directory was then renamed esbmc-cut1:
# bench esbmc-cut1 $H 20s $S/esbmc-lit-wmm8.tsv 9999 --modes cegpv@esbmc
bench ext $HB 15s $S/sv15-pthread-ext-every3.tsv 0501
bench new $HB 15s $S/new-every4.tsv 0515
bench esbmc $H 20s $S/esbmc-rest.tsv 0528 --modes cegpv@esbmc
