#!/bin/sh
# replays a recorded ESBMC 8.4 run: $CEGPV_RECORDED.prog.c is the program
# ESBMC was given, $CEGPV_RECORDED.esbmc.txt what it printed on it (stdout
# and stderr); the program cegpv prints now (the last argument) must be the
# recorded one
for a; do f=$a; done
if ! cmp -s "$f" "$CEGPV_RECORDED.prog.c"; then
	echo "the printed program differs from $CEGPV_RECORDED.prog.c: record ESBMC's output on it again" >&2
	exit 3
fi
cat "$CEGPV_RECORDED.esbmc.txt" >&2
exit 1
