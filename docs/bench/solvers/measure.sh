#!/bin/bash
# Interleaved A/B/C of the built-in backend's solver presets on every 6th
# task of the shared SV-COMP 2015 manifest (90 tasks), plain mode, one task
# at a time, --unwind 5, 60 s per task, no search beyond the bounds.
# Run from the project root after `make deps build`:
#   docs/bench/solvers/measure.sh > docs/bench/solvers/results.tsv
# Columns: task, expected, solver preset, verdict line (cut), wall seconds.
set -u
manifest=../shared/bench/sv-comp15/manifest.tsv
awk -F'\t' 'NR>1 && NR%6==0 {print $1"\t"$3}' $manifest |
while IFS=$'\t' read -r f e; do
  for s in z3 z3-5.4 yices; do
    start=$(date +%s.%N)
    v=$(timeout 70 bin/cegpv verify --mode plain --beyond 0 --timeout 60s --solver "$s" "../shared/bench/sv-comp15/$f" 2>/dev/null | grep -E "^(TRUE|FALSE|UNKNOWN)" | head -1 | cut -c1-40)
    end=$(date +%s.%N)
    printf "%s\t%s\t%s\t%s\t%.2f\n" "$f" "$e" "$s" "$v" "$(echo "$end - $start" | bc)"
  done
done
