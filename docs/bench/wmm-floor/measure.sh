#!/bin/bash
# Measures, for every pthread-wmm task of the manifest, how long a cegpv run
# takes from its start to the first answer of the backend on the first
# abstraction (parsing, dependency graph, slicing, encoding, solver start and
# the first solve): the least any CEGPV run spends before it can conclude
# anything. Two tasks at a time, as `cegpv bench -j 2`.
#
#   go build -o bin/cegpv ./cmd/cegpv
#   docs/bench/wmm-floor/measure.sh bin/cegpv ../shared/bench/sv-comp15 /tmp/wmm-floor
#   python3 docs/bench/wmm-floor/floor.py /tmp/wmm-floor docs/bench/sv-comp15-wmm/results.csv
set -eu
bin=$(realpath "$1"); bench=$2; out=$3
mkdir -p "$out"
one() {
	local b; b=$(basename "$2")
	local s; s=$(date +%s.%N)
	# -v -v -v logs each solver answer with a time stamp (backend/smt)
	"$1" verify -v -v -v --timeout 60s "$2" 2>&1 >/dev/null | grep '^20.*checked' > "$3/$b.log" || true
	echo "$s $(date +%s.%N)" > "$3/$b.time"
}
export -f one
awk -F'\t' '$2 == "pthread-wmm" {print $1}' "$bench/manifest.tsv" | sed "s|^|$bench/|" |
	xargs -P 2 -I{} bash -c 'one "$0" "$1" "$2"' "$bin" {} "$out"
