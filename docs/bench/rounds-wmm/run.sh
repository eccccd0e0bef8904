#!/bin/sh
# Issue 31, item 4: the 51-task pthread-wmm sample (docs/bench/esbmc-search/sample9.tsv),
# 60 s per task, -j 1 per run, the explicit-state search off in every mode.
# Run from docs/bench/esbmc-search (the sample's paths are relative to it):
#   BIN=../../../bin/cegpv OUT=/tmp/b31 sh ../rounds-wmm/run.sh
set -e
BIN=${BIN:-../../../bin/cegpv}
OUT=${OUT:-/tmp/b31}
# 1. ESBMC alone (the baseline; binary of 6acc430, which does not matter here)
$BIN bench -modes plain@esbmc -verify-flags "--explicit=false" -timeout 60s -j 1 -out $OUT/alone sample9.tsv
# 2. ESBMC on the lazy sequentialisation, 3 rounds, plain mode (beside the loop-alone run of
#    cegpv mode at e3c344f, stopped after 8 tasks: cegpv-esbmc-r3-loop-partial.csv)
$BIN bench -modes plain@esbmc -verify-flags "--explicit=false --rounds 3" -timeout 60s -j 1 -out $OUT/plain-esbmc-r3 sample9.tsv
# 3. cegpv mode, 3 rounds (the whole program's check races the loop), alone on the machine
$BIN bench -modes cegpv@esbmc -verify-flags "--explicit=false --rounds 3" -timeout 60s -j 1 -out $OUT/cegpv-esbmc-r3 sample9.tsv
# 4. the built-in backend (plain symbolic execution of the sequential program, Yices),
#    and ESBMC at 2 rounds (the setting), side by side
$BIN bench -modes plain,cegpv -verify-flags "--explicit=false --rounds 3" -timeout 60s -j 1 -out $OUT/builtin-r3 sample9.tsv &
$BIN bench -modes plain@esbmc -verify-flags "--explicit=false --rounds 2" -timeout 60s -j 1 -out $OUT/plain-esbmc-r2 sample9.tsv
wait
