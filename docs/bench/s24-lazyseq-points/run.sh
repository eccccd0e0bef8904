#!/bin/sh
# Issue 31, session 24: fewer context-switch points in the lazy sequentialisation (none in main
# before any thread exists, none inside a closed atomic section such as the refinement monitor's
# bracket) and main's command-line characters drawn by explicit stores (an external checker's
# trace shows them). 60 s per task, -j 1, the explicit-state search off. From the repository root.
# Binaries (bin/, so that they find bin/esbmc and bin/yices-smt2):
#   cegpv-s23d: session 23's last code (a4b85e0)
#   cegpv-s24b: + argv's characters drawn explicitly, no point in main before any thread (5ef7c84)
#   cegpv-s24c: + no point inside a closed atomic section (81930cb)
#   cegpv-s24f: + read probes, program.SharedAccess (1aef7c2)
#   cegpv-s24g: + fresh labels without rescans (7cb8f8d)
set -e
OUT=${OUT:-/tmp/b24}
# 1. the 51-task pthread-wmm sample at 3 rounds over ESBMC, both modes           # wmm-esbmc-r3.csv
(cd docs/bench/esbmc-search && ../../../bin/cegpv-s24b bench -timeout 60s -j 1 -modes plain@esbmc,cegpv@esbmc -verify-flags "--explicit=false --rounds 3" -out $OUT/wmm-esbmc-r3 sample9.tsv)
#    and cegpv mode again, alone on the machine, with the last code            # wmm-cegpv-esbmc-r3-idle.csv
(cd docs/bench/esbmc-search && ../../../bin/cegpv-s24f bench -timeout 60s -j 1 -modes cegpv@esbmc -verify-flags "--explicit=false --rounds 3" -out $OUT/wmm-cegpv-idle sample9.tsv)
# 2. the 86 pthread, pthread-ext and pthread-lit tasks over ESBMC at 2 rounds       # pthread-r2.csv
bin/cegpv-s24c bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/pthread-r2 docs/bench/s21-rounds/pthread.tsv
# 3. the CEGPV loop alone (--loop-only) on the 26 stack/queue-like tasks of step 2: per-check
#    times of the abstractions before and after the refinement monitor            # loop-only.csv
#    (loop.tsv: the lines of docs/bench/s21-rounds/pthread.tsv matching stack|queue|stateful|28_buggy);
#    s24b only on the 7 where s24c refines (pthread/stack_*, 25_stack_longest_true)
lo() { mkdir -p $OUT/lo/$1
  bin/cegpv-$1 verify --json --loop-only --mode cegpv --backend esbmc --explicit=false --rounds 2 --unwind 5 --timeout 60s docs/bench/s21-rounds/$2 > $OUT/lo/$1/$(basename $2 .c).json || true; }
for f in $(tail -n +2 docs/bench/s24-lazyseq-points/loop.tsv | cut -f1); do lo s24c $f; done
for f in $(tail -n +2 docs/bench/s24-lazyseq-points/loop.tsv | cut -f1 | grep -E "/stack_|25_stack_longest_true"); do lo s24b $f; done
python3 docs/bench/s24-lazyseq-points/iterations.py $OUT/lo > docs/bench/s24-lazyseq-points/loop-only.csv
# 4. sv-comp-new, cegpv mode over ESBMC at 2 rounds (beside the fresh clone's make test)  # sv-comp-new-cegpv-r2.csv
bin/cegpv-s24c bench --modes cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/svnew-cegpv-esbmc-r2 ../shared/bench/sv-comp-new/manifest.tsv
#    then the 17 tasks that timed out, again with s24g (timeouts.tsv: their manifest lines,
#    paths made absolute)                                                    # sv-comp-new-cegpv-r2-timeouts-again.csv
python3 - "$OUT/svnew-cegpv-esbmc-r2/results.csv" "$(cd ../shared/bench/sv-comp-new && pwd)/" > $OUT/timeouts.tsv <<'PY'
import csv, sys
bad = {r['file'] for r in csv.DictReader(open(sys.argv[1])) if r['status'] != 'correct' and r['result'] != 'true'}
lines = open(sys.argv[2] + 'manifest.tsv').read().split('\n')
print(lines[0])
for l in lines[1:]:
    c = l.split('\t')
    if l and c[0] in bad:
        c[0], c[4] = sys.argv[2] + c[0], sys.argv[2] + c[4]
        print('\t'.join(c))
PY
bin/cegpv-s24g bench --modes cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/redo $OUT/timeouts.tsv
