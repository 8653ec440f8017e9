"""The progress bar of the long commands (analyse, puzzles): on stderr, so that stdout
keeps only results (and `--json`'s last line), and gone once the work is done."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[int, int], None]


@contextmanager
def progress_bar(unit: str, desc: str, off: bool = False) -> Iterator[Progress]:
    """A `progress(done, total)` callback drawing a tqdm bar (doing nothing when `off`)."""
    if off:
        yield lambda done, total: None
        return
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    bar = tqdm(total=0, unit=unit, desc=desc, file=sys.stderr, leave=False)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        yield progress
    finally:
        bar.close()
