"""Benchmark: ``grundy.octal(CODE, to=N, online=True)`` against the command
``grundy octal CODE --to N --online``, side by side (interleaved rounds,
the same threads), wall clock.

The module's time is the call's (the values are then in a numpy array);
the command's is the whole process (its start, a few milliseconds, is in).

Run:  python benches/octal_speed.py [--code .6] [--to 1048576] [--rounds 5]
      [--threads T] [--grundy PATH]   (the command: $GRUNDY_BIN, else
      target/release/grundy of the repository)
"""

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

import grundy

REPO = Path(__file__).resolve().parents[3]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default=".6")
    parser.add_argument("--to", type=int, default=1 << 20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--grundy", default=os.environ.get("GRUNDY_BIN", str(REPO / "target" / "release" / "grundy"))
    )
    args = parser.parse_args()
    command = [args.grundy, "octal", args.code, "--to", str(args.to), "--online", "--json"]
    if args.threads:
        command += ["--threads", str(args.threads)]

    module_times, command_times = [], []
    for round_ in range(args.rounds):
        start = time.perf_counter()
        game = grundy.octal(args.code, to=args.to, online=True, threads=args.threads)
        module_times.append(time.perf_counter() - start)
        checksum = int(game.values.sum())

        start = time.perf_counter()
        out = subprocess.run(command, capture_output=True, check=True)
        command_times.append(time.perf_counter() - start)
        assert f'"computed_to":{game.computed_to}' in out.stdout.decode()
        print(
            f"round {round_ + 1}: module {module_times[-1]:.3f} s, command {command_times[-1]:.3f} s"
            f" (sum of values {checksum})",
            flush=True,
        )
    m, c = statistics.median(module_times), statistics.median(command_times)
    print(f"medians: module {m:.3f} s, command {c:.3f} s: the module takes {m / c:.3f}x the command's time")


if __name__ == "__main__":
    main()
