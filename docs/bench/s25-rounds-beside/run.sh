#!/bin/sh
# Issue 31, session 25: ESBMC on the 2-round sequentialisation beside the mode in the default
# configuration (--rounds-beside 2, the default when ESBMC is installed), and the third target's
# unloaded run. 60 s per task, -j 1, the machine otherwise idle, from the repository root.
# Binaries (bin/, beside bin/esbmc):
#   cegpv-s25a: session 24's last code (8b5859a)
#   cegpv-s25b: + the sequentialisation beside the mode, from 10 s of the mode's CPU (e35a690)
#   cegpv-s25c: + from 5 s, the probe's time (the commit after e35a690)
set -e
OUT=${OUT:-/tmp/b25}
# 1. the 86 pthread, pthread-ext and pthread-lit tasks over ESBMC at 2 rounds, both modes,
#    search off                                                                # pthread-esbmc-r2-idle.csv
bin/cegpv-s25a bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/pthread-r2 docs/bench/s21-rounds/pthread.tsv
# 2. the default configuration on the same 86: the engine from 10 s, then without it
#                                                       # pthread-default-delay10.csv, pthread-default-off.csv
bin/cegpv-s25b bench --modes cegpv --timeout 60s --unwind 5 -j 1 --out $OUT/pthread-default docs/bench/s21-rounds/pthread.tsv
bin/cegpv-s25b bench --modes cegpv --timeout 60s --unwind 5 -j 1 --verify-flags "--rounds-beside 0" --out $OUT/pthread-default-off docs/bench/s21-rounds/pthread.tsv
# 3. the default configuration from 5 s, on the 86 and on sv-comp-new   # pthread-default.csv, sv-comp-new-default.csv
bin/cegpv-s25c bench --modes cegpv --timeout 60s --unwind 5 -j 1 --out $OUT/pthread-default5 docs/bench/s21-rounds/pthread.tsv
bin/cegpv-s25c bench --modes cegpv --timeout 60s --unwind 5 -j 1 --out $OUT/svnew-default5 ../shared/bench/sv-comp-new/manifest.tsv
# 4. the built-in backend at 2 rounds on sv-comp-new, plain mode, search off (the item 4;
#    -j 2: two tasks at once)                                                # sv-comp-new-builtin-r2.csv
bin/cegpv-s25c bench --modes plain --timeout 60s --unwind 5 -j 2 --verify-flags "--explicit=false --rounds 2" --out $OUT/svnew-builtin-r2 ../shared/bench/sv-comp-new/manifest.tsv
#    and cegpv mode                                                          # sv-comp-new-builtin-r2-cegpv.csv
bin/cegpv-s25c bench --modes cegpv --timeout 60s --unwind 5 -j 2 --verify-flags "--explicit=false --rounds 2" --out $OUT/svnew-builtin-r2-cegpv ../shared/bench/sv-comp-new/manifest.tsv
