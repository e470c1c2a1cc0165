"""Kayles' period, found and certified, and a picture of it.

Kayles (the octal game 0.77): a row of pins; a player knocks down one pin
or two adjacent pins, which may split the row in two. ``grundy.octal``
computes the Grundy values of rows of every length until the periodicity
theorem certifies a period, then answers any row, however long, through
it.

The picture draws the values a period to a line: once the sequence is
periodic, every column is one colour (losing rows, value 0, in crimson).

Run it:  python examples/kayles_period.py [PICTURE.png]
"""

import sys

import grundy


def main():
    picture = sys.argv[1] if len(sys.argv) > 1 else "kayles.png"
    kayles = grundy.octal("0.77")
    print(kayles.summary(), end="")
    e, p = kayles.preperiod, kayles.period
    print(f"\nG(n) for n >= {e} repeats with period {p}: G(n) = G({e} + (n - {e}) mod {p})")
    print("one period:", kayles.values[e : e + p].tolist())
    n = 10**18 + 7
    print(f"G({n}) = {kayles.value(n)}")

    rows = [7, 12, 10**12]
    hint = kayles.hint(rows)
    print(f"rows of {rows}: {kayles.outcome(rows)}" + (f", {hint}" if hint else ""))

    # The values up to the certificate, a period to a line, the first line
    # starting at heap 0 (the lines below the preperiod are not periodic).
    lines = (kayles.computed_to + 1) // p
    values = kayles.values[: lines * p].reshape(lines, p)
    grundy.heatmap(values, scale=16).save(picture)
    print(f"{picture}: {lines} lines of {p} values (losing rows in crimson)")

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(10, 3))
    ax.plot(kayles.values, drawstyle="steps-mid")
    ax.axvline(e, color="crimson", linestyle="--", label=f"preperiod {e}")
    ax.set_xlabel("pins in the row")
    ax.set_ylabel("Grundy value")
    ax.set_title(f"Kayles: period {p} from {e}, certified")
    ax.legend()
    plot = picture.rsplit(".", 1)[0] + "-plot.png"
    fig.savefig(plot, dpi=100, bbox_inches="tight")
    print(f"{plot}: the values as a line (matplotlib)")


if __name__ == "__main__":
    main()
