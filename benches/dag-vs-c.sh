#!/usr/bin/env bash
# The DAG engine against a plain single-threaded C engine
# (benches/c/dag-engine.c) on the same random DAG (N nodes, 5N edges, the
# SplitMix64 stream of random_dag_edges), in turns: C, Rust, C, Rust, ...
# Prints each run's build and values times, then the medians and the
# median of the per-round ratios of build + values (Rust / C). The two must
# print the same checksum of the values.
#
#   benches/dag-vs-c.sh [N] [ROUNDS]     # default 10000000 nodes, 5 rounds
#
# Needs: cargo, cc, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in cargo cc python3; do
    command -v "$tool" >/dev/null || { echo "dag-vs-c.sh: $tool is missing" >&2; exit 1; }
done
n=${1:-10000000}
rounds=${2:-5}
mkdir -p target/bench-c
cc -O2 -o target/bench-c/dag-engine benches/c/dag-engine.c
cargo build --release -q -p sg-bench --example dag_engine
log=$(mktemp)
for _ in $(seq "$rounds"); do
    echo "C    $(target/bench-c/dag-engine "$n")" | tee -a "$log"
    echo "Rust $(target/release/examples/dag_engine "$n" | tr '\n' ' ')" | tee -a "$log"
done
python3 - "$log" <<'EOF'
import re, statistics, sys
c, rust, sums = [], [], set()
for line in open(sys.argv[1]):
    build = float(re.search(r"build ([\d.]+) s", line).group(1))
    values = float(re.search(r"values ([\d.]+) s", line).group(1))
    sums.add(re.search(r"checksum (\d+)", line).group(1))
    (c if line.startswith("C") else rust).append((build, values))
if len(sums) != 1:
    sys.exit(f"checksums differ: {sums}")
for name, runs in (("C", c), ("Rust", rust)):
    b = statistics.median(r[0] for r in runs)
    v = statistics.median(r[1] for r in runs)
    t = statistics.median(r[0] + r[1] for r in runs)
    print(f"{name:4} median build {b:.3f} s, values {v:.3f} s, build + values {t:.3f} s")
ratio = statistics.median((r[0] + r[1]) / (k[0] + k[1]) for r, k in zip(rust, c))
vr = statistics.median(r[1] / k[1] for r, k in zip(rust, c))
br = statistics.median(r[0] / k[0] for r, k in zip(rust, c))
print(f"Rust / C, median of per-round ratios: build + values {ratio:.2f}x (build {br:.2f}x, values {vr:.2f}x)")
EOF
rm -f "$log"
