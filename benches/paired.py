#!/usr/bin/env python3
"""Paired whole-process timing, with nothing to install but Python 3.

    benches/paired.py [--runs N] [--stdin FILE] -- CMD_A ::: CMD_B [::: CMD_C ...]

Runs the commands in turns (A, B, C, A, B, C, ...) N times after one
warm-up round, so that load from other processes hits all of them alike.
Each command is split on spaces (no shell); leading words NAME=VALUE set
environment variables for that command alone (as env(1) would, without
starting another program: `GRUNDY_SCAN_SIMD=avx2 grundy floor`). Prints, per command, the median
wall time, the median over rounds of its time divided by A's time in the
same round, and its peak resident memory (one more run under GNU time,
/usr/bin/time, when installed: Debian `apt-get install time`; else n/a).
Output goes to /dev/null; a command that fails stops the script.

With --json, prints one JSON object instead:
{"median_s": [...], "ratio_to_first": [...], "peak_kib": [...]}.
"""
import json
import os
import subprocess
import statistics
import sys
import time

GNU_TIME = "/usr/bin/time"


def peak_kib(argv, stdin_path):
    """The peak RSS of one more run, from GNU time: wait4 on a child of
    this script would count the script's own memory (Linux keeps the peak
    of the memory a process had before exec)."""
    if not os.path.exists(GNU_TIME):
        print(f"paired.py: {GNU_TIME} is missing (Debian: apt-get install time): "
              "no peak memory", file=sys.stderr)
        return None
    env, argv = split_env(argv)
    with open(stdin_path or os.devnull, "rb") as stdin:
        r = subprocess.run([GNU_TIME, "-f", "%M", *argv], stdin=stdin, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    return int(r.stderr.split()[-1])


def split_env(argv):
    """The environment for argv (ours, with its leading NAME=VALUE words)
    and the command after them."""
    env = dict(os.environ)
    while argv and "=" in argv[0] and not argv[0].startswith("="):
        name, value = argv[0].split("=", 1)
        env[name] = value
        argv = argv[1:]
    return env, argv


def run_once(argv, stdin_path):
    """Runs argv once; returns its wall time."""
    env, argv = split_env(argv)
    stdin_fd = os.open(stdin_path or os.devnull, os.O_RDONLY)
    null_fd = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, stdin_fd, 0), (os.POSIX_SPAWN_DUP2, null_fd, 1)]
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        os.close(stdin_fd)
        os.close(null_fd)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"paired.py: `{' '.join(argv)}` exited with {code}")
    return elapsed


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
    for round_ in range(runs + 1):
        for i, argv in enumerate(commands):
            elapsed = run_once(argv, stdin_path)
            if round_ > 0:
                times[i].append(elapsed)
    peaks = [peak_kib(argv, stdin_path) for argv in commands]
    medians = [statistics.median(t) for t in times]
    ratios = [
        statistics.median(t / a for t, a in zip(times[i], times[0]))
        for i in range(len(commands))
    ]
    if as_json:
        print(json.dumps({"median_s": medians, "ratio_to_first": ratios, "peak_kib": peaks}))
        return
    for argv, med, ratio, peak in zip(commands, medians, ratios, peaks):
        mib = f"{peak / 1024:7.1f} MiB" if peak is not None else "    n/a    "
        print(f"{med * 1e3:9.2f} ms  {ratio:6.3f}x  {mib}  {' '.join(argv)}")


if __name__ == "__main__":
    main()
