"""The totem-site search of the estimate as first written, without recipes or memos:
the reference that tests/bots/test_estimate_memo.py holds `evaluation.anchor_sites`
equal to, to the bit."""

from __future__ import annotations

from skytotems.bots.evaluation import CellState, Site
from skytotems.rules.grid import DOWN, RIGHT
from skytotems.rules.pieces import T_BIRD, T_DRAGON, T_HORSE, T_WOLF


def raise_cost(h: int, per: float, target: int) -> float:
    """Pedestals (in effort) to bring a cell of height `h` to `target`."""
    if h == -2:
        return 1.5 + target  # a returned pedestal for the cloud, then the column
    return (target - h) * per


def anchor_sites(
    c: int,
    kinds: tuple[int, ...],
    here: CellState,
    right: CellState,
    right2: CellState,
    down: CellState,
    down2: CellState,
    left: CellState,
    up: CellState,
) -> tuple[Site, ...]:
    """The sites whose first cell is `c` (lines to the right and down, the bird's
    corners around it), from the states of the cells they use."""
    out: list[Site] = []
    hc, pc = here
    for d, (h1, p1), (h2, p2) in ((RIGHT, right, right2), (DOWN, down, down2)):
        n1 = c + d
        n2 = c + 2 * d
        if h1 == -1:
            continue
        if T_HORSE in kinds and (hc > 0 or h1 > 0):
            for lo_h, lo_p, hi_h, hi_p in ((hc, pc, h1, p1), (h1, p1, hc, pc)):
                base = max(1, lo_h, hi_h - 2)
                for lo in (base, base + 1):
                    need = raise_cost(lo_h, lo_p, lo) + raise_cost(hi_h, hi_p, lo + 2)
                    out.append((T_HORSE, (c, n1), need, 2 * (lo + 2)))
        if h2 == -1:
            continue
        if T_WOLF in kinds and (hc > 0 or h2 > 0):
            gap = max(h1, 0)
            base = max(2, hc, h2, gap)
            for h in (base, base + 1):
                need = raise_cost(hc, pc, h) + raise_cost(h2, p2, h)
                out.append((T_WOLF, (c, n1, n2), need, 3 * h))
        if T_DRAGON in kinds and (hc > 0 or h1 > 0 or h2 > 0):
            for a_h, a_p, b_h, b_p in ((hc, pc, h2, p2), (h2, p2, hc, pc)):
                base = max(1, a_h, h1 - 1, b_h - 2)
                need = (
                    raise_cost(a_h, a_p, base)
                    + raise_cost(h1, p1, base + 1)
                    + raise_cost(b_h, b_p, base + 2)
                )
                out.append((T_DRAGON, (c, n1, n2), need, 3 * (base + 2)))
    if T_BIRD in kinds and hc >= 0:
        for dx, (ha, pa) in ((RIGHT, right), (-RIGHT, left)):
            if ha == -1:
                continue
            for dy, (hb, pb) in ((DOWN, down), (-DOWN, up)):
                if hb == -1 or (hc <= 0 and ha <= 0 and hb <= 0):
                    continue
                base = max(2, hc, ha, hb)
                for h in (base, base + 1):
                    need = raise_cost(hc, pc, h) + raise_cost(ha, pa, h) + raise_cost(hb, pb, h)
                    out.append((T_BIRD, (c, c + dx, c + dy), need, 3 * h))
    return tuple(out)
