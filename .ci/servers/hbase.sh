#!/usr/bin/env bash
# A real HBase for rowkey's end-to-end tests: ZooKeeper, a master and 3 region servers of HBase's
# mini-cluster on the local file system and a control endpoint in one JVM, HBase's Thrift2 server
# in a child JVM, on 127.0.0.1 (.ci/servers/hbase/, a Maven project with pinned versions: see its
# pom.xml).
#
#   eval "$(.ci/servers/hbase.sh start)"   # build if needed, start, export the endpoints
#   .ci/servers/hbase.sh stop
#   .ci/servers/hbase.sh build             # only the build: Maven's downloads go to ~/.m2
#
# `start` prints `export ROWKEY_HBASE_THRIFT=127.0.0.1:P` (the Thrift2 server in its defaults,
# buffered transport and binary protocol), `export ROWKEY_HBASE_THRIFT_FRAMED_COMPACT=127.0.0.1:F`
# (a second one, framed transport and compact protocol, as production clusters run it) and
# `export ROWKEY_HBASE_CONTROL=127.0.0.1:Q` on stdout, everything else on stderr. The ports are those of
# ROWKEY_HBASE_THRIFT_PORT and ROWKEY_HBASE_CONTROL_PORT, or else free ones of this checkout's own
# range (common.sh's free_ports). A start while this checkout's HBase runs, answers, and has its 3
# region servers reuses it (the test binaries of one run share it); otherwise it starts a fresh
# one, on a new, empty data directory (ROWKEY_HBASE_FRESH=1 always does). Under ROWKEY_SERVERS_OWNER
# (the test binaries set it) the guard of start.sh stops it once every owner has exited, and
# stop.sh stops it with the other servers. Needs a JDK (17 or later) and Maven, which install.sh
# installs (openjdk-17-jdk-headless, maven); without them, or without Maven Central, it fails and
# says so.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

HBASE_SRC=$CI_SERVERS/hbase
HBASE_BUILD=$SERVERS_DIR/hbase-build
HBASE_DATA=$SERVERS_DIR/hbase-data
HBASE_PORTS=$SERVERS_DIR/hbase.ports
HBASE_TIMEOUT=${ROWKEY_HBASE_TIMEOUT:-240}
JAVA=${ROWKEY_JAVA:-$(command -v java || true)}
MVN=${ROWKEY_MVN:-$(command -v mvn || true)}

build() {
  [ -n "$JAVA" ] || die "no java on PATH: HBase needs a JDK 17 or later (bash .ci/servers/install.sh installs openjdk-17-jdk-headless)"
  [ -n "$MVN" ] || die "no mvn on PATH: HBase is built with Maven (bash .ci/servers/install.sh installs maven)"
  local jar=$HBASE_BUILD/rowkey-hbase-server-0.0.0.jar
  if [ -s "$jar" ] && [ -s "$HBASE_BUILD/classpath.txt" ] &&
    [ -z "$(find "$HBASE_SRC" -newer "$jar" -type f -print -quit)" ]; then
    say "HBase launcher is up to date: $jar"
    return 0
  fi
  local t
  t=$(now)
  say "building the HBase launcher with Maven (the first build downloads HBase and Phoenix from Maven Central: see .ci/servers/README.md for the time and size)"
  # Debian's Maven 3.8 writes colour resets (ESC [0m) even in batch mode (-B) and with
  # -Dstyle.color=never: they are taken out, so that a log or a terminal shows plain text.
  "$MVN" -B -q -f "$HBASE_SRC/pom.xml" -Drowkey.hbase.build="$HBASE_BUILD" package 2>&1 |
    sed -u 's/\x1b\[[0-9;]*m//g' >&2 ||
    die "the Maven build of $HBASE_SRC failed (Maven Central unreachable? the output above says)"
  say "built in $(elapsed "$t")s"
}

# control PATH: the body of the control endpoint's answer to GET PATH, or a failure.
control() {
  local port reply
  port=$(cut -d' ' -f2 "$HBASE_PORTS" 2>/dev/null) || return 1
  [ -n "$port" ] || return 1
  # shellcheck disable=SC2016
  reply=$(timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/$1" &&
    printf "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" "$2" "$0" >&3 && cat <&3' \
    "$HOST" "$port" "$1" 2>/dev/null) || return 1
  [[ $reply == "HTTP/1.1 200"* ]] || return 1
  printf '%s' "${reply#*$'\r\n\r\n'}"
}

# running: this checkout's HBase is up, answers, and has all its region servers.
running() {
  local pid
  pid=$(recorded_pid hbase)
  [ -n "$pid" ] && [ -n "$JAVA" ] && is_ours "$pid" "$JAVA" || return 1
  [ "$(control /health)" = ok ] || return 1
  [ "$(control /region-servers | grep -c .)" = 3 ] || return 1
  # One started before the framed compact server came has two ports: start a new one.
  [ "$(wc -w <"$HBASE_PORTS")" = 3 ]
}

exports() {
  local thrift control framed
  read -r thrift control framed <"$HBASE_PORTS"
  echo "export ROWKEY_HBASE_THRIFT=$HOST:$thrift"
  echo "export ROWKEY_HBASE_CONTROL=$HOST:$control"
  echo "export ROWKEY_HBASE_THRIFT_FRAMED_COMPACT=$HOST:$framed"
}

start() {
  build
  mkdir -p "$SERVERS_DIR"
  exec 9>"$SERVERS_DIR/.lock"
  flock 9
  if [ "${ROWKEY_HBASE_FRESH:-0}" != 1 ] && running; then
    say "reusing the running HBase (pid $(recorded_pid hbase), thrift $HOST:$(cut -d' ' -f1 "$HBASE_PORTS"))"
    register_owner
    exports
    return 0
  fi
  local thrift=${ROWKEY_HBASE_THRIFT_PORT:-} control=${ROWKEY_HBASE_CONTROL_PORT:-}
  local framed=${ROWKEY_HBASE_THRIFT_FRAMED_COMPACT_PORT:-}
  if [ -z "$thrift" ] || [ -z "$control" ] || [ -z "$framed" ]; then
    # Past the ports start.sh's servers take from the same range.
    read -r thrift control framed <<<"$(free_ports 13 | awk '{print $(NF-2), $(NF-1), $NF}')"
  fi
  stop_procs hbase "$JAVA" || true
  rm -rf "$HBASE_DATA"
  mkdir -p "$HBASE_DATA"
  local t
  t=$(now)
  say "starting HBase (thrift $HOST:$thrift, framed compact $HOST:$framed, control $HOST:$control; log $LOG_DIR/hbase.log)"
  # The JDK 17 options of HBase's own bin/hbase.
  launch hbase "$JAVA" -Xmx1536m -XX:+UseG1GC \
    -Dlog4j2.configurationFile="$HBASE_SRC/src/main/resources/log4j2.properties" \
    -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true \
    --add-modules jdk.unsupported \
    --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED \
    --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
    --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED \
    --add-exports java.base/sun.net.dns=ALL-UNNAMED --add-exports java.base/sun.net.util=ALL-UNNAMED \
    -cp "$HBASE_BUILD/rowkey-hbase-server-0.0.0.jar:$(cat "$HBASE_BUILD/classpath.txt")" \
    rowkey.servers.HBaseServer "$thrift" "$control" "$HBASE_DATA" "$framed"
  local deadline=$(($(date +%s) + HBASE_TIMEOUT)) pid
  pid=$(recorded_pid hbase)
  until grep -q '^rowkey-hbase ready' "$LOG_DIR/hbase.log" 2>/dev/null; do
    if ! is_ours "$pid" "$JAVA"; then
      tail -n 40 "$LOG_DIR/hbase.log" >&2 || true
      die "HBase exited while starting (the end of its log is above)"
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      tail -n 40 "$LOG_DIR/hbase.log" >&2 || true
      stop_procs hbase "$JAVA" || true
      die "HBase was not ready in ${HBASE_TIMEOUT}s (ROWKEY_HBASE_TIMEOUT)"
    fi
    sleep 0.5
  done
  say "$(grep '^rowkey-hbase ready' "$LOG_DIR/hbase.log") (${HBASE_TIMEOUT}s allowed; $(elapsed "$t")s with the JVM)"
  echo "$thrift $control $framed" >"$HBASE_PORTS"
  register_owner
  exports
}

case "${1:-}" in
  build) build ;;
  start) start ;;
  stop)
    mkdir -p "$SERVERS_DIR"
    if [ "${ROWKEY_SERVERS_LOCKED:-0}" != 1 ]; then
      exec 9>"$SERVERS_DIR/.lock"
      flock 9
    fi
    if [ -n "$(recorded_pid hbase)" ]; then
      stop_procs hbase "${JAVA:-java}"
    fi
    rm -rf "$HBASE_DATA" "$HBASE_PORTS"
    ;;
  *) die "usage: hbase.sh build|start|stop" ;;
esac
