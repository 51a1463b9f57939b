#!/usr/bin/env bash
# Stops the servers started by start.sh: SIGTERM, wait for them to exit, SIGKILL after 10 s. Then
# removes the etcd data directory. Processes are found through $ROWKEY_SERVERS_DIR/pids/ and are
# signalled only if they still run the expected executable (bttest or etcd). Safe to run when
# nothing is running. Exits non-zero if a process could not be stopped.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mkdir -p "$SERVERS_DIR"
if [ "${ROWKEY_SERVERS_LOCKED:-0}" != 1 ]; then
  exec 9>"$SERVERS_DIR/.lock"
  flock 9
fi

t=$(now)
rc=0
stop_procs bttest "$BTTEST_BIN" || rc=1
stop_etcd || rc=1
ROWKEY_SERVERS_LOCKED=1 bash "$CI_SERVERS/hbase.sh" stop 9>&- || rc=1
if [ $rc = 0 ]; then
  remove_etcd_data
else
  say "keeping the etcd data directory: a member may still be running"
fi

busy=()
for port in "$BTTEST_PORT" "${ETCD_CLIENT_PORTS[@]}" "${ETCD_PEER_PORTS[@]}"; do
  port_open "$port" && busy+=("$port")
done
[ ${#busy[@]} -eq 0 ] || say "warning: still in use on $HOST: ${busy[*]}"

[ $rc = 0 ] || die "some servers could not be stopped"
say "stopped in $(elapsed "$t")s"
