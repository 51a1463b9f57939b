#!/usr/bin/env bash
# The derive's own cost: build times of a crate with 50 derived key layouts, beside the same 50
# structs deriving serde's Serialize and Deserialize. Generates both crates in a scratch directory
# (one shared target directory, so dependencies are built once), then times, RUNS times each, in
# the dev profile, as CPU time (user + system: on a shared machine, steadier than wall time):
#   clean        `cargo clean` then `cargo build`: dependencies (syn, the derive) and the crate
#   crate only   the crate rebuilt from scratch with its dependencies already built
#   incremental  one struct edited, then `cargo build`
# and prints the median of each. The two crates are built in turns (rowkey, serde, rowkey, ...),
# so that a machine whose speed drifts slows both alike, and the crate-only line also gives the
# median of the runs' rowkey/serde ratios. Usage: benches/build_time.sh [RUNS] (default 3).
#
# With ROWKEY_BUILD_INSTRUCTIONS=1 it also counts the instructions rustc executes compiling each
# crate alone (not incremental), under `valgrind --tool=callgrind`: the same count on every run,
# whatever else the machine is doing (about three minutes a crate).
set -euo pipefail

runs="${1:-3}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/rowkey-build-time"
rm -rf "$work"
mkdir -p "$work"

# One type per layout family, cycled: a time with desc and a unit, strings inside and last behind
# a tag, Option and a width, floats and a digest (an MD5 prefix in place; byte arrays for serde,
# which has no impl for `Hashed`) under a row limit, bool, and an enum key of two variants with
# ints and desc. Attributes only in the rowkey crate.
layout() { # $1 = index, $2 = rowkey|serde
    local i="$1" attr_desc="" attr_width="" attr_time="" attr_limit="" attr_tag="" digest="[u8; 4]"
    if [ "$2" = rowkey ]; then
        attr_tag='#[rowkey(tag = b"t/")]'
        attr_desc="#[rowkey(desc)]"
        attr_width="#[rowkey(width = 5)]"
        attr_time='#[rowkey(desc, unit = "us")]'
        attr_limit="#[rowkey(max_len = 4096)]"
        digest="rowkey::Hashed<4>"
    fi
    case $((i % 5)) in
    0) printf 'pub struct Layout%d { pub user: u64, %s pub ts: std::time::SystemTime, pub kind: u32 }\n' "$i" "$attr_time" ;;
    1) printf '%s pub struct Layout%d { pub tenant: String, %s pub ts: i64, pub host: String }\n' "$attr_tag" "$i" "$attr_desc" ;;
    2) printf 'pub struct Layout%d { pub shard: u16, pub id: Option<u32>, %s pub seq: u64, pub tag: Vec<u8> }\n' "$i" "$attr_width" ;;
    3) printf '%s pub struct Layout%d { pub region: %s, pub score: f64, pub live: bool, pub name: String }\n' "$attr_limit" "$i" "$digest" ;;
    4) printf 'pub enum Layout%d { A { a: u8, b: i16 }, B { c: u32, %s d: i64, e: u64 } }\n' "$i" "$attr_desc" ;;
    esac
}

make_crate() { # $1 = rowkey|serde
    local dir="$work/$1"
    mkdir -p "$dir/src"
    if [ "$1" = rowkey ]; then
        printf '[package]\nname = "layouts-rowkey"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\nrowkey = { path = "%s" }\n\n[workspace]\n' "$repo" >"$dir/Cargo.toml"
        echo 'use rowkey::RowKey;' >"$dir/src/lib.rs"
        derive='#[derive(RowKey)]'
    else
        printf '[package]\nname = "layouts-serde"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\nserde = { version = "1", features = ["derive"] }\n\n[workspace]\n' >"$dir/Cargo.toml"
        echo 'use serde::{Deserialize, Serialize};' >"$dir/src/lib.rs"
        derive='#[derive(Serialize, Deserialize)]'
    fi
    for i in $(seq 0 49); do
        echo "$derive" >>"$dir/src/lib.rs"
        layout "$i" "$1" >>"$dir/src/lib.rs"
    done
    # The lockfile of this repository pins the versions both crates resolve to.
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
}

seconds() { # runs "$@" quietly and prints the CPU time (user + system) it took, in seconds
    local TIMEFORMAT='%U %S' t
    t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
    echo "$t" | awk '{ print $1 + $2 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

make_crate rowkey
make_crate serde
export CARGO_TARGET_DIR="$work/target"

clean_rowkey=() only_rowkey=() incr_rowkey=() clean_serde=() only_serde=() incr_serde=() ratios=()
for run in $(seq 1 "$runs"); do
    for crate in rowkey serde; do
        dir="$work/$crate"
        name="layouts-$crate"
        echo "[$crate] run $run/$runs" >&2
        clean="$(cd "$dir" && cargo clean >/dev/null 2>&1 && seconds cargo build)"
        only="$(cd "$dir" && cargo clean -p "$name" >/dev/null 2>&1 && seconds cargo build)"
        # Edit one struct (a field renamed), as a developer changing a layout would.
        sed -i -E "/^pub struct Layout0 /s/pub kind[_0-9]*: u32/pub kind_$run: u32/" "$dir/src/lib.rs"
        incr="$(cd "$dir" && seconds cargo build)"
        eval "clean_$crate+=(\"\$clean\") only_$crate+=(\"\$only\") incr_$crate+=(\"\$incr\")"
    done
    ratios+=("$(awk -v a="${only_rowkey[-1]}" -v b="${only_serde[-1]}" 'BEGIN { printf "%.3f", a / b }')")
done
for crate in rowkey serde; do
    eval "clean=(\"\${clean_$crate[@]}\") only=(\"\${only_$crate[@]}\") incr=(\"\${incr_$crate[@]}\")"
    printf '%s\tclean %ss\tcrate only %ss\tincremental %ss\n' "$crate" \
        "$(printf '%s\n' "${clean[@]}" | median)" \
        "$(printf '%s\n' "${only[@]}" | median)" \
        "$(printf '%s\n' "${incr[@]}" | median)"
done
printf 'crate only, rowkey/serde by run: %s; median %sx\n' "${ratios[*]}" \
    "$(printf '%s\n' "${ratios[@]}" | median)"

if [ "${ROWKEY_BUILD_INSTRUCTIONS:-0}" = 1 ]; then
    # rustc under callgrind for the layouts crate only (a wrapper sees every rustc call).
    wrapper="$work/callgrind-rustc"
    cat >"$wrapper" <<'WRAP'
#!/usr/bin/env bash
for arg in "$@"; do
    if [[ "$arg" == layouts_* ]]; then
        exec valgrind --tool=callgrind --callgrind-out-file="$ROWKEY_CALLGRIND_OUT" "$@"
    fi
done
exec "$@"
WRAP
    chmod +x "$wrapper"
    for crate in rowkey serde; do
        echo "[$crate] instructions" >&2
        out="$work/callgrind.$crate"
        (cd "$work/$crate" && cargo clean -p "layouts-$crate" >/dev/null 2>&1 &&
            CARGO_INCREMENTAL=0 RUSTC_WRAPPER="$wrapper" ROWKEY_CALLGRIND_OUT="$out" cargo build >/dev/null 2>&1)
        eval "ir_$crate=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')"
    done
    printf 'crate only, instructions: rowkey %s, serde %s, ratio %sx\n' "$ir_rowkey" "$ir_serde" \
        "$(awk -v a="$ir_rowkey" -v b="$ir_serde" 'BEGIN { printf "%.3f", a / b }')"
fi
