#!/usr/bin/env bash
# Installs what rowkey's end-to-end tests need, from Debian packages only, and builds the Cloud
# Bigtable emulator. Idempotent: apt runs only when a package is missing, the emulator is rebuilt
# only when its binary is missing or older than .ci/servers/bttest/main.go.
#
#   golang-go                Go 1.19, to build the emulator
#   golang-google-cloud-dev  the emulator's Go source (cloud.google.com/go/bigtable/bttest) and,
#                            through its dependencies, grpc, genproto, protobuf, btree, ...
#   etcd-server etcd-client  etcd 3.4 and etcdctl
#   protobuf-compiler        protoc, needed to build the Rust crate etcd-client
#   libprotobuf-dev          protoc's well-known types (google/protobuf/descriptor.proto), which
#                            etcd-client's protos import
#   openjdk-17-jdk-headless  javac and java: tests/times.rs has the JDK compute Java's bytes, and
#                            hbase.sh runs HBase on it
#   maven                    builds hbase.sh's launcher, with HBase from Maven Central
#   thrift-compiler          Thrift 0.17.0: .ci/thrift-check regenerates rowkey-hbase's client
#   chromium chromium-driver headless Chromium and its WebDriver: rowkey-lab/tests/heatmap_browser.rs renders
#                            the lab's heatmap, points at a cell and reads its tooltip
#   libkrb5-dev libclang-dev MIT krb5's GSSAPI and clang's libclang: rowkey-hbase's `kerberos`
#                            feature builds its binding (libgssapi, bindgen) against them
#   krb5-user                kinit: rowkey-hbase/tests/hbase_kerberos.rs makes tickets that expire
#
# The emulator binary goes to ${ROWKEY_SERVERS_DIR:-<repo>/target/servers}/bttest.
# Messages go to stderr.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PACKAGES=(golang-go golang-google-cloud-dev etcd-server etcd-client protobuf-compiler libprotobuf-dev
  openjdk-17-jdk-headless maven thrift-compiler chromium chromium-driver libkrb5-dev libclang-dev
  krb5-user)
GOCODE=/usr/share/gocode
GO=${ROWKEY_GO:-/usr/bin/go}

mkdir -p "$SERVERS_DIR"
# One install at a time (start.sh holds its own, different lock).
exec 8>"$SERVERS_DIR/.install.lock"
flock 8

# --- Debian packages ----------------------------------------------------------------------------
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

missing=()
for p in "${PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done

if [ ${#missing[@]} -eq 0 ]; then
  say "Debian packages present: ${PACKAGES[*]}"
else
  command -v apt-get >/dev/null || die "missing packages ${missing[*]} and no apt-get (Debian/Ubuntu only)"
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "missing packages ${missing[*]}: run as root or install sudo"
    SUDO=(sudo)
  fi
  t=$(now)
  say "missing Debian packages: ${missing[*]}; running apt-get update"
  "${SUDO[@]}" apt-get update >&2 || die "apt-get update failed"
  say "apt-get install -y --no-install-recommends ${missing[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
    die "apt-get install ${missing[*]} failed"
  for p in "${missing[@]}"; do installed "$p" || die "package $p is still not installed"; done
  say "installed ${missing[*]} in $(elapsed "$t")s"
fi

for tool in "$GO" "$ETCD_BIN" "$ETCDCTL_BIN" protoc; do
  command -v "$tool" >/dev/null || die "$tool not found after installing ${PACKAGES[*]}"
done
[ -d "$GOCODE/src/cloud.google.com/go/bigtable/bttest" ] ||
  die "$GOCODE/src/cloud.google.com/go/bigtable/bttest not found (package golang-google-cloud-dev)"

# --- the emulator -------------------------------------------------------------------------------
if [ -x "$BTTEST_BIN" ] && ! [ "$BTTEST_SRC" -nt "$BTTEST_BIN" ]; then
  say "bttest is up to date: $BTTEST_BIN"
  exit 0
fi

# GOPATH mode, offline, against the Go sources of the Debian packages in /usr/share/gocode; the
# first GOPATH entry holds only our main package. Anything of the caller's Go setup that could
# turn on modules, the network or another toolchain is overridden.
gopath=$SERVERS_DIR/gopath
pkg=$gopath/src/rowkey-bttest
rm -rf "$pkg"
mkdir -p "$pkg"
cp "$BTTEST_SRC" "$pkg/main.go"
t=$(now)
say "building bttest: GO111MODULE=off GOPATH=$gopath:$GOCODE $GO build ($("$GO" version))"
(
  cd "$pkg"
  env GO111MODULE=off GOPATH="$gopath:$GOCODE" GOCACHE="$SERVERS_DIR/gocache" \
    GOFLAGS= GOPROXY=off GOTOOLCHAIN=local GOENV=off CGO_ENABLED=0 \
    "$GO" build -o "$BTTEST_BIN.new" . >&2
) || die "go build of bttest failed (is every import of bttest under $GOCODE/src? see above)"
# Rename over the old binary, which a running emulator may still be executing.
mv -f "$BTTEST_BIN.new" "$BTTEST_BIN"
say "built $BTTEST_BIN in $(elapsed "$t")s"
