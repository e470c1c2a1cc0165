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
# quotient, the wall seconds and peak resident memory of the process (GNU
# time), and whether it reached the heap within MisereSolver's time. The
# last line counts the games that did. Nothing is asserted: the script
# fails only when grundy fails (a non-zero exit, no JSON).
#
# MisereSolver's figures are those of a run on a 2-core machine of this
# kind (45 s a game); it is Java and not part of this repository.
#
# GRUNDY names the binary (default: target/release/grundy, built first);
# REACH_GAMES="CODE HEAP SECONDS;..." replaces the table.
#
# Usage: [GRUNDY=PATH] [REACH_GAMES=...] benches/misere-reach.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DEFAULT_GAMES="0.07 30 11;0.07 33 38;0.137 32 45;0.4 34 45;0.41 34 45;0.42 34 45;0.43 34 45;\
0.54 83 45;0.17 33 45;0.04 43 45;0.007 42 45;0.14 21 45;0.16 17 45;0.35 14 45;0.64 14 45;\
0.65 14 45;0.66 14 45;0.67 14 45;0.114 24 45;0.3312 13 45;0.3123 11 45"
IFS=';' read -r -a GAMES <<<"${REACH_GAMES:-$DEFAULT_GAMES}"

TIME=/usr/bin/time
if ! "$TIME" -f %M true >/dev/null 2>&1; then
    echo "error: GNU time is needed at $TIME (apt-get install time)" >&2
    exit 2
fi
if [ -z "${GRUNDY:-}" ]; then
    cargo build --quiet --release --locked -p sg-solve
    GRUNDY=target/release/grundy
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')," \
    "$(nproc) cores, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo 'no AVX-512')"
echo
echo "| code | heap | MisereSolver | heaps proven | order | P | wall | peak RSS | reached in its time |"
echo "|---|---|---|---|---|---|---|---|---|"
reached=0
for game in "${GAMES[@]}"; do
    read -r code heap seconds <<<"$game"
    status=0
    "$TIME" -f '%e %M' -o "$TMP/time" "$GRUNDY" octal "$code" --misere --max-order 4096 \
        --to "$heap" --max-seconds "$seconds" --json >"$TMP/out" 2>"$TMP/err" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "error: grundy octal $code --misere exited with $status:" >&2
        cat "$TMP/err" >&2
        exit 1
    fi
    read -r wall rss <"$TMP/time"
    row=$(python3 - "$TMP/out" "$heap" "$seconds" "$wall" "$rss" <<'EOF'
import json, sys
path, heap, seconds, wall, rss = sys.argv[1:]
q = json.load(open(path))
p = q["p_portion"]
size = len(p) if isinstance(p, list) else len(str(p).split(","))
done = q["computed_to"] >= int(heap) and float(wall) <= float(seconds)
print(f"| {q['code']} | {heap} | {seconds} s | 0..={q['computed_to']} | {q['order']} | {size} "
      f"| {float(wall):.2f} s | {int(rss) / 1024:.0f} MiB | {'yes' if done else 'no'} |")
EOF
    )
    echo "$row"
    case "$row" in *"| yes |") reached=$((reached + 1)) ;; esac
done
echo
echo "$reached of ${#GAMES[@]} games reached MisereSolver's heap within its time"
