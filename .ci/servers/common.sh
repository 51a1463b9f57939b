# shellcheck shell=bash disable=SC2034 # (the settings are used by the scripts that source this)
# Shared settings and helpers of .ci/servers/{install,start,stop}.sh. Sourced, not run.
#
# Progress messages go to stderr, so that the only stdout of start.sh is its `export` lines.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CI_SERVERS=$REPO/.ci/servers

SERVERS_DIR=$(realpath -m "${ROWKEY_SERVERS_DIR:-$REPO/target/servers}")
LOG_DIR=$SERVERS_DIR/logs
PID_DIR=$SERVERS_DIR/pids

HOST=127.0.0.1

BTTEST_BIN=$SERVERS_DIR/bttest
BTTEST_SRC=$CI_SERVERS/bttest/main.go

# The ports: those the environment names (ROWKEY_BTTEST_PORT, ROWKEY_ETCD_CLIENT_PORTS,
# ROWKEY_ETCD_PEER_PORTS), or else the ones this checkout's last start.sh chose and recorded here
# (free ones, from a range of this checkout's own: another checkout's servers never collide).
PORTS_RECORD=$SERVERS_DIR/ports
PORTS_FROM_ENV=0
if [ -n "${ROWKEY_BTTEST_PORT:-}${ROWKEY_ETCD_CLIENT_PORTS:-}${ROWKEY_ETCD_PEER_PORTS:-}" ]; then
  PORTS_FROM_ENV=1
elif [ -s "$PORTS_RECORD" ]; then
  # shellcheck disable=SC1090
  source "$PORTS_RECORD"
fi
BTTEST_PORT=${ROWKEY_BTTEST_PORT:-8086}
BTTEST_ADDR=$HOST:$BTTEST_PORT

ETCD_BIN=${ROWKEY_ETCD_BIN:-/usr/bin/etcd}
ETCDCTL_BIN=${ROWKEY_ETCDCTL_BIN:-/usr/bin/etcdctl}
# One member per client port; "23790,23791,23792" and "23790 23791 23792" both work.
read -r -a ETCD_CLIENT_PORTS <<<"${ROWKEY_ETCD_CLIENT_PORTS:-23790 23791 23792}"
read -r -a ETCD_PEER_PORTS <<<"${ROWKEY_ETCD_PEER_PORTS:-23800 23801 23802}"
ETCD_CLUSTER_TOKEN=${ROWKEY_ETCD_CLUSTER_TOKEN:-rowkey-e2e}
# Parent of the per-start temporary directory holding the members' data dirs.
ETCD_DATA_PARENT=$(realpath -m "${ROWKEY_ETCD_DATA_PARENT:-${TMPDIR:-/tmp}}")
# Where start.sh records the path of that temporary directory, for stop.sh.
ETCD_DATA_RECORD=$SERVERS_DIR/etcd-data-dir
# The member configuration a running cluster was started with (reused only if unchanged).
ETCD_CONFIG_RECORD=$SERVERS_DIR/etcd-config

READY_TIMEOUT=${ROWKEY_SERVERS_TIMEOUT:-30}
STOP_TIMEOUT=10

say() { printf '[servers] %s\n' "$*" >&2; }
die() {
  printf '[servers] ERROR: %s\n' "$*" >&2
  exit 1
}

now() { date +%s.%N; }
# Seconds since a `now` timestamp, one decimal.
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Normalise the comma/space separated port lists.
_split_ports() {
  local IFS=', '
  # shellcheck disable=SC2206
  ETCD_CLIENT_PORTS=(${ETCD_CLIENT_PORTS[*]})
  # shellcheck disable=SC2206
  ETCD_PEER_PORTS=(${ETCD_PEER_PORTS[*]})
}
_split_ports
ETCD_MEMBERS=${#ETCD_CLIENT_PORTS[@]}
[ "$ETCD_MEMBERS" -ge 1 ] || die "ROWKEY_ETCD_CLIENT_PORTS is empty"
[ "${#ETCD_PEER_PORTS[@]}" -eq "$ETCD_MEMBERS" ] ||
  die "ROWKEY_ETCD_CLIENT_PORTS has $ETCD_MEMBERS ports but ROWKEY_ETCD_PEER_PORTS has ${#ETCD_PEER_PORTS[@]}"
for _p in "$BTTEST_PORT" "${ETCD_CLIENT_PORTS[@]}" "${ETCD_PEER_PORTS[@]}"; do
  if ! [[ $_p =~ ^[0-9]+$ ]] || [ "$_p" -lt 1 ] || [ "$_p" -gt 65535 ]; then die "not a TCP port: '$_p'"; fi
done
_dup=$(printf '%s\n' "$BTTEST_PORT" "${ETCD_CLIENT_PORTS[@]}" "${ETCD_PEER_PORTS[@]}" | sort | uniq -d)
[ -z "$_dup" ] || die "port(s) configured twice: $_dup (ROWKEY_BTTEST_PORT, ROWKEY_ETCD_CLIENT_PORTS, ROWKEY_ETCD_PEER_PORTS)"

etcd_name() { echo "rk$1"; }
etcd_endpoints() { # 127.0.0.1:23790,127.0.0.1:23791,...
  local i out=
  for ((i = 0; i < ETCD_MEMBERS; i++)); do out+="${out:+,}$HOST:${ETCD_CLIENT_PORTS[i]}"; done
  echo "$out"
}
etcd_initial_cluster() { # rk0=http://127.0.0.1:23800,...
  local i out=
  for ((i = 0; i < ETCD_MEMBERS; i++)); do
    out+="${out:+,}$(etcd_name "$i")=http://$HOST:${ETCD_PEER_PORTS[i]}"
  done
  echo "$out"
}
etcd_config() { echo "clients=${ETCD_CLIENT_PORTS[*]} peers=${ETCD_PEER_PORTS[*]} token=$ETCD_CLUSTER_TOKEN bin=$ETCD_BIN"; }

# etcdctl without any ETCDCTL_* settings of the caller (they conflict with the flags).
etcdctl_() {
  # shellcheck disable=SC2046
  env $(compgen -e | grep '^ETCDCTL_' | sed 's/^/-u /') ETCDCTL_API=3 "$ETCDCTL_BIN" "$@"
}

# Is something listening on 127.0.0.1:$1?
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

# free_ports N: N ports nothing listens on, from a range of 100 that this checkout's path picks
# between 10000 and 30000 (below the kernel's ephemeral ports), so two checkouts start apart.
free_ports() {
  local n=$1 base p
  local -a out=()
  base=$((10000 + $(printf '%s' "$SERVERS_DIR" | cksum | cut -d' ' -f1) % 200 * 100))
  for ((p = base; ${#out[@]} < n && p < 60000; p++)); do
    port_open "$p" || out+=("$p")
  done
  [ "${#out[@]}" -eq "$n" ] || die "found only ${#out[@]} of $n free ports from $base"
  echo "${out[*]}"
}

# record_ports: writes the ports in use to PORTS_RECORD, for the next start.sh and stop.sh.
record_ports() {
  mkdir -p "$SERVERS_DIR"
  {
    echo "ROWKEY_BTTEST_PORT=$BTTEST_PORT"
    echo "ROWKEY_ETCD_CLIENT_PORTS='${ETCD_CLIENT_PORTS[*]}'"
    echo "ROWKEY_ETCD_PEER_PORTS='${ETCD_PEER_PORTS[*]}'"
  } >"$PORTS_RECORD"
}

# is_ours PID EXE: the process PID is alive (not a zombie) and runs the executable EXE (also when
# EXE has been replaced on disk since, which the kernel shows as "EXE (deleted)").
is_ours() {
  local pid=$1 exe state real
  exe=$(readlink -f "$2")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$state" ] && [ "$state" != Z ] || return 1
  real=$(readlink "/proc/$pid/exe" 2>/dev/null) || return 1
  [ "${real% (deleted)}" = "$exe" ]
}

# The pid recorded in pids/NAME.pid, or nothing.
recorded_pid() { cat "$PID_DIR/$1.pid" 2>/dev/null || true; }

# launch NAME EXE ARGS...: start EXE in its own session, in the background, logging to
# logs/NAME.log (replaced) and recording its pid in pids/NAME.pid.
launch() {
  local name=$1
  shift
  mkdir -p "$LOG_DIR" "$PID_DIR"
  rm -f "$PID_DIR/$name.pid"
  # The inner shell records its own pid and then execs the server, so the pid is the server's
  # whether or not setsid forks. Descriptors other than 0-2 (the lock of start.sh) are closed.
  # shellcheck disable=SC2016
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PID_DIR/$name.pid" "$@" \
    </dev/null >"$LOG_DIR/$name.log" 2>&1 9>&- &
  local i
  for ((i = 0; i < 50; i++)); do
    [ -s "$PID_DIR/$name.pid" ] && return 0
    sleep 0.1
  done
  die "$name: no pid recorded after 5 s"
}

# _wait_gone SECONDS: wait until none of the processes of stop_procs' arrays is alive.
_wait_gone() {
  local deadline=$(($(date +%s) + $1)) i alive
  while :; do
    alive=0
    for i in "${!pids[@]}"; do is_ours "${pids[i]}" "${exes[i]}" && alive=1; done
    [ "$alive" = 0 ] && return 0
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.2
  done
}

# stop_procs NAME EXE [NAME EXE ...]: SIGTERM each recorded process that is still ours, wait up to
# STOP_TIMEOUT seconds for all of them to exit, SIGKILL the rest and wait for those too. Removes
# the pid files. Returns non-zero if a process survived SIGKILL.
stop_procs() {
  local -a names=() exes=() pids=()
  local name exe pid i
  while [ $# -ge 2 ]; do
    name=$1 exe=$2
    shift 2
    pid=$(recorded_pid "$name")
    if [ -n "$pid" ] && is_ours "$pid" "$exe"; then
      say "stopping $name (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      names+=("$name") exes+=("$exe") pids+=("$pid")
    else
      [ -z "$pid" ] || say "$name (pid $pid) is not running"
      rm -f "$PID_DIR/$name.pid"
    fi
  done
  local rc=0
  if ! _wait_gone "$STOP_TIMEOUT"; then
    for i in "${!pids[@]}"; do
      if is_ours "${pids[i]}" "${exes[i]}"; then
        say "${names[i]} (pid ${pids[i]}) did not exit within ${STOP_TIMEOUT}s of SIGTERM: SIGKILL"
        kill -KILL "${pids[i]}" 2>/dev/null || true
      fi
    done
    _wait_gone 5 || true
  fi
  for i in "${!pids[@]}"; do
    if is_ours "${pids[i]}" "${exes[i]}"; then
      say "${names[i]} (pid ${pids[i]}) survived SIGKILL"
      rc=1
    else
      rm -f "$PID_DIR/${names[i]}.pid"
    fi
  done
  return $rc
}

# stop_etcd: stops the etcd members (all with a pid file, also of an earlier configuration with
# more members), one at a time and the current leader first. A leader that gets SIGTERM hands
# leadership to a follower before it exits; when the followers are stopping at the same time,
# that hand-over stalls for about 7 s, so stopping them all at once is slower.
stop_etcd() {
  local f name pid leader i rc=0
  local -a running
  while :; do
    running=()
    for f in "$PID_DIR"/etcd-*.pid; do
      [ -e "$f" ] || continue
      name=$(basename "$f" .pid)
      pid=$(recorded_pid "$name")
      if [ -n "$pid" ] && is_ours "$pid" "$ETCD_BIN"; then
        running+=("$name")
      else
        stop_procs "$name" "$ETCD_BIN" || rc=1 # reports and removes the stale pid file
      fi
    done
    [ ${#running[@]} -gt 0 ] || break
    leader=${running[0]}
    for name in "${running[@]}"; do
      i=${name#etcd-rk}
      if ! [[ $i =~ ^[0-9]+$ ]] || [ "$i" -ge "$ETCD_MEMBERS" ]; then continue; fi
      if etcdctl_ --endpoints="http://$HOST:${ETCD_CLIENT_PORTS[i]}" --dial-timeout=1s \
        --command-timeout=1s endpoint status -w simple 2>/dev/null |
        awk -F', ' '$5 == "true" { f = 1 } END { exit !f }'; then
        leader=$name
        break
      fi
    done
    stop_procs "$leader" "$ETCD_BIN" || return 1
  done
  return $rc
}

# Remove the etcd data directory recorded by start.sh (only after its members have exited).
remove_etcd_data() {
  local dir
  dir=$(cat "$ETCD_DATA_RECORD" 2>/dev/null || true)
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    case $dir in
      */rowkey-etcd.*) say "removing etcd data $dir"; rm -rf -- "$dir" ;;
      *) say "not removing $dir: not a directory made by start.sh" ;;
    esac
  fi
  rm -f "$ETCD_DATA_RECORD" "$ETCD_CONFIG_RECORD"
}

# Who uses the servers: one empty file per owner process, named by its pid (see guard.sh).
OWNERS_DIR=$SERVERS_DIR/owners

# register_owner: when ROWKEY_SERVERS_OWNER names a process (the test binaries do), records it as
# an owner of the servers and starts the guard that stops them once every owner has exited (under
# the servers' lock).
register_owner() {
  [ -n "${ROWKEY_SERVERS_OWNER:-}" ] || return 0
  mkdir -p "$OWNERS_DIR" "$PID_DIR" "$LOG_DIR"
  : >"$OWNERS_DIR/$ROWKEY_SERVERS_OWNER"
  local guard
  guard=$(recorded_pid guard)
  if ! { [ -n "$guard" ] && kill -0 "$guard" 2>/dev/null; }; then
    # shellcheck disable=SC2016
    setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PID_DIR/guard.pid" \
      bash "$CI_SERVERS/guard.sh" </dev/null >>"$LOG_DIR/guard.log" 2>&1 9>&- &
  fi
}
