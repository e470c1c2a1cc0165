#!/usr/bin/env bash
# The octal engine on a machine it shares: `grundy octal` with more
# threads than cores, and several runs side by side.
#
#   benches/octal-sharing.sh [ROUNDS]     # default 5 rounds
#
# 1. `.354` to 2,200,000 with --threads 1, 2, 4, 8, 16 and 32, one after
#    the other in each round: the wall time of each, and its ratio to one
#    thread (the crew never has more threads than the cores this process
#    may run on, and leaves out its other threads while they do not help).
# 2. `.6` to 2^20, K = 2 and 4 runs started at once, with the default
#    threads (one per core) against the same K runs with --threads 1 each,
#    in turns: the mean wall time of a run of each batch, and their ratio.
#
# Every run prints its JSON summary; all runs of a game must agree, or the
# script fails. The table gives medians over the rounds. Needs cargo.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-5}
cargo build --release -q -p sg-solve --bin grundy
GRUNDY=target/release/grundy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# batch OUT K ARGS...: K runs of `grundy octal ARGS` started at once; each
# one's summary into OUT.i, the mean of their wall times (seconds) on
# standard output.
batch() {
    local out=$1 k=$2; shift 2
    local i
    for ((i = 1; i <= k; i++)); do
        (
            start=$EPOCHREALTIME
            "$GRUNDY" octal "$@" --json >"$out.$i"
            end=$EPOCHREALTIME
            awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f\n", b - a}' >"$out.$i.time"
        ) &
    done
    wait
    cat "$out".*.time | awk '{s += $1} END {printf "%.4f\n", s / NR}'
    rm -f "$out".*.time
}

# same REFERENCE FILES...: every file holds REFERENCE's summary.
same() {
    local reference=$1; shift
    local f
    for f in "$@"; do
        if ! cmp -s "$reference" "$f"; then
            echo "error: $f differs from $reference:" >&2
            cat "$reference" "$f" >&2
            exit 1
        fi
    done
}

THREADS=(1 2 4 8 16 32)
SIDE=(2 4)
echo "cores: $(nproc); load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((round = 1; round <= ROUNDS; round++)); do
    for t in "${THREADS[@]}"; do
        secs=$(batch "$tmp/threads-$t" 1 .354 --online --to 2200000 --threads "$t")
        same "$tmp/threads-1.1" "$tmp/threads-$t.1"
        echo "threads $t $secs" >>"$tmp/results"
        echo "round $round: .354 to 2200000, --threads $t: ${secs}s" >&2
    done
    for k in "${SIDE[@]}"; do
        default=$(batch "$tmp/side-$k" "$k" .6 --online --to 1048576)
        one=$(batch "$tmp/one-$k" "$k" .6 --online --to 1048576 --threads 1)
        same "$tmp/side-$k.1" "$tmp/side-$k".* "$tmp/one-$k".*
        echo "side $k $default $one" >>"$tmp/results"
        echo "round $round: $k runs of .6 to 2^20 at once: default ${default}s, --threads 1 ${one}s" >&2
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

echo
echo "| \`.354\` to 2,200,000 | wall (s) | / one thread |"
echo "|---|---|---|"
one=$(awk '$1 == "threads" && $2 == 1 {print $3}' "$tmp/results" | median)
for t in "${THREADS[@]}"; do
    secs=$(awk -v t="$t" '$1 == "threads" && $2 == t {print $3}' "$tmp/results" | median)
    printf '| --threads %s | %s | %.2fx |\n' "$t" "$secs" "$(awk -v a="$secs" -v b="$one" 'BEGIN {print a / b}')"
done
echo
echo "| \`.6\` to 2^20, runs at once | default threads: s per run | --threads 1: s per run | default / one thread |"
echo "|---|---|---|---|"
for k in "${SIDE[@]}"; do
    rows=$(awk -v k="$k" '$1 == "side" && $2 == k' "$tmp/results")
    d=$(awk '{print $3}' <<<"$rows" | median)
    o=$(awk '{print $4}' <<<"$rows" | median)
    r=$(awk '{print $3 / $4}' <<<"$rows" | median)
    printf '| %s | %s | %s | %.2fx |\n' "$k" "$d" "$o" "$r"
done
echo
echo "(medians over $ROUNDS rounds; ratios are medians of the per-round ratios; $(nproc) cores)"
