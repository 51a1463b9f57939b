#!/usr/bin/env bash
# benches/codec.rs for two trees in one criterion run: the tree at BASE (a commit) and the work
# tree, each rowkey function measured right after the other's, so that a change's cost reads as a
# ratio within one run on this noisy 2-core machine rather than across runs.
#
#   bash benches/side-by-side/run.sh BASE [CRITERION-FILTER]
#   bash benches/side-by-side/run.sh BASE --instructions [OP...]
#
# With --instructions, no criterion: probe.rs runs each operation (mixed-encode, mixed-decode,
# fixed-encode, fixed-decode, text-encode, text-decode, salted-encode, inside-encode, inside-decode, phoenix-encode,
# phoenix-decode; all by default) 2,000 and 4,000 times under `valgrind --tool=callgrind`, for
# each tree, and prints the instructions of one (the difference over 2,000): the figure that
# repeats where the times move by 10% from run to run.
#
# The base is checked out under target/side-by-side/base (a git worktree) with its crates renamed
# to version 0.2.999, so that both trees' `rowkey` link into one harness crate
# (target/side-by-side/bench, a workspace of its own): the base's as `rowkey_base`, its derives
# told so by `#[rowkey(crate = "rowkey_base")]`. The harness is benches/codec.rs twice, as the
# modules `base` and `work`; the peers and the hand-written code run once each. The filter is
# criterion's (default: every rowkey function).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
base_rev=${1:?usage: bash benches/side-by-side/run.sh BASE [FILTER | --instructions [OP...]]}
filter=${2:-rowkey}
dir=$root/target/side-by-side
mkdir -p "$dir"

# The base tree, renamed so that both versions can be linked together.
if [ -d "$dir/base" ]; then git worktree remove --force "$dir/base" >/dev/null 2>&1 || rm -rf "$dir/base"; fi
git worktree prune
git worktree add --detach "$dir/base" "$base_rev" >/dev/null
find "$dir/base" -name Cargo.toml -not -path "$dir/base/target/*" -exec sed -i 's/"=\?0\.3\.0"/"0.2.999"/; s/version = "=0.3.0"/version = "=0.2.999"/' {} +
sed -i 's/^version = "0.3.0"/version = "0.2.999"/' "$dir/base/Cargo.toml"

mkdir -p "$dir/bench/benches" "$dir/bench/src/bin"
cp "$root/benches/side-by-side/probe.rs" "$dir/bench/src/bin/probe.rs"
# The hand-written baseline, taken from benches/codec.rs so that both measure the same code.
python3 - "$root/benches/codec.rs" >>"$dir/bench/src/bin/probe.rs" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r"(#\[inline\(always\)\]\nfn hand_mixed_encode\(.*?\n\})\n", src, re.S)
print("\n" + m.group(1))
PY
cat >"$dir/bench/Cargo.toml" <<EOF
[package]
name = "rowkey-side-by-side"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
rowkey = { path = "$root" }
rowkey_base = { package = "rowkey", path = "$dir/base" }
criterion = { version = "0.5", default-features = false, features = ["cargo_bench_support"] }
storekey = "0.11"
memcomparable = "0.2"
foundationdb-tuple = "0.11"
serde = { version = "1", features = ["derive"] }
md-5 = "0.10"

[[bench]]
name = "codec"
harness = false

[profile.bench]
debug = false
EOF
cp "$root/Cargo.lock" "$dir/bench/Cargo.lock"

python3 - "$root/benches/codec.rs" "$dir/bench/benches/codec.rs" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
body = "\n".join(l for l in src.splitlines() if not l.startswith("//!"))
groups = re.search(r"criterion_group!\(\s*benches,([^)]*)\)", body).group(1)
groups = [g.strip() for g in groups.split(",") if g.strip()]
body = re.sub(r"criterion_group!\([^)]*\);", "", body)
body = body.replace("criterion_main!(benches);", "")
body = body.replace("use criterion::{criterion_group, criterion_main, Criterion};", "use criterion::Criterion;")

def tree(name, krate):
    text = body
    if krate != "rowkey":
        text = text.replace("rowkey::", krate + "::")
        text = re.sub(r"(#\[derive\([^)]*RowKey[^)]*\)\]\n)", r'\1#[rowkey(crate = "' + krate + '")]\n', text)
    # Each group's name says the tree.
    text = re.sub(r'benchmark_group\("([^"]*)"\)', r'benchmark_group(concat!("\1", " [' + name + ']"))', text)
    for g in groups:
        text = re.sub(r"\nfn %s\(" % g, "\npub fn %s(" % g, text)
    return "#[allow(dead_code, unused_imports)]\npub mod %s {\n%s\n}\n" % (name, text)

calls = "\n".join("    base::%s(&mut c);\n    work::%s(&mut c);" % (g, g) for g in groups)
out = tree("base", "rowkey_base") + tree("work", "rowkey") + """
fn main() {
    let mut c = criterion::Criterion::default().configure_from_args();
%s
    c.final_summary();
}
""" % calls
open(sys.argv[2], "w").write(out)
PY

cd "$dir/bench"
if [ "$filter" = --instructions ]; then
  shift 2
  ops=("$@")
  [ ${#ops[@]} -gt 0 ] || ops=(mixed-encode hand-mixed-encode mixed-decode fixed-encode fixed-decode text-encode text-decode salted-encode inside-encode inside-decode phoenix-encode phoenix-decode)
  CARGO_TARGET_DIR=$dir/target cargo build --release --bin probe
  echo "| operation | base | work |"
  echo "|---|---|---|"
  for op in "${ops[@]}"; do
    row="| $op"
    for tree in base work; do
      counts=()
      for n in 2000 4000; do
        valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$dir/target/release/probe" "$tree" "$op" "$n" >/dev/null 2>&1
        counts+=("$(awk '/^(summary|totals):/ { print $2; exit }' "$dir/cg.out")")
      done
      row="$row | $(( (counts[1] - counts[0]) / 2000 ))"
    done
    echo "$row |"
  done
  exit 0
fi
CARGO_TARGET_DIR=$dir/target cargo bench --bench codec -- --warm-up-time 1 --measurement-time 3 "$filter" \
  2>&1 | tee "$dir/last-run.txt" | python3 -c '
import re, sys
# criterion: "GROUP [tree]/FUNCTION" then "time: [low median high]", on one line or two.
name, rows = None, {}
for line in sys.stdin:
    m = re.match(r"^(\(.*?) \[(base|work)\]/(.*?)(\s+time:.*)?$", line.rstrip())
    if m:
        name = (m.group(1), m.group(3).strip(), m.group(2))
        line = m.group(4) or ""
    t = re.search(r"time:\s+\[\S+ \S+ (\S+) (\S+)", line)
    if t and name:
        unit = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}[t.group(2)]
        rows.setdefault(name[:2], {})[name[2]] = float(t.group(1)) * unit
        name = None
print("| group | function | base (ns) | work (ns) | work / base |")
print("|---|---|---|---|---|")
for (group, fn), v in rows.items():
    if "base" in v and "work" in v:
        print("| %s | %s | %.2f | %.2f | %.3fx |" % (group, fn, v["base"], v["work"], v["work"] / v["base"]))
'
