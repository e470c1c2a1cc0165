#!/usr/bin/env bash
# Speed of grundy's octal engine against ogsolve (Piotr Beling's octal game
# solver, method rc2), side by side, on these games and heap sizes:
#
#   .354 to 2,200,000   .6 to 2^20   .106 to 2^22   .376 to 2^20
#
# (OCTAL_GAMES="CODE N;CODE N..." replaces them.)
#
# Each round runs both programs on each game, one after the other
# (interleaved, so that load from other processes hits both alike), and
# records both wall-clock times and their ratio; the table gives the
# medians over ROUNDS rounds (default 5). Both must report the same value
# for the last heap, or the script fails.
#
# grundy's side is `cargo run --release -p sg-octal --example octal`, using
# every core of the machine (rayon), or THREADS threads; ogsolve is
# single-threaded. CPU times (user and system) are reported too. PIN=1
# runs every process on the first CPU alone (`taskset -c 0`): with
# THREADS=1, the speed per core of both programs
# (`PIN=1 THREADS=1 LEVELS="default avx2 portable" ...`).
#
# ogsolve is GPL software and is not part of this repository. The script
# runs the binary named by the environment variable OGSOLVE, or else
# `ogsolve` on PATH; install it with
#   cargo install ogsolve --root DIR
# and run with OGSOLVE=DIR/bin/ogsolve (or put DIR/bin on PATH).
#
# LEVELS (default `default`) lists grundy's kernel levels to time in the
# same rounds, each as GRUNDY_OCTAL_SIMD sets it: `LEVELS="default avx2
# portable"` gives, on an AVX-512 machine, what CPUs without AVX-512 (and
# without AVX2) get, against the same ogsolve runs; one table per level.
#
# Usage: [LEVELS="default avx2 portable"] [PIN=1] [THREADS=T] [OCTAL_GAMES=...]
#        benches/octal-vs-ogsolve.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-5}
read -r -a LEVELS <<<"${LEVELS:-default}"
for level in "${LEVELS[@]}"; do
    case $level in
    default | avx512 | avx2 | portable) ;;
    *)
        echo "error: LEVELS: unknown kernel level '$level' (default, avx512, avx2, portable)" >&2
        exit 2
        ;;
    esac
done
OGSOLVE=${OGSOLVE:-$(command -v ogsolve || true)}
if [ -z "$OGSOLVE" ] || ! [ -x "$OGSOLVE" ]; then
    echo "error: ogsolve not found (looked at \$OGSOLVE, then PATH)." >&2
    echo "install it with:  cargo install ogsolve --root DIR" >&2
    echo "then run:         OGSOLVE=DIR/bin/ogsolve $0 ${1:-}" >&2
    exit 2
fi

cargo build --release -q -p sg-octal --example octal
OURS=target/release/examples/octal

IFS=';' read -r -a GAMES <<<"${OCTAL_GAMES:-.354 2200000;.6 1048576;.106 4194304;.376 1048576}"
PINNED=()
if [ "${PIN:-0}" = 1 ]; then
    PINNED=(taskset -c 0)
fi
THREAD_ARGS=()
if [ -n "${THREADS:-}" ]; then
    THREAD_ARGS=("$THREADS")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_timed OUT CMD...: runs CMD, its output, its wall-clock seconds (from
# bash's EPOCHREALTIME: microseconds, where GNU time gives hundredths,
# too coarse for `.106`) and GNU time's user seconds (a line "TIME wall
# user") into OUT.
run_timed() {
    local out=$1; shift
    local start=$EPOCHREALTIME
    /usr/bin/time -f "USER %U %S" "$@" >"$out" 2>&1
    local end=$EPOCHREALTIME
    local user
    user=$(sed -n 's/^USER //p' "$out" | awk '{printf "%.2f", $1 + $2}')
    echo "TIME $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}') $user" >>"$out"
}

median() { sort -g | awk '{a[NR]=$1} END {m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# simd_env LEVEL: the environment that selects LEVEL.
simd_env() {
    case $1 in
    default) echo "GRUNDY_OCTAL_SIMD=" ;;
    *) echo "GRUNDY_OCTAL_SIMD=$1" ;;
    esac
}

for ((round = 1; round <= ROUNDS; round++)); do
    for game in "${GAMES[@]}"; do
        read -r code n <<<"$game"
        run_timed "$tmp/theirs" "${PINNED[@]}" "$OGSOLVE" -m rc2 -n "$n" "$code"
        theirs_g=$(sed -n "s/.*nimber of $n: \([0-9]*\).*/\1/p" "$tmp/theirs")
        read -r _ tw tu < <(grep '^TIME' "$tmp/theirs")
        for level in "${LEVELS[@]}"; do
            run_timed "$tmp/ours" env "$(simd_env "$level")" "${PINNED[@]}" "$OURS" "$code" "$n" "${THREAD_ARGS[@]}"
            ours_g=$(sed -n "s/.*G($n) = \([0-9]*\).*/\1/p" "$tmp/ours")
            if [ -z "$ours_g" ] || [ "$ours_g" != "$theirs_g" ]; then
                echo "error: $code ($level): G($n) differs: grundy '$ours_g', ogsolve '$theirs_g'" >&2
                cat "$tmp/ours" "$tmp/theirs" >&2
                exit 1
            fi
            read -r _ ow ou < <(grep '^TIME' "$tmp/ours")
            echo "$level $code $n $ow $ou $tw $tu" >>"$tmp/results"
            echo "round $round: $code to $n: grundy ($level) ${ow}s (user ${ou}s), ogsolve ${tw}s (user ${tu}s)" >&2
        done
    done
done

for level in "${LEVELS[@]}"; do
    echo
    echo "grundy's kernels: $level"
    echo
    echo "| game | heaps | grundy wall (s) | grundy CPU (s) | ogsolve wall (s) | ogsolve CPU (s) | speed-up (wall) | speed-up (CPU) |"
    echo "|---|---|---|---|---|---|---|---|"
    for game in "${GAMES[@]}"; do
        read -r code n <<<"$game"
        rows=$(awk -v l="$level" -v c="$code" '$1 == l && $2 == c' "$tmp/results")
        ow=$(awk '{print $4}' <<<"$rows" | median)
        ou=$(awk '{print $5}' <<<"$rows" | median)
        tw=$(awk '{print $6}' <<<"$rows" | median)
        tu=$(awk '{print $7}' <<<"$rows" | median)
        rw=$(awk '{ if ($4 > 0) print $6 / $4; else print 0 }' <<<"$rows" | median)
        ru=$(awk '{ if ($5 > 0) print $7 / $5; else print 0 }' <<<"$rows" | median)
        printf '| `%s` | %s | %s | %s | %s | %s | %.1fx | %.1fx |\n' "$code" "$n" "$ow" "$ou" "$tw" "$tu" "$rw" "$ru"
    done
done
echo
echo "(medians over $ROUNDS interleaved rounds; speed-ups are medians of the per-round ratios; $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo 'no AVX-512'); grundy's threads: ${THREADS:-every core}; pinned: ${PIN:-0}; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
