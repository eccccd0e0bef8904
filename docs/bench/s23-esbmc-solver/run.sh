#!/bin/sh
# Issue 31: ESBMC's solver (Boolector, no longer ESBMC 8.4's default Bitwuzla) and a leaner
# lazy sequentialisation, on the 51-task pthread-wmm sample
# (docs/bench/esbmc-search/sample9.tsv), 60 s per task, -j 1, the explicit-state search off in
# every mode. Run from docs/bench/esbmc-search (the sample's paths are relative to it):
#   sh ../s23-esbmc-solver/run.sh
# Binaries (bin/, so that they find bin/esbmc and bin/yices-smt2):
#   cegpv-s23a: 2036a10 + ESBMC's solver Boolector (the first commit of session 23)
#   cegpv-s23b: + one guess per context (__ls_stop) instead of a choice per point
#   cegpv-s23d: + no draw for a Decl the next instruction overwrites, and pc as the only
#               state of the skip chain (the second commit)
set -e
OUT=${OUT:-/tmp/b23}
run() { bin=$1; shift; ../../../bin/$bin bench -timeout 60s -j 1 "$@" sample9.tsv; }
# 1. ESBMC on the 3-round sequentialisation, plain mode, each step alone
run cegpv-s23a -modes plain@esbmc -verify-flags "--explicit=false --rounds 3" -out $OUT/plain-esbmc-r3       # plain-esbmc-r3-boolector.csv
run cegpv-s23b -modes plain@esbmc -verify-flags "--explicit=false --rounds 3" -out $OUT/plain-esbmc-r3-stop  # plain-esbmc-r3-stop.csv
run cegpv-s23d -modes plain@esbmc -verify-flags "--explicit=false --rounds 3" -out $OUT/plain-esbmc-r3-d     # plain-esbmc-r3.csv
# 2. ESBMC alone, now with Boolector too (the baseline; beside runs 1-3 and the tests)
run cegpv-s23b -modes plain@esbmc -verify-flags "--explicit=false" -out $OUT/alone                           # alone.csv
# 3. cegpv mode over ESBMC, and the built-in backend, on the same sequentialisations
run cegpv-s23d -modes cegpv@esbmc -verify-flags "--explicit=false --rounds 3" -out $OUT/cegpv-esbmc-r3       # cegpv-esbmc-r3.csv
run cegpv-s23d -modes plain,cegpv -verify-flags "--explicit=false --rounds 3" -out $OUT/builtin-r3           # builtin-r3.csv
# 4. (from the repository root) the 86 pthread, pthread-ext and pthread-lit tasks over ESBMC at
#    2 rounds, as docs/bench/s22-esbmc-pthread/run.sh step 1                   # pthread-r2.csv
#   bin/cegpv-s23d bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/pthread-r2 docs/bench/s21-rounds/pthread.tsv
