#!/bin/sh
# Issue 31, session 26: the third target per task (cegpv mode over ESBMC at 2 rounds never slower
# than plain mode). 60 s per task, -j 1, the machine otherwise idle, from the repository root.
# Binaries (bin/, beside bin/esbmc):
#   cegpv-s26a: session 25's last code (5b2d28b)
#   cegpv-s26b: + the loop leaves its last level to the whole program's check beside it (4044a3b)
set -e
OUT=${OUT:-/tmp/b26}
# 1. the six tasks session 25 found slower in cegpv mode, before and after   # slow-before.csv, slow-after.csv
bin/cegpv-s26b bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/slow-b docs/bench/s26-whole-once/slow.tsv
bin/cegpv-s26a bench --modes cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/slow-a docs/bench/s26-whole-once/slow.tsv
# 2. the 86 pthread, pthread-ext and pthread-lit tasks, both modes, search off   # pthread-esbmc-r2.csv
bin/cegpv-s26b bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/pthread-r2 docs/bench/s21-rounds/pthread.tsv
# 3. the one task slower by more than 1 s in run 2, three times each mode, by hand (README)
F=../shared/bench/sv-comp15/pthread/twostage_3_false-unreach-call.cil.c
for i in 1 2 3; do for m in plain cegpv; do
  /usr/bin/time -f "$m wall %e cpu %U" bin/cegpv-s26b verify --mode $m --backend esbmc --explicit=false --rounds 2 --unwind 5 --data-model ILP32 --timeout 60s $F >/dev/null
done; done
# 4. the 51-task wmm sample at 3 rounds, both modes (session 24's run; binary cegpv-s26c = e069422,
#    the same loop and race as s26b)                                           # wmm-esbmc-r3.csv
(cd docs/bench/esbmc-search && ../../../bin/cegpv-s26c bench --timeout 60s -j 1 --modes plain@esbmc,cegpv@esbmc --verify-flags "--explicit=false --rounds 3" --out $OUT/wmm-r3 sample9.tsv)
# 5. sv-comp-new at 2 rounds, both modes (cegpv-s26c)                          # sv-comp-new-esbmc-r2.csv
bin/cegpv-s26c bench --modes plain@esbmc,cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/svnew-r2 ../shared/bench/sv-comp-new/manifest.tsv
# 6. the same in cegpv mode with the loop's budget beside the whole check (10 s of its CPU;
#    cegpv-s26d = 0353dbf)                                                      # sv-comp-new-esbmc-r2-loop10.csv
bin/cegpv-s26d bench --modes cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/svnew-r2-d ../shared/bench/sv-comp-new/manifest.tsv
# 7. the 86 in cegpv mode with the loop's budget (cegpv-s26d)                   # pthread-esbmc-r2-loop10.csv
bin/cegpv-s26d bench --modes cegpv@esbmc --timeout 60s --unwind 5 -j 1 --verify-flags "--explicit=false --rounds 2" --out $OUT/pthread-r2-d docs/bench/s21-rounds/pthread.tsv
# 8. the wmm sample at 3 rounds in cegpv mode with the loop's budget (cegpv-s26d)  # wmm-esbmc-r3-loop10.csv
(cd docs/bench/esbmc-search && ../../../bin/cegpv-s26d bench --timeout 60s -j 1 --modes cegpv@esbmc --verify-flags "--explicit=false --rounds 3" --out $OUT/wmm-r3-d sample9.tsv)
