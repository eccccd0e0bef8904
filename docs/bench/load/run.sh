#!/bin/sh
# The three runs of docs/bench/load (issue 27, item 5): the same tasks at
# -j 1, at -j 2, and at -j 1 beside a CPU hog pinned to the second core.
# BIN is a copy of bin/cegpv (bench runs `cegpv verify` from its own binary).
# PREFIX names the CSVs (docs/bench/load/$PREFIX$RUN.csv, $PREFIX${RUN}-new.csv).
set -e
BIN=${BIN:-bin/cegpv}
OUT=${OUT:-/tmp/h27-load}
PREFIX=${PREFIX:-}
F="--modes cegpv --timeout 300s --unwind 5"
run() { # run name flags...
	r=$1; shift
	$BIN bench $F "$@" --out $OUT/$r docs/bench/load/manifest.tsv || true
	$BIN bench $F "$@" --out $OUT/$r-new docs/bench/load/manifest-new.tsv || true
}
run j1 -j 1
run j2 -j 2
taskset -c 1 yes > /dev/null & HOG=$!
run j1-hog -j 1
kill $HOG
for r in j1 j2 j1-hog; do
	cp $OUT/$r/results.csv docs/bench/load/$PREFIX$r.csv
	cp $OUT/$r-new/results.csv docs/bench/load/$PREFIX$r-new.csv
done
