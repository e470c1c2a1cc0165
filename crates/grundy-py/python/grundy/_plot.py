"""Heatmaps drawn by matplotlib, with axes and a colour bar
(:meth:`grundy.Heatmap.plot`): the picture of ``save()`` and Jupyter has
the colours alone, each value a square.

matplotlib is not a dependency of grundy: it is imported here, when a plot
is asked for, and its absence is an ``ImportError`` that says what to
install.
"""

from typing import Any, Optional, Sequence, Tuple


def plot_heatmap(
    values: Any,
    palette: Sequence[Tuple[float, float, float]],
    largest: int,
    ax: Optional[Any] = None,
) -> Any:
    """Draws ``values`` (a 2-D array) on ``ax`` (a new figure's axes by
    default) with the colours of ``palette``: one colour per value
    ``0..=largest`` when the palette has that many, else samples of a
    continuous scale from 0 to ``largest``. Returns the axes."""
    try:
        import matplotlib.pyplot as plt
        from matplotlib.colors import BoundaryNorm, LinearSegmentedColormap, ListedColormap
    except ImportError as e:
        raise ImportError(
            "Heatmap.plot() draws with matplotlib, which is not installed: "
            "pip install matplotlib (save() and Jupyter's picture need nothing)"
        ) from e
    if ax is None:
        _, ax = plt.subplots()
    if len(palette) == largest + 1:
        cmap = ListedColormap(list(palette), name="grundy")
        norm = BoundaryNorm([v - 0.5 for v in range(largest + 2)], cmap.N)
    else:
        cmap = LinearSegmentedColormap.from_list("grundy", list(palette))
        from matplotlib.colors import Normalize

        norm = Normalize(vmin=0, vmax=largest)
    image = ax.imshow(values, cmap=cmap, norm=norm, interpolation="nearest")
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label("Grundy value (0: the player to move loses)")
    if len(palette) == largest + 1 and largest <= 16:
        bar.set_ticks(list(range(largest + 1)))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    return ax
