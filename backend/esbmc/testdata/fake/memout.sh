#!/bin/sh
# ESBMC 8.4 when its solver runs out of memory (pthread-ext/25_stack at 2
# rounds, 2026-11-29): the solver's error and exit code 2
echo "Solving with solver Bitwuzla 0.9.0" >&2
echo "ERROR: Out of memory" >&2
echo "" >&2
echo "ERROR: SMT solver failed" >&2
exit 2
