#!/bin/sh
# a checker that crashes
kill -SEGV $$
