#!/bin/sh
# Issue 31, session 25: ESBMC on the 2-round sequentialisation beside the mode in the default
# configuration (--rounds-beside 2, the default when ESBMC is installed), and the third target's
# unloaded run. 60 s per task, -j 1, from the repository root. Binaries (bin/, beside bin/esbmc):
#   cegpv-s25a: session 24's last code (8b5859a)
#   cegpv-s25b: + the sequentialisation beside the mode (e35a690)
set -e
OUT=${OUT:-/tmp/b25}
# 1. the 86 pthread, pthread-ext and pthread-lit tasks over ESBMC at 2 rounds, both modes, search off,
#    the machine otherwise idle                                                # pthread-esbmc-r2-idle.csv
bin/cegpv-s25a bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/pthread-r2 docs/bench/s21-rounds/pthread.tsv
# 2. the default configuration on the same 86, with the sequentialisation beside the mode and
#    without it                                                              # pthread-default.csv, pthread-default-off.csv
bin/cegpv-s25b bench --modes cegpv --timeout 60s --unwind 5 -j 1 --out $OUT/pthread-default docs/bench/s21-rounds/pthread.tsv
bin/cegpv-s25b bench --modes cegpv --timeout 60s --unwind 5 -j 1 --verify-flags "--rounds-beside 0" --out $OUT/pthread-default-off docs/bench/s21-rounds/pthread.tsv
# 3. the default configuration on sv-comp-new                                  # sv-comp-new-default.csv
bin/cegpv-s25b bench --modes cegpv --timeout 60s --unwind 5 -j 1 --out $OUT/svnew-default ../shared/bench/sv-comp-new/manifest.tsv
