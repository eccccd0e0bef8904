#!/bin/bash
# Writes a GraphML witness for every 8th task of the shared SV-COMP 2015
# manifest (68 tasks: violation witnesses for FALSE, correctness witnesses
# for TRUE) and lints each with SV-COMP's witnesslint.
#   usage: docs/bench/witnesslint/run.sh PATH/TO/sv-witnesses/lint/witnesslinter.py > docs/bench/witnesslint/results.tsv
# (witnesslint is in the public sosy-lab/sv-witnesses repository; it needs
# Debian's python3-lxml: make witnesslint-deps.) Columns: task, verdict,
# witnesslint exit code (0: accepted), its last message.
set -u
lint=$1
manifest=../shared/bench/sv-comp15/manifest.tsv
prp=testdata/svcomp/unreach-call-2015.prp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -F'\t' 'NR>1 && NR%8==0 {print $1}' $manifest | while read -r f; do
  src=../shared/bench/sv-comp15/$f
  v=$(bin/cegpv verify --32 --timeout 30s --beyond 0 --propertyfile $prp --witness "$tmp/w.graphml" "$src" 2>/dev/null | tail -1 | cut -d' ' -f1)
  if [ ! -s "$tmp/w.graphml" ]; then
    printf "%s\t%s\t-\tno witness (UNKNOWN)\n" "$f" "$v"
    continue
  fi
  msg=$(/usr/bin/python3 "$lint" --witness "$tmp/w.graphml" "$src" 2>&1 | grep -v '^$' | tail -2 | head -1)
  /usr/bin/python3 "$lint" --witness "$tmp/w.graphml" "$src" > /dev/null 2>&1
  printf "%s\t%s\t%d\t%s\n" "$f" "$v" $? "$msg"
  rm -f "$tmp/w.graphml"
done
