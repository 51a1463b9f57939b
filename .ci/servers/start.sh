#!/usr/bin/env bash
# Starts the servers of rowkey's end-to-end tests on 127.0.0.1, in the background:
#   - the Cloud Bigtable emulator (bttest),
#   - a 3-member etcd cluster (rk0, rk1, rk2),
# on ports the environment names (ROWKEY_BTTEST_PORT, ROWKEY_ETCD_CLIENT_PORTS,
# ROWKEY_ETCD_PEER_PORTS) or else free ones it chooses and records in target/servers/ports,
# after running install.sh. Waits until each answers, then prints the endpoints as `export` lines
# on stdout (everything else goes to stderr), so that
#
#   eval "$(.ci/servers/start.sh)"
#
# sets ROWKEY_BIGTABLE_EMULATOR, ROWKEY_ETCD_ENDPOINTS and ROWKEY_ETCD_BIN. Servers of an earlier
# start that are still running, healthy and configured alike are reused (with their data); set
# ROWKEY_SERVERS_FRESH=1 to restart them. Stop them with stop.sh. On failure, whatever this run
# started is stopped again and the exit status is non-zero.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

t_all=$(now)
bash "$CI_SERVERS/install.sh" || die "install.sh failed"

mkdir -p "$LOG_DIR" "$PID_DIR"
# One start/stop at a time. The servers are started with this descriptor closed.
exec 9>"$SERVERS_DIR/.lock"
flock 9
export ROWKEY_SERVERS_LOCKED=1 # for the stop.sh run from here

if [ "${ROWKEY_SERVERS_FRESH:-0}" = 1 ]; then
  say "ROWKEY_SERVERS_FRESH=1: stopping earlier servers"
  bash "$CI_SERVERS/stop.sh" 9>&- || die "stop.sh failed"
fi

# --- health checks ------------------------------------------------------------------------------
bttest_running() {
  local pid
  pid=$(recorded_pid bttest)
  [ -n "$pid" ] && is_ours "$pid" "$BTTEST_BIN"
}
bttest_ready() { # running, and serving the wanted address
  bttest_running &&
    grep -qxF "bttest listening on $BTTEST_ADDR" "$LOG_DIR/bttest.log" 2>/dev/null &&
    port_open "$BTTEST_PORT"
}
bttest_current() { # not running a binary that install.sh has replaced since
  [[ "$(readlink "/proc/$(recorded_pid bttest)/exe" 2>/dev/null)" != *" (deleted)" ]]
}

etcd_member_running() { # etcd_member_running I
  local pid
  pid=$(recorded_pid "etcd-$(etcd_name "$1")")
  [ -n "$pid" ] && is_ours "$pid" "$ETCD_BIN"
}
etcd_member_healthy() { # running, and a quorum read through it succeeds
  etcd_member_running "$1" &&
    etcdctl_ --endpoints="http://$HOST:${ETCD_CLIENT_PORTS[$1]}" --dial-timeout=1s \
      --command-timeout=2s endpoint health >/dev/null 2>&1
}
etcd_ready() { # every member healthy, started with the current configuration
  local i
  [ "$(cat "$ETCD_CONFIG_RECORD" 2>/dev/null)" = "$(etcd_config)" ] || return 1
  for ((i = 0; i < ETCD_MEMBERS; i++)); do etcd_member_healthy "$i" || return 1; done
}

# --- failure handling ---------------------------------------------------------------------------
launched_bttest=0
launched_etcd=0
# On a non-zero exit, stop what this run launched (not servers it reused).
cleanup_on_failure() {
  local rc=$?
  [ $rc != 0 ] || return 0
  if [ $launched_bttest = 1 ] || [ $launched_etcd = 1 ]; then
    say "start failed: stopping the servers started by this run"
    [ $launched_bttest = 0 ] || stop_procs bttest "$BTTEST_BIN" || true
    if [ $launched_etcd = 1 ]; then
      if stop_etcd; then remove_etcd_data; fi
    fi
  fi
  exit $rc
}
trap cleanup_on_failure EXIT

fail_start() { # fail_start NAME MESSAGE: show the end of the log and exit 1
  say "$1: $2; last lines of $LOG_DIR/$1.log:"
  tail -n 30 "$LOG_DIR/$1.log" >&2 2>/dev/null || true
  die "$1: $2"
}

# --- what to start ------------------------------------------------------------------------------
start_bttest=1
if bttest_ready && bttest_current; then
  say "reusing bttest (pid $(recorded_pid bttest)) on $BTTEST_ADDR"
  start_bttest=0
fi
start_etcd=1
if etcd_ready; then
  say "reusing the etcd cluster ($(etcd_endpoints))"
  start_etcd=0
fi

# Whatever is left of an earlier start (stale, rebuilt, unhealthy, partial or configured
# differently) exits before its ports and data directory are reused. An etcd cluster is replaced
# as a whole, with a new, empty data directory.
ports=()
if [ $start_bttest = 1 ]; then
  stop_procs bttest "$BTTEST_BIN" || die "could not stop the earlier bttest"
  ports+=("$BTTEST_PORT:bttest")
fi
if [ $start_etcd = 1 ]; then
  stop_etcd || die "could not stop the earlier etcd members"
  remove_etcd_data
  for ((i = 0; i < ETCD_MEMBERS; i++)); do
    ports+=("${ETCD_CLIENT_PORTS[i]}:etcd $(etcd_name "$i") client" "${ETCD_PEER_PORTS[i]}:etcd $(etcd_name "$i") peer")
  done
fi
# Ports the environment does not name are chosen here: free ones, when this checkout has none
# recorded yet or another process took one of them since.
if [ "$PORTS_FROM_ENV" = 0 ] && [ ${#ports[@]} -gt 0 ]; then
  choose=0
  [ -s "$PORTS_RECORD" ] || choose=1
  for p in "${ports[@]}"; do port_open "${p%%:*}" && choose=1; done
  if [ $choose = 1 ]; then
    read -r -a fresh <<<"$(free_ports ${#ports[@]})"
    if [ $start_bttest = 1 ]; then
      BTTEST_PORT=${fresh[0]}
      BTTEST_ADDR=$HOST:$BTTEST_PORT
      fresh=("${fresh[@]:1}")
    fi
    if [ $start_etcd = 1 ]; then
      ETCD_CLIENT_PORTS=("${fresh[@]:0:ETCD_MEMBERS}")
      ETCD_PEER_PORTS=("${fresh[@]:ETCD_MEMBERS}")
    fi
    say "chose free ports: bttest $BTTEST_PORT, etcd clients ${ETCD_CLIENT_PORTS[*]}, peers ${ETCD_PEER_PORTS[*]}"
    ports=()
    [ $start_bttest = 0 ] || ports+=("$BTTEST_PORT:bttest")
    if [ $start_etcd = 1 ]; then
      for ((i = 0; i < ETCD_MEMBERS; i++)); do
        ports+=("${ETCD_CLIENT_PORTS[i]}:etcd $(etcd_name "$i") client" "${ETCD_PEER_PORTS[i]}:etcd $(etcd_name "$i") peer")
      done
    fi
  fi
  record_ports
fi
for p in ${ports[@]+"${ports[@]}"}; do
  if port_open "${p%%:*}"; then
    die "$HOST:${p%%:*} (${p#*:}) is in use by a process not started by these scripts; free it or choose other ports (ROWKEY_BTTEST_PORT, ROWKEY_ETCD_CLIENT_PORTS, ROWKEY_ETCD_PEER_PORTS)"
  fi
done

# --- start --------------------------------------------------------------------------------------
if [ $start_bttest = 1 ]; then
  t_bt=$(now)
  say "starting bttest on $BTTEST_ADDR"
  launched_bttest=1
  launch bttest "$BTTEST_BIN" -addr "$BTTEST_ADDR"
fi

if [ $start_etcd = 1 ]; then
  mkdir -p "$ETCD_DATA_PARENT"
  data=$(mktemp -d "$ETCD_DATA_PARENT/rowkey-etcd.XXXXXX")
  echo "$data" >"$ETCD_DATA_RECORD"
  etcd_config >"$ETCD_CONFIG_RECORD"
  cluster=$(etcd_initial_cluster)
  # etcd takes ETCD_* variables as flags and refuses ones that a flag shadows; keep only the one
  # that other architectures need.
  # shellcheck disable=SC2046
  unset $(compgen -e | grep '^ETCD_' | grep -vx ETCD_UNSUPPORTED_ARCH) 2>/dev/null || true
  t_etcd=$(now)
  launched_etcd=1
  for ((i = 0; i < ETCD_MEMBERS; i++)); do
    name=$(etcd_name "$i")
    client=http://$HOST:${ETCD_CLIENT_PORTS[i]}
    peer=http://$HOST:${ETCD_PEER_PORTS[i]}
    say "starting etcd $name: client $client, peer $peer, data $data/$name"
    launch "etcd-$name" "$ETCD_BIN" \
      --name "$name" \
      --data-dir "$data/$name" \
      --listen-client-urls "$client" \
      --advertise-client-urls "$client" \
      --listen-peer-urls "$peer" \
      --initial-advertise-peer-urls "$peer" \
      --initial-cluster "$cluster" \
      --initial-cluster-token "$ETCD_CLUSTER_TOKEN" \
      --initial-cluster-state new \
      --logger zap --log-outputs stderr
  done
fi

# --- wait until ready (the servers start in parallel; READY_TIMEOUT counts from here) -----------
deadline=$(($(date +%s) + READY_TIMEOUT))
if [ $start_bttest = 1 ]; then
  until bttest_ready; do
    bttest_running || fail_start bttest "exited during startup"
    [ "$(date +%s)" -lt "$deadline" ] || fail_start bttest "not ready after ${READY_TIMEOUT}s"
    sleep 0.1
  done
  say "bttest ready on $BTTEST_ADDR (pid $(recorded_pid bttest)) after $(elapsed "$t_bt")s"
fi
if [ $start_etcd = 1 ]; then
  for ((i = 0; i < ETCD_MEMBERS; i++)); do
    name=etcd-$(etcd_name "$i")
    until etcd_member_healthy "$i"; do
      etcd_member_running "$i" || fail_start "$name" "exited during startup"
      [ "$(date +%s)" -lt "$deadline" ] || fail_start "$name" "not healthy after ${READY_TIMEOUT}s"
      sleep 0.2
    done
    say "$name healthy on $HOST:${ETCD_CLIENT_PORTS[i]} (pid $(recorded_pid "$name")) after $(elapsed "$t_etcd")s"
  done
fi
say "servers ready after $(elapsed "$t_all")s; logs in $LOG_DIR, stop with $CI_SERVERS/stop.sh"

# A process that names itself the servers' owner (the test binaries do) has them stopped when it
# and every other owner have exited: a guard process watches the owners.
register_owner

echo "export ROWKEY_BIGTABLE_EMULATOR=$BTTEST_ADDR"
echo "export ROWKEY_ETCD_ENDPOINTS=$(etcd_endpoints)"
echo "export ROWKEY_ETCD_BIN=$ETCD_BIN"
