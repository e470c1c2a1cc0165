#!/usr/bin/env bash
# The misère quotients of the classical octal games, one process per game,
# with the time and the peak memory of each:
#
#   benches/misere-quotients.sh [CODE...]
#
# By default the games of Plambeck and Siegel's tables that the tests and
# the docs name: 0.75 0.07 0.77 0.137 0.31 0.51 4.7 0.15 0.71 0.35 0.53
# 0.57 0.64 0.106 0.1 0.104 0.13 0.123 0.3122 0.6 0.52.
#
# Each game is `cargo run --release -p sg-octal --example misere_quotients
# CODE` at the default limits (heaps up to 16384, order at most 1024;
# MISERE_ARGS adds options, e.g. "--max-order 4096"), under GNU time. One
# markdown row per game: order, |P|, preperiod, period, certified, the
# heaps the quotient covers, why it stopped (certified; --to; the order
# limit, the engine's working limits or refuted candidates at a heap), the
# construction's own time, the process's wall time and peak resident
# memory (GNU time's %M). MISERE_TIMEOUT (seconds, default 600) stops a
# game that takes longer; its row then says so.
set -euo pipefail
cd "$(dirname "$0")/.."

TIMEOUT=${MISERE_TIMEOUT:-600}
read -r -a EXTRA <<<"${MISERE_ARGS:-}"
if [ "$#" -gt 0 ]; then
    CODES=("$@")
else
    CODES=(0.75 0.07 0.77 0.137 0.31 0.51 4.7 0.15 0.71 0.35 0.53 0.57 0.64 0.106 0.1
        0.104 0.13 0.123 0.3122 0.6 0.52)
fi
TIME=/usr/bin/time
if ! "$TIME" -f %M true >/dev/null 2>&1; then
    echo "error: GNU time is needed at $TIME (apt-get install time)" >&2
    exit 2
fi

cargo build --quiet --release -p sg-octal --example misere_quotients
BIN=target/release/examples/misere_quotients
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo
echo "| code | order | P | preperiod | period | certified | heaps covered | stopped | construction | wall | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for code in "${CODES[@]}"; do
    status=0
    "$TIME" -f '%e %M' -o "$TMP/time" timeout "$TIMEOUT" "$BIN" "${EXTRA[@]}" "$code" \
        >"$TMP/out" 2>"$TMP/err" || status=$?
    if [ "$status" -eq 124 ]; then
        echo "| $code | | | | | | | over ${TIMEOUT} s | | > ${TIMEOUT} s | |"
        continue
    elif [ "$status" -ne 0 ]; then
        echo "error: $code: $(cat "$TMP/err")" >&2
        exit 1
    fi
    # The example's row, less its memory column (the quotient's own
    # bytes), then GNU time's wall seconds and peak RSS.
    row=$(grep '^| [0-9]' "$TMP/out" | sed 's/ | [^|]* |$/ |/')
    read -r wall kib <"$TMP/time"
    echo "$row $wall s | $((kib / 1024)) MiB |"
done
