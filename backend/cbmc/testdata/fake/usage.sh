#!/bin/sh
# a usage error
echo "Usage error!" >&2
exit 64
