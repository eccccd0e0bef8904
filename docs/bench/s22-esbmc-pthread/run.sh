#!/bin/sh
# Issue 31, item 4: ESBMC 8.4 on the 86 pthread, pthread-ext and pthread-lit tasks of the
# 2015 set (docs/bench/s21-rounds/pthread.tsv), 60 s per task, unwind 5, -j 1, the
# explicit-state search off in every mode. Binary: bin/cegpv-s22a (c0adee6).
#   sh docs/bench/s22-esbmc-pthread/run.sh   (from the repository root)
set -e
BIN=${BIN:-bin/cegpv-s22a}
OUT=${OUT:-/tmp/b22}
# 1. plain and cegpv mode over ESBMC on the lazy sequentialisation, 2 rounds
$BIN bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/r2 docs/bench/s21-rounds/pthread.tsv
# 2. ESBMC alone (the baseline)
$BIN bench --modes plain@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false" --out $OUT/alone docs/bench/s21-rounds/pthread.tsv
