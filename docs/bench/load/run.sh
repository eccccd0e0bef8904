#!/bin/sh
# The three runs of docs/bench/load (issue 27, item 5): the same tasks at
# -j 1, at -j 2, and at -j 1 beside a CPU hog pinned to the second core.
# BIN is a copy of bin/cegpv (bench runs `cegpv verify` from its own binary).
set -e
BIN=${BIN:-bin/cegpv}
OUT=${OUT:-/tmp/h27-load}
M=docs/bench/load/manifest.tsv
F="--modes cegpv --timeout 300s --unwind 5"
$BIN bench $F -j 1 --out $OUT/j1 $M || true
$BIN bench $F -j 2 --out $OUT/j2 $M || true
taskset -c 1 yes > /dev/null & HOG=$!
$BIN bench $F -j 1 --out $OUT/j1-hog $M || true
kill $HOG
for r in j1 j2 j1-hog; do cp $OUT/$r/results.csv docs/bench/load/$r.csv; done
