#!/bin/sh
# hangs, with a child in its process group; writes the child pid to $FAKE_PIDFILE
sleep 300 &
echo $! > "$FAKE_PIDFILE"
wait
