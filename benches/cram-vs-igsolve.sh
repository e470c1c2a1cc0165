#!/usr/bin/env bash
# Speed of `grundy cram` against igsolve (Piotr Beling's impartial game
# solver, its default method for Cram: BR with aspiration sets), side by
# side, whole process, wall clock, on the boards of the user-defined games
# issue:
#
#   4x7  5x6  5x7  5x8  4x11                       (and 6x7 with --long)
#
# Each round runs both programs on each board, one after the other
# (interleaved, so that load from other processes hits both alike); the
# table gives the medians over ROUNDS rounds (default 3) of the wall-clock
# and CPU (user + system) times and of the ratio igsolve / grundy. Both
# must report the same nimber, or the script fails.
#
# grundy runs with its defaults (one thread per CPU, the compiled-in
# endgame table); `GRUNDY_ARGS` adds options (e.g. `--threads 1`).
# igsolve runs with its defaults (its default method for Cram, no endgame
# database); `IGSOLVE_ARGS` adds its global options, to find its fastest
# setting on a machine (e.g. `--edb_segments 1`, which builds an endgame
# database first, or `-m br`).
#
# PIN=1 runs each process on the first CPU alone (`taskset -c 0`): the
# per-core comparison, with `GRUNDY_ARGS="--threads 1"`.
#
# igsolve is not part of this repository: install it with
#   RUSTFLAGS="-C target-cpu=native" cargo install igsolve --root DIR
# and put DIR/bin on PATH, or point IGSOLVE at the binary.
#
# Usage: benches/cram-vs-igsolve.sh [ROUNDS] [--long]
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=3
BOARDS=(4x7 5x6 5x7 5x8 4x11)
for arg in "$@"; do
    case $arg in
        --long) BOARDS+=(6x7) ;;
        *[!0-9]* | "") echo "usage: $0 [ROUNDS] [--long]" >&2; exit 2 ;;
        *) ROUNDS=$arg ;;
    esac
done

IGSOLVE=${IGSOLVE:-$(command -v igsolve || true)}
if [ -z "$IGSOLVE" ] || ! [ -x "$IGSOLVE" ]; then
    echo "error: igsolve not found (looked at \$IGSOLVE and PATH)." >&2
    echo "install it with:  RUSTFLAGS=\"-C target-cpu=native\" cargo install igsolve --root DIR" >&2
    echo "then:             PATH=DIR/bin:\$PATH $0" >&2
    exit 2
fi
IGSOLVE=$(realpath "$IGSOLVE")

cargo build --release -q -p sg-solve --bin grundy
GRUNDY=target/release/grundy
read -r -a GRUNDY_EXTRA <<<"${GRUNDY_ARGS:-}"
PINNED=()
if [ "${PIN:-0}" = 1 ]; then
    PINNED=(taskset -c 0)
fi
read -r -a IGSOLVE_EXTRA <<<"${IGSOLVE_ARGS:-}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_timed OUT CMD...: runs CMD with its output into OUT, then a line
# "TIME wall cpu" (wall from bash's clock, cpu = user + system from GNU
# time).
run_timed() {
    local out=$1
    shift
    local start=$EPOCHREALTIME
    /usr/bin/time -f "CPU %U %S" "$@" >"$out" 2>&1
    local end=$EPOCHREALTIME
    local cpu
    cpu=$(awk '/^CPU / {printf "%.3f", $2 + $3}' "$out")
    echo "TIME $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}') $cpu" >>"$out"
}

median() { sort -g | awk '{a[NR]=$1} END {m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }

for ((round = 1; round <= ROUNDS; round++)); do
    for board in "${BOARDS[@]}"; do
        rows=${board%x*}
        cols=${board#*x}
        run_timed "$tmp/ours" "${PINNED[@]}" "$GRUNDY" cram "$board" --json "${GRUNDY_EXTRA[@]}"
        # In an empty folder of its own: an endgame database igsolve
        # writes (--edb_segments) is built within the run timed, never
        # found from an earlier run, and left nowhere.
        rm -rf "$tmp/igsolve" && mkdir "$tmp/igsolve"
        run_timed "$tmp/theirs" env -C "$tmp/igsolve" "${PINNED[@]}" "$IGSOLVE" "${IGSOLVE_EXTRA[@]}" cram -r "$rows" -c "$cols"
        ours_n=$(sed -n 's/.*"nimber":\([0-9]*\).*/\1/p' "$tmp/ours")
        theirs_n=$(sed -n 's/^Nimber of initial position: \([0-9]*\).*/\1/p' "$tmp/theirs")
        if [ -z "$ours_n" ] || [ "$ours_n" != "$theirs_n" ]; then
            echo "error: $board: the nimbers differ: grundy '$ours_n', igsolve '$theirs_n'" >&2
            cat "$tmp/ours" "$tmp/theirs" >&2
            exit 1
        fi
        read -r _ ow oc < <(grep '^TIME' "$tmp/ours")
        read -r _ tw tc < <(grep '^TIME' "$tmp/theirs")
        echo "$board $ours_n $ow $oc $tw $tc" >>"$tmp/results"
        echo "round $round: $board (nimber $ours_n): grundy ${ow}s (CPU ${oc}s), igsolve ${tw}s (CPU ${tc}s)" >&2
    done
done

echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); grundy ${GRUNDY_ARGS:-(defaults)}; igsolve ${IGSOLVE_ARGS:-(defaults)}; pinned: ${PIN:-0}"
echo
echo "| board | nimber | grundy wall (s) | grundy CPU (s) | igsolve wall (s) | igsolve CPU (s) | speed-up (wall) | speed-up (CPU) |"
echo "|---|---|---|---|---|---|---|---|"
for board in "${BOARDS[@]}"; do
    rows=$(awk -v b="$board" '$1 == b' "$tmp/results")
    n=$(awk 'NR == 1 {print $2}' <<<"$rows")
    ow=$(awk '{print $3}' <<<"$rows" | median)
    oc=$(awk '{print $4}' <<<"$rows" | median)
    tw=$(awk '{print $5}' <<<"$rows" | median)
    tc=$(awk '{print $6}' <<<"$rows" | median)
    rw=$(awk '{print $5 / $3}' <<<"$rows" | median)
    rc=$(awk '{print $6 / $4}' <<<"$rows" | median)
    printf '| %s | %s | %.3f | %.3f | %.3f | %.3f | %.1fx | %.1fx |\n' "$board" "$n" "$ow" "$oc" "$tw" "$tc" "$rw" "$rc"
done
