#!/usr/bin/env bash
# Whole-process timing of every judge solver against the floor (`grundy
# floor`: read the file and parse every integer, nothing else) on the same
# bytes, with peak memory. Needs hyperfine (Debian: apt-get install hyperfine).
#
#   benches/whole-process.sh [DIR]      # inputs go to DIR (default: target/bench-inputs)
#
# Prints one markdown table row per input: solver time, floor time, their
# ratio, MB/s, peak RSS of the solver, input size, and the memory budget
# (2 x input + 16 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/bench-inputs}
cargo build --release -q -p sg-solve
cargo xtask inputs --out "$dir" >/dev/null
grundy=target/release/grundy
json=$(mktemp)
echo "| input | solver | time | floor | ratio | MB/s | peak RSS | budget |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for file in "$dir"/*.in; do
    name=$(basename "$file")
    sub=${name%%-*}
    for variant in "" "--online"; do
        if [[ -n $variant && $sub != hdu5724 && $sub != lightoj1315 ]]; then continue; fi
        hyperfine -N --warmup 3 --min-runs 15 --export-json "$json" \
            "$grundy $sub $variant $file" "$grundy floor $file" >/dev/null 2>&1
        read -r solver floor < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(min(r[0]["times"]), min(r[1]["times"]))' "$json")
        bytes=$(stat -c %s "$file")
        peak=$( { /usr/bin/time -f %M "$grundy" $sub $variant "$file" >/dev/null; } 2>&1 | tail -1)
        python3 -c '
import sys
name, sub, solver, floor, size, peak = sys.argv[1:7]
solver, floor, size, peak = float(solver), float(floor), int(size), int(peak)
budget = (2 * size + 16 * 2**20) / 2**20
print(f"| {name} | {sub} | {solver*1e3:.1f} ms | {floor*1e3:.1f} ms | {solver/floor:.2f} | "
      f"{size/solver/1e6:.0f} | {peak/1024:.1f} MiB | {budget:.1f} MiB |")' \
            "$name" "$sub${variant:+ $variant}" "$solver" "$floor" "$bytes" "$peak"
    done
done
rm -f "$json"
