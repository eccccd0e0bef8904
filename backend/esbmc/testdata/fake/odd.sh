#!/bin/sh
# an exit code ESBMC does not use
echo "something odd" >&2
exit 3
