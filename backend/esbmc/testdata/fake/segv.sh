#!/bin/sh
# a checker that crashes
echo "ESBMC version 8.4.0 64-bit x86_64 linux"
kill -SEGV $$
