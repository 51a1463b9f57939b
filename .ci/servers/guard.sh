#!/usr/bin/env bash
# Started by start.sh for the first process that names itself an owner of the servers
# (ROWKEY_SERVERS_OWNER, its pid: the test binaries do). Once a second, under start.sh's lock, it
# forgets owners that have exited; when none is left it stops the servers (stop.sh) and exits. So
# a test run leaves no server behind, and a start in between (another test binary) keeps them.
set -uo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

while sleep 1; do
  exec 9>"$SERVERS_DIR/.lock"
  flock 9
  alive=0
  for f in "$OWNERS_DIR"/*; do
    [ -e "$f" ] || continue
    if kill -0 "${f##*/}" 2>/dev/null; then alive=1; else rm -f "$f"; fi
  done
  if [ $alive = 0 ]; then
    say "guard: every owner has exited; stopping the servers"
    ROWKEY_SERVERS_LOCKED=1 bash "$CI_SERVERS/stop.sh" 9>&- || true
    rm -f "$PID_DIR/guard.pid"
    exit 0
  fi
  exec 9>&-
done
