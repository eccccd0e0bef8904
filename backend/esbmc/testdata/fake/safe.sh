#!/bin/sh
# SAFE, as ESBMC prints it
echo "ESBMC version 8.4.0 64-bit x86_64 linux"
echo "VERIFICATION SUCCESSFUL" >&2
exit 0
