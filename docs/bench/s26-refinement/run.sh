#!/bin/sh
# Issue 31 item 3, session 26: the refinement an external checker pays for, measured against the
# alternative the loop has, the paper's observer/controller (--refinement observer), on the seven
# tasks where the CEGPV loop alone refines under --rounds 2 over ESBMC (session 24's loop-only run:
# the stack family and 25_stack_longest_true). The loop alone (--loop-only), 60 s, one task at a
# time, the machine otherwise idle, from the repository root.
# Binary: cegpv-s26c = e069422 (bin/, beside bin/esbmc).
OUT=${OUT:-/tmp/b26/lo}
for r in monitor observer; do mkdir -p $OUT/$r; done
for f in $(tail -n +2 docs/bench/s24-lazyseq-points/loop.tsv | cut -f1 | grep -E "/stack_|25_stack_longest_true"); do
  for r in monitor observer; do
    bin/cegpv-s26c verify --json --loop-only --refinement $r --mode cegpv --backend esbmc --explicit=false --rounds 2 --unwind 5 --timeout 60s docs/bench/s21-rounds/$f > $OUT/$r/$(basename $f .c).json || true
  done
done
# one row per abstraction check (the "binary" column is the refinement)          # loop-only.csv
python3 docs/bench/s24-lazyseq-points/iterations.py $OUT > docs/bench/s26-refinement/loop-only.csv
