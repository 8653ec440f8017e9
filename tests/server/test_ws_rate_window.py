"""The per-socket moving window (server/ws_limits.py) against its definition: a hit is
allowed exactly when fewer than `amount` allowed hits lie within the period before it,
so no period ever holds more than `amount` of them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from limits import parse

from skytotems.server.ws_limits import MovingWindow


@given(
    amount=st.integers(1, 6),
    period=st.sampled_from(["second", "2 seconds", "minute"]),
    gaps=st.lists(st.floats(0, 3, allow_nan=False), max_size=60),
)
@settings(max_examples=200, deadline=None)
def test_a_hit_is_allowed_exactly_when_the_window_has_room(
    amount: int, period: str, gaps: list[float]
) -> None:
    item = parse(f"{amount}/{period}")
    window = MovingWindow(item)
    span = item.get_expiry()
    now, allowed = 1000.0, []
    for gap in gaps:
        now += gap
        room = sum(1 for t in allowed if now - t <= span) < amount
        assert window.hit(now) == room
        if room:
            allowed.append(now)
    for i, start in enumerate(allowed):  # never more than `amount` in any period
        assert sum(1 for t in allowed[i:] if t - start <= span) <= amount


def test_a_full_window_refuses_until_its_oldest_hit_is_a_period_old() -> None:
    window = MovingWindow(parse("3/2 seconds"))
    assert [window.hit(t) for t in (0.0, 0.5, 1.0, 1.5, 2.0, 2.01)] == [
        True, True, True, False, False, True,
    ]  # fmt: skip
