#!/bin/sh
# says FAILED with a trace that leads nowhere (a state on a line of no instruction)
cat >&2 <<EOF
[Counterexample]

State 3 file prog.c line 1 column 1 function main thread 0
----------------------------------------------------
Violated property:
  file prog.c line 1 column 3 function main
  assertion x == 1
  x == 1

VERIFICATION FAILED
EOF
exit 1
