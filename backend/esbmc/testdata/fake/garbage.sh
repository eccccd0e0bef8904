#!/bin/sh
# exit code of a violation, but garbage output
echo "ESBMC version 8.4.0"
echo "%% garbage @@ no trace" >&2
exit 1
