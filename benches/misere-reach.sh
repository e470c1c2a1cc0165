#!/usr/bin/env bash
# How far grundy's misère quotients reach against Siegel's MisereSolver:
# for each game of the table below, the heap MisereSolver reaches and the
# seconds it takes (45 s for each game but Dawson's Kayles, whose heaps 30
# and 33 it reaches in 11 s and 38 s), grundy is run with that many
# seconds to the same heap:
#
#   grundy octal CODE --misere --max-order 4096 --to HEAP --max-seconds S --json
#
# One markdown row per game: the heaps proven, the order and |P| of the
# quotient, the wall seconds and peak resident memory of the process, and
# whether it reached the heap within MisereSolver's time. The last line
# counts the games that did. Nothing is asserted: the script fails only
# when grundy fails (a non-zero exit, no JSON).
#
# MisereSolver's figures are those of a run on a 2-core machine of this
# kind (45 s a game); it is Java and not part of this repository.
#
# GRUNDY names the binary (default: target/release/grundy, built first);
# REACH_GAMES="CODE HEAP SECONDS;..." replaces the table. Needs Python 3.
#
# Usage: [GRUNDY=PATH] [REACH_GAMES=...] benches/misere-reach.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DEFAULT_GAMES="0.07 30 11;0.07 33 38;0.137 32 45;0.4 34 45;0.41 34 45;0.42 34 45;0.43 34 45;\
0.54 83 45;0.17 33 45;0.04 43 45;0.007 42 45;0.14 21 45;0.16 17 45;0.35 14 45;0.64 14 45;\
0.65 14 45;0.66 14 45;0.67 14 45;0.114 24 45;0.3312 13 45;0.3123 11 45"

if [ -z "${GRUNDY:-}" ]; then
    cargo build --quiet --release --locked -p sg-solve
    GRUNDY=target/release/grundy
fi

exec python3 - "$GRUNDY" "${REACH_GAMES:-$DEFAULT_GAMES}" <<'EOF'
import json, os, subprocess, sys, tempfile, time

grundy, games = sys.argv[1], sys.argv[2]
model = "unknown"
with open("/proc/cpuinfo") as f:
    cpuinfo = f.read()
for line in cpuinfo.splitlines():
    if line.startswith("model name"):
        model = line.split(":", 1)[1].strip()
        break
simd = "AVX-512" if "avx512f" in cpuinfo else "no AVX-512"
print(f"CPU: {model}, {os.cpu_count()} cores, {simd}")
print()
print("| code | heap | MisereSolver | heaps proven | order | P | wall | peak RSS | reached in its time |")
print("|---|---|---|---|---|---|---|---|---|")
rows = [g.split() for g in games.split(";") if g.strip()]
reached = 0
for code, heap, seconds in rows:
    args = [grundy, "octal", code, "--misere", "--max-order", "4096", "--to", heap,
            "--max-seconds", seconds, "--json"]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        child = subprocess.Popen(args, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        if status != 0:
            sys.exit(f"error: {' '.join(args)} ended with status {status}:\n{err.read().decode()}")
        q = json.loads(out.read())
    rss = usage.ru_maxrss / 1024  # KiB on Linux
    done = q["computed_to"] >= int(heap) and wall <= float(seconds)
    reached += done
    print(f"| {code} | {heap} | {seconds} s | 0..={q['computed_to']} | {q['order']} "
          f"| {len(q['p_portion'])} | {wall:.2f} s | {rss:.0f} MiB | {'yes' if done else 'no'} |")
print()
print(f"{reached} of {len(rows)} games reached MisereSolver's heap within its time")
EOF
