"""Heatmaps drawn by matplotlib, with axes and a colour bar
(:meth:`grundy.Heatmap.plot`): the picture of ``save()`` and Jupyter has
the colours alone, each value a square.

matplotlib is not a dependency of grundy: it is imported here, when a plot
is asked for, and its absence is an ``ImportError`` that says what to
install.
"""

from typing import Any, Optional, Sequence, Tuple

Colour = Tuple[float, float, float]


def plot_heatmap(
    values: Any,
    samples: Sequence[Tuple[int, Colour]],
    ax: Optional[Any] = None,
) -> Any:
    """Draws ``values`` (a 2-D array) on ``ax`` (a new figure's axes by
    default). ``samples`` are ``(value, colour)`` pairs, the values
    increasing from 0: each value of the grid gets the colour of the first
    sample at or above it, so 0 alone has the colour of 0 (every value
    when there are few, evenly spaced samples of the scale when there are
    many). Returns the axes."""
    if ax is not None and not hasattr(ax, "imshow"):
        raise TypeError(f"ax must be matplotlib axes, not {type(ax).__name__}")
    try:
        import matplotlib.pyplot as plt
        from matplotlib.colors import BoundaryNorm, ListedColormap
        from matplotlib.ticker import MaxNLocator
    except ImportError as e:
        raise ImportError(
            "Heatmap.plot() draws with matplotlib, which is not installed: "
            "pip install matplotlib (save() and Jupyter's picture need nothing)"
        ) from e
    if ax is None:
        _, ax = plt.subplots()
    cmap = ListedColormap([colour for _, colour in samples], name="grundy")
    boundaries = [-0.5] + [value + 0.5 for value, _ in samples]
    norm = BoundaryNorm(boundaries, cmap.N)
    every_value = all(value == i for i, (value, _) in enumerate(samples))
    image = ax.imshow(values, cmap=cmap, norm=norm, interpolation="nearest")
    bar = ax.figure.colorbar(
        image, ax=ax, spacing="uniform" if every_value else "proportional"
    )
    bar.set_label("Grundy value (0: the player to move loses)")
    if every_value and len(samples) <= 17:
        bar.set_ticks(list(range(len(samples))))
    else:
        bar.locator = MaxNLocator(integer=True)
        bar.update_ticks()
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    return ax
