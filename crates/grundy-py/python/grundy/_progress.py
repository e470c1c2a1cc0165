"""The progress bar of ``progress=True``: a ``tqdm`` bar fed by the module's
``(done, total)`` reports."""

from __future__ import annotations

from typing import Optional


class _Bar:
    """A callable ``(done, total)`` that moves a ``tqdm`` bar to ``done``."""

    def __init__(self, what: str, unit: str, total: Optional[int]) -> None:
        try:
            from tqdm.auto import tqdm
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ModuleNotFoundError(
                "progress=True draws a tqdm bar, and tqdm is not installed "
                "(pip install tqdm); or pass a callable taking (done, total)"
            ) from e
        self._bar = tqdm(total=total, desc=what, unit=unit, unit_scale=True)
        self._done = 0

    def __call__(self, done: int, total: Optional[int]) -> None:
        if total is not None and self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._done)
        self._done = done

    def close(self) -> None:
        self._bar.close()


def bar(what: str, unit: str, total: Optional[int]) -> _Bar:
    """A ``tqdm`` bar for the work ``what``, counted in ``unit``."""
    return _Bar(what, unit, total)
