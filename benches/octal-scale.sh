#!/usr/bin/env bash
# The octal engine against ogsolve (method rc2) as heaps grow, side by
# side in one run, with each kernel level of grundy:
#
#   .6 to 2^20, 2^22, 2^24    .376 to 2^20, 2^22    .354 to 2^21, 2^23
#
#   benches/octal-scale.sh [ROUNDS] [LARGEST]
#
# ROUNDS (default 1): rounds, each running every program on every game
# and size, one after the other. LARGEST (default 24): sizes above
# 2^LARGEST are left out (e.g. 22 for a quick run).
#
# grundy's side is `cargo run --release -p sg-octal --example octal` with
# the kernels the CPU has (AVX-512 here), with GRUNDY_OCTAL_SIMD=avx2 and
# with GRUNDY_OCTAL_SIMD=portable (what a CPU without AVX-512, without
# AVX2, gets), on one thread and on the default threads (one per core);
# ogsolve is single-threaded. For each: wall seconds, values per second,
# peak RSS in bytes per value (GNU time's %M), and grundy's speed-up over
# ogsolve. Every program must report the same value for the last heap, or
# the script fails.
#
# OCTAL_SCALE_PROGRAMS narrows the programs, `;`-separated, each
# "ogsolve 1" or "NAME THREADS" with NAME one of grundy, avx2, portable
# (e.g. "ogsolve 1;grundy 1;grundy 2"; default: all seven).
# OCTAL_SCALE_GAMES narrows the games the same way (e.g. ".6 20;.6 22").
# OGSOLVE_TIMEOUT (seconds, default 240) stops an ogsolve run that takes
# longer; its row then reads "> N" and grundy's values at that size are
# not checked against it.
#
# ogsolve is GPL software and is not part of this repository. The script
# runs the binary named by the environment variable OGSOLVE, or else
# `ogsolve` on PATH; install it with
#   cargo install ogsolve --root DIR
# and run with OGSOLVE=DIR/bin/ogsolve (or put DIR/bin on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-1}
LARGEST=${2:-24}
OGSOLVE=${OGSOLVE:-$(command -v ogsolve || true)}
if [ -z "$OGSOLVE" ] || ! [ -x "$OGSOLVE" ]; then
    echo "error: ogsolve not found (looked at \$OGSOLVE, then PATH)." >&2
    echo "install it with:  cargo install ogsolve --root DIR" >&2
    echo "then run:         OGSOLVE=DIR/bin/ogsolve $0 ${*:-}" >&2
    exit 2
fi
[ -x /usr/bin/time ] || { echo "error: GNU time (/usr/bin/time) is missing" >&2; exit 1; }

cargo build --release -q -p sg-octal --example octal
OURS=target/release/examples/octal
CORES=$(nproc)

GAMES=(".6 20" ".6 22" ".6 24" ".376 20" ".376 22" ".354 21" ".354 23")
if [ -n "${OCTAL_SCALE_GAMES:-}" ]; then
    IFS=';' read -r -a GAMES <<<"$OCTAL_SCALE_GAMES"
fi
# name, GRUNDY_OCTAL_SIMD, threads (grundy), or "ogsolve".
PROGRAMS=("ogsolve 1" "grundy 1" "grundy $CORES" "avx2 1" "avx2 $CORES" "portable 1" "portable $CORES")
if [ -n "${OCTAL_SCALE_PROGRAMS:-}" ]; then
    IFS=';' read -r -a PROGRAMS <<<"$OCTAL_SCALE_PROGRAMS"
fi
OGSOLVE_TIMEOUT=${OGSOLVE_TIMEOUT:-240}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "cores: $CORES; load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((round = 1; round <= ROUNDS; round++)); do
    for game in "${GAMES[@]}"; do
        read -r code power <<<"$game"
        [ "$power" -le "$LARGEST" ] || continue
        n=$((1 << power))
        expected=unchecked
        for program in "${PROGRAMS[@]}"; do
            read -r name threads <<<"$program"
            start=$EPOCHREALTIME
            if [ "$name" = ogsolve ]; then
                status=0
                timeout "$OGSOLVE_TIMEOUT" /usr/bin/time -f "RSS %M" "$OGSOLVE" -m rc2 -n "$n" "$code" >"$tmp/out" 2>&1 || status=$?
                g=$(sed -n "s/.*nimber of $n: \([0-9]*\).*/\1/p" "$tmp/out")
                if [ "$status" = 124 ]; then
                    g=timeout
                elif [ "$status" != 0 ]; then
                    echo "error: ogsolve $code -n $n failed (exit $status)" >&2
                    cat "$tmp/out" >&2
                    exit 1
                fi
            else
                simd=$name
                [ "$name" = grundy ] && simd=""
                GRUNDY_OCTAL_SIMD=$simd /usr/bin/time -f "RSS %M" "$OURS" "$code" "$n" "$threads" >"$tmp/out" 2>&1
                g=$(sed -n "s/.*G($n) = \([0-9]*\).*/\1/p" "$tmp/out")
            fi
            end=$EPOCHREALTIME
            rss=$(sed -n 's/^RSS //p' "$tmp/out")
            if [ "$name" = ogsolve ]; then
                expected=$g
            elif [ "$expected" = timeout ] || [ "$expected" = unchecked ] && [ -n "$g" ]; then
                :
            elif [ -z "$g" ] || [ "$g" != "$expected" ]; then
                echo "error: $code: G($n) differs: $program '$g', ogsolve '$expected'" >&2
                cat "$tmp/out" >&2
                exit 1
            fi
            secs=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')
            if [ "$g" = timeout ]; then
                secs=">$OGSOLVE_TIMEOUT"
                rss=NaN
            fi
            echo "$code $power $name $threads $secs $rss" >>"$tmp/results"
            echo "round $round: $code to 2^$power: $program ${secs}s, peak RSS ${rss} KiB" >&2
        done
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

echo
echo "| game | heaps | program | threads | wall (s) | values/s | bytes/value | speed-up over ogsolve |"
echo "|---|---|---|---|---|---|---|---|"
for game in "${GAMES[@]}"; do
    read -r code power <<<"$game"
    [ "$power" -le "$LARGEST" ] || continue
    n=$((1 << power))
    theirs=$(awk -v c="$code" -v p="$power" '$1 == c && $2 == p && $3 == "ogsolve" {print $5}' "$tmp/results" | median)
    for program in "${PROGRAMS[@]}"; do
        read -r name threads <<<"$program"
        rows=$(awk -v c="$code" -v p="$power" -v m="$name" -v t="$threads" '$1 == c && $2 == p && $3 == m && $4 == t' "$tmp/results")
        secs=$(awk '{print $5}' <<<"$rows" | median)
        rss=$(awk '{print $6}' <<<"$rows" | median)
        label=$name
        [ "$name" = grundy ] && label="grundy (every kernel)"
        [ "$name" = avx2 ] || [ "$name" = portable ] && label="grundy, GRUNDY_OCTAL_SIMD=$name"
        if [[ "$secs" == ">"* ]]; then
            printf '| `%s` | 2^%s | %s | %s | %s | < %.3g | | |\n' "$code" "$power" "$label" "${threads:-1}" "$secs" \
                "$(awk -v n="$n" -v s="${secs#>}" 'BEGIN {print (n + 1) / s}')"
            continue
        fi
        if [ -z "$theirs" ] || [[ "$theirs" == ">"* ]]; then
            printf '| `%s` | 2^%s | %s | %s | %s | %.3g | %.1f | %s |\n' "$code" "$power" "$label" "${threads:-1}" "$secs" \
                "$(awk -v n="$n" -v s="$secs" 'BEGIN {print (n + 1) / s}')" \
                "$(awk -v n="$n" -v r="$rss" 'BEGIN {print r * 1024 / (n + 1)}')" \
                "$([ -n "$theirs" ] && awk -v a="${theirs#>}" -v b="$secs" 'BEGIN {printf "> %.2fx", a / b}')"
            continue
        fi
        printf '| `%s` | 2^%s | %s | %s | %s | %.3g | %.1f | %.2fx |\n' "$code" "$power" "$label" "${threads:-1}" "$secs" \
            "$(awk -v n="$n" -v s="$secs" 'BEGIN {print (n + 1) / s}')" \
            "$(awk -v n="$n" -v r="$rss" 'BEGIN {print r * 1024 / (n + 1)}')" \
            "$(awk -v a="$theirs" -v b="$secs" 'BEGIN {print a / b}')"
    done
done
echo
echo "(medians over $ROUNDS rounds; $CORES cores; bytes/value: peak RSS over the heaps computed)"
