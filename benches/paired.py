#!/usr/bin/env python3
"""Paired whole-process timing, with nothing to install but Python 3.

    benches/paired.py [--runs N] [--stdin FILE] -- CMD_A ::: CMD_B [::: CMD_C ...]

Runs the commands in turns (A, B, C, A, B, C, ...) N times after one
warm-up round, so that load from other processes hits all of them alike.
Each command is split on spaces (no shell). Prints, per command, the median
wall time, the median over rounds of its time divided by A's time in the
same round, and its peak resident memory (the largest over runs, from
wait4). Output goes to /dev/null; a command that fails stops the script.

With --json, prints one JSON object instead:
{"median_s": [...], "ratio_to_first": [...], "peak_kib": [...]}.
"""
import json
import os
import statistics
import subprocess
import sys
import time


def run_once(argv, stdin_path):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        if stdin_path:
            stdin.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"paired.py: `{' '.join(argv)}` exited with {code}")
    return elapsed, usage.ru_maxrss


def main():
    args = sys.argv[1:]
    runs, stdin_path, as_json = 21, None, False
    while args and args[0] != "--":
        flag = args.pop(0)
        if flag == "--runs":
            runs = int(args.pop(0))
        elif flag == "--stdin":
            stdin_path = args.pop(0)
        elif flag == "--json":
            as_json = True
        else:
            sys.exit(f"paired.py: unknown option {flag}")
    if not args:
        sys.exit(__doc__)
    commands, current = [], []
    for word in args[1:]:
        if word == ":::":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    if any(not c for c in commands):
        sys.exit("paired.py: empty command")
    times = [[] for _ in commands]
    peaks = [0 for _ in commands]
    for round_ in range(runs + 1):
        for i, argv in enumerate(commands):
            elapsed, peak = run_once(argv, stdin_path)
            if round_ > 0:
                times[i].append(elapsed)
                peaks[i] = max(peaks[i], peak)
    medians = [statistics.median(t) for t in times]
    ratios = [
        statistics.median(t / a for t, a in zip(times[i], times[0]))
        for i in range(len(commands))
    ]
    if as_json:
        print(json.dumps({"median_s": medians, "ratio_to_first": ratios, "peak_kib": peaks}))
        return
    for argv, med, ratio, peak in zip(commands, medians, ratios, peaks):
        print(f"{med * 1e3:9.2f} ms  {ratio:6.3f}x  {peak / 1024:7.1f} MiB  {' '.join(argv)}")


if __name__ == "__main__":
    main()
