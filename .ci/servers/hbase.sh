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
# `start` prints, on stdout (everything else goes to stderr):
#   export ROWKEY_HBASE_THRIFT=127.0.0.1:P                 the Thrift2 server in its defaults,
#                                                          buffered transport, binary protocol
#   export ROWKEY_HBASE_THRIFT_FRAMED_COMPACT=127.0.0.1:F  framed transport, compact protocol, as
#                                                          production clusters are advised to run
#   export ROWKEY_HBASE_THRIFT_HTTP=127.0.0.1:H            HTTP, the proxy user (doAs) on
#   export ROWKEY_HBASE_THRIFT_HTTPS=127.0.0.1:S           HTTPS, its certificate signed by
#   export ROWKEY_HBASE_CA=.../target/servers/hbase-tls/ca.pem  a CA made at each start (keytool)
#   export ROWKEY_HBASE_THRIFT_SASL=127.0.0.1:K            Kerberos over TCP: SASL GSSAPI, auth-conf
#   export ROWKEY_HBASE_THRIFT_SPNEGO=127.0.0.1:N          Kerberos over HTTPS: SPNEGO
#   export ROWKEY_HBASE_KERBEROS=.../target/servers/hbase-kerberos  the test KDC's krb5.conf,
#                                                          client.keytab (alice@ROWKEY.TEST), host
#   export ROWKEY_HBASE_CONTROL=127.0.0.1:Q                the control endpoint
# The ports are free ones of this checkout's own range (common.sh's free_ports). A start while this checkout's HBase runs, answers, and has its 3
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
HBASE_TLS=$SERVERS_DIR/hbase-tls
HBASE_KERBEROS=$SERVERS_DIR/hbase-kerberos
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
  # One started before the HTTP servers came has fewer ports: start a new one.
  [ "$(wc -w <"$HBASE_PORTS")" = 8 ] && [ -s "$HBASE_TLS/ca.pem" ] && [ -s "$HBASE_KERBEROS/krb5.conf" ]
}

exports() {
  local thrift control framed http https sasl spnego kdc
  read -r thrift control framed http https sasl spnego kdc <"$HBASE_PORTS"
  echo "export ROWKEY_HBASE_THRIFT=$HOST:$thrift"
  echo "export ROWKEY_HBASE_CONTROL=$HOST:$control"
  echo "export ROWKEY_HBASE_THRIFT_FRAMED_COMPACT=$HOST:$framed"
  echo "export ROWKEY_HBASE_THRIFT_HTTP=$HOST:$http"
  echo "export ROWKEY_HBASE_THRIFT_HTTPS=$HOST:$https"
  echo "export ROWKEY_HBASE_CA=$HBASE_TLS/ca.pem"
  echo "export ROWKEY_HBASE_THRIFT_SASL=$HOST:$sasl"
  echo "export ROWKEY_HBASE_THRIFT_SPNEGO=$HOST:$spnego"
  echo "export ROWKEY_HBASE_KERBEROS=$HBASE_KERBEROS"
}

# make_tls: a CA of its own (ca.pem) and the HTTPS server's key with a certificate it signed, for
# 127.0.0.1 and localhost (server.p12, the key store of HBaseServer's https mode), made afresh by
# the JDK's keytool: nothing outside this checkout trusts it, and it lasts 30 days.
make_tls() {
  local keytool pass=rowkey-test
  keytool=$(dirname "$(readlink -f "$JAVA")")/keytool
  [ -x "$keytool" ] || keytool=$(command -v keytool) || die "no keytool beside $JAVA (the JDK makes the test CA)"
  rm -rf "$HBASE_TLS"
  mkdir -p "$HBASE_TLS"
  (
    cd "$HBASE_TLS"
    "$keytool" -genkeypair -alias ca -keyalg RSA -keysize 2048 -dname "CN=rowkey test CA" \
      -ext bc:c -validity 30 -keystore ca.p12 -storetype PKCS12 -storepass $pass
    "$keytool" -exportcert -rfc -alias ca -keystore ca.p12 -storepass $pass -file ca.pem
    "$keytool" -genkeypair -alias server -keyalg RSA -keysize 2048 -dname "CN=localhost" \
      -validity 30 -keystore server.p12 -storetype PKCS12 -storepass $pass
    "$keytool" -certreq -alias server -keystore server.p12 -storepass $pass -file server.csr
    "$keytool" -gencert -alias ca -keystore ca.p12 -storepass $pass -infile server.csr \
      -outfile server.pem -rfc -validity 30 \
      -ext SAN=dns:localhost,ip:127.0.0.1 -ext KU=digitalSignature,keyEncipherment -ext EKU=serverAuth
    "$keytool" -importcert -alias ca -file ca.pem -keystore server.p12 -storepass $pass -noprompt
    "$keytool" -importcert -alias server -file server.pem -keystore server.p12 -storepass $pass
  ) >"$LOG_DIR/hbase-tls.log" 2>&1 || {
    cat "$LOG_DIR/hbase-tls.log" >&2
    die "keytool could not make the test CA (its output is above)"
  }
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
  local thrift control framed http https sasl spnego kdc
  # Past the ports start.sh's servers take from the same range.
  read -r thrift control framed http https sasl spnego kdc <<<"$(free_ports 18 | awk '{print $(NF-7), $(NF-6), $(NF-5), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}')"
  stop_procs hbase "$JAVA" || true
  rm -rf "$HBASE_DATA"
  mkdir -p "$HBASE_DATA" "$LOG_DIR"
  make_tls
  local t
  t=$(now)
  rm -rf "$HBASE_KERBEROS"
  say "starting HBase (thrift $HOST:$thrift, framed compact $HOST:$framed, http $HOST:$http, https $HOST:$https, sasl $HOST:$sasl, spnego $HOST:$spnego, KDC $HOST:$kdc, control $HOST:$control; log $LOG_DIR/hbase.log)"
  # The JDK 17 options of HBase's own bin/hbase.
  launch hbase "$JAVA" -Xmx2g -XX:+UseG1GC \
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
    -Drowkey.tls.keystore="$HBASE_TLS/server.p12" \
    -Drowkey.kerberos.dir="$HBASE_KERBEROS" -Drowkey.kerberos.port="$kdc" \
    -cp "$HBASE_BUILD/rowkey-hbase-server-0.0.0.jar:$(cat "$HBASE_BUILD/classpath.txt")" \
    rowkey.servers.HBaseServer "$control" "$HBASE_DATA" buffered-binary="$thrift" \
    framed-compact="$framed" http="$http" https="$https" sasl="$sasl" spnego="$spnego"
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
  echo "$thrift $control $framed $http $https $sasl $spnego $kdc" >"$HBASE_PORTS"
  register_owner
  exports
}

case "${1:-}" in
  build) build ;;
  # The class path of the cluster's Java classes and HBase's client (built first if need be),
  # for a JVM of HBase's client beside the cluster (rowkey-hbase/benches/reads.rs).
  classpath)
    build >&2
    echo "$HBASE_BUILD/rowkey-hbase-server-0.0.0.jar:$(cat "$HBASE_BUILD/classpath.txt")"
    ;;
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
    rm -rf "$HBASE_DATA" "$HBASE_PORTS" "$HBASE_TLS" "$HBASE_KERBEROS"
    ;;
  *) die "usage: hbase.sh build|classpath|start|stop" ;;
esac
