"""Altar notation (docs/notation.md): exact round trips, helpful errors, and a fuzz test."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skytotems import Altar, Game, GameOptions, NotationError, cell, format_altar, parse_altar
from skytotems.rules.pieces import BIRD, BLUE, DESIGN_LETTERS, RED, T_CAT, T_HORSE, T_WOLF
from skytotems.rules.rng import Rng
from skytotems.transcript import pick_action

# Canonical notations (format_altar prints each back unchanged), one feature or more each.
CANONICAL = [
    "0,0 _ _/_ _",  # the bare starting tile
    "0,0 rr _/_ b",  # the module docstring's example
    "0,0 .",  # no cloud at all
    "-3,-2 . _ ./_ ooo ./. _ y",  # negative origin, gaps
    "0,0 ggg _ _/_ _ _/_ _ _/y . .",  # tall rectangle
    "0,0 yy yy/yy _ | bird 0,0 1,0 0,1",
    "0,0 gg . gg | wolf 0,0 1,0 2,0",  # a wolf's gap with no cloud
    "0,0 gg _ gg | wolf 0,0 1,0 2,0",  # ... or an empty cloud
    "0,0 b/bbb | horse 0,0 0,1",
    "0,0 o oo ooo | dragon 0,0 1,0 2,0 | hoard rB",
    "0,0 rrrrrr _/_ _ | cat 0,0",
    "0,0 CCW _/_ _ | hoard W",  # a hoard design on another kind's column
    "0,0 pp p pp/b bbb _ | wolf 0,0 1,0 2,0 | horse 0,1 1,1 | hoard HHrp",
    "10,-7 CWBH yy/_ .",  # every rare letter
]

# Other spellings of the same altars: new lines, extra blanks, a wider box than needed.
EQUIVALENT = [
    ("0,0 rr _\n_ b", "0,0 rr _/_ b"),
    ("   0,0   rr   _ /  _  b  ", "0,0 rr _/_ b"),
    ("0,0 rr _/_ b/", "0,0 rr _/_ b"),
    ("-1,0 . _ _/. _ _", "0,0 _ _/_ _"),
    ("0,0 _ _/_ _/. .", "0,0 _ _/_ _"),
    ("0,0 yy yy/yy _ |bird 0,1 1,0 0,0", "0,0 yy yy/yy _ | bird 0,0 1,0 0,1"),
    ("0,0 b/bbb|horse 0,1 0,0|hoard Br", "0,0 b/bbb | horse 0,0 0,1 | hoard Br"),
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_notation_round_trips(text: str) -> None:
    altar = parse_altar(text)
    assert format_altar(altar) == text
    assert parse_altar(format_altar(altar)) == altar


@pytest.mark.parametrize(("text", "canonical"), EQUIVALENT)
def test_other_spellings_parse_to_the_same_altar(text: str, canonical: str) -> None:
    assert format_altar(parse_altar(text)) == canonical
    assert parse_altar(text) == parse_altar(canonical)


def test_parsing_reads_what_the_text_says() -> None:
    """Cells, stacks (bottom to top), totems with heights, covered cells, hoard order."""
    altar = parse_altar("0,0 pp p pp/b bbb _ | wolf 0,0 1,0 2,0 | horse 0,1 1,1 | hoard HBr")
    assert altar.clouds == {cell(x, y) for x in range(3) for y in range(2)}
    assert altar.stacks[cell(1, 1)] == (BLUE,) * 3
    assert cell(2, 1) not in altar.stacks
    wolf, horse = altar.totems
    assert (wolf.kind, wolf.cells, wolf.height) == (T_WOLF, (0, 1, 2), 2)
    assert (horse.kind, horse.height, horse.points) == (T_HORSE, 3, 6)
    assert altar.covered == {cell(0, 0), cell(1, 0), cell(2, 0), cell(0, 1), cell(1, 1)}
    assert altar.hoard == [9, BIRD, RED]  # horse, bird, red: the order they arrived


def test_a_cat_reads_its_height_from_its_column() -> None:
    altar = parse_altar("0,0 rrrrrrr | cat 0,0")
    assert [(t.kind, t.height, t.points) for t in altar.totems] == [(T_CAT, 7, 7)]


def _altars_of_random_games() -> list[Altar]:
    """Every distinct altar reached in a few seeded games of every shape."""
    seen: dict[str, Altar] = {}
    for players, totems, seed in [
        (1, "beginner", 1),
        (2, "beginner", 2),
        (3, "dragon", 3),
        (4, "dragon", 4),
        (4, "random-four", 5),
        (2, "bird,wolf,horse,dragon", 6),
    ]:
        game = Game(GameOptions(players=players, totems=totems), seed)
        rng = Rng(seed)
        while not game.is_over:
            game.apply(pick_action(game, rng))
            for altar in game.altars:
                seen.setdefault(format_altar(altar), altar.copy())
    return list(seen.values())


def test_every_altar_of_random_games_round_trips() -> None:
    """Format → parse gives back the same altar (hoard order too) and the same text."""
    altars = _altars_of_random_games()
    assert len(altars) > 500
    assert any(a.totems for a in altars) and any(a.hoard for a in altars)
    for altar in altars:
        text = format_altar(altar)
        parsed = parse_altar(text)
        assert parsed == altar, text
        assert parsed.hoard == altar.hoard, text
        assert format_altar(parsed) == text


MALFORMED = [
    ("", "empty altar notation"),
    ("   \n ", "empty altar notation"),
    ("0,0 rx _/_ _", "cell 0,0: unknown design letter 'x'"),
    ("0,0 _ _/_ R", "cell 1,1: unknown design letter 'R'"),
    ("0,0 _ _/_", "row 2 has 1 cells, the first row has 2"),
    ("0,0 _/_ _ _", "row 2 has 3 cells, the first row has 1"),
    ("0,0 rr rr/rr _ | unicorn 0,0", "unknown totem kind 'unicorn'"),
    ("0,0 b/bbb | horse 0,0", "a horse covers 2 different cells, got 1"),
    ("0,0 b/bbb | horse 0,0 0,0", "a horse covers 2 different cells"),
    ("0,0 yy yy/yy _ | bird 0,0 1,0", "a bird covers 3 different cells, got 2"),
    ("a,b _ _", "expected coordinates 'x,y', got 'a,b'"),
    ("0,0,0 _", "expected coordinates 'x,y', got '0,0,0'"),
    ("0 _", "expected coordinates 'x,y', got '0'"),
    ("0,0 b/bbb | horse 0,0 0;1", "expected coordinates 'x,y', got '0;1'"),
    ("5000,0 _", "outside the supported altar range"),
    ("0,0 b/bbb | horse 0,0 0,-9999", "outside the supported altar range"),
    ("0,0", "no rows after the origin"),
    ("0,0 _ | | hoard r", "empty section between '|'"),
    ("0,0 _ |", "empty section between '|'"),
    ("0,0 _ | hoard", "as one word"),
    ("0,0 _ | hoard r B", "as one word"),
    ("0,0 _ | hoard rX", "hoard: unknown design letter 'X'"),
    ("0,0 rrrrrr | cat 0,0 | cat 0,0", "cell 0,0 is already covered"),
    ("0,0 _ _ | horse 0,0 1,0", "stands on no column"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED, ids=[m for _, m in MALFORMED])
def test_malformed_notation_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_altar(text)
    assert message in str(caught.value)


def test_design_letter_errors_list_the_valid_letters() -> None:
    with pytest.raises(NotationError) as caught:
        parse_altar("0,0 q")
    assert all(letter in str(caught.value) for letter in DESIGN_LETTERS)


@pytest.mark.parametrize("text", ["2047,0 _ _", "0,2047 _/_", "0,2046 _/_/_"])
def test_rows_beyond_the_grid_range_raise_notation_error(text: str) -> None:
    """The origin is in range but a later cell of the grid is not."""
    try:
        parse_altar(text)
    except NotationError:
        return
    except ValueError as exc:
        raise AssertionError(f"{type(exc).__name__} instead of NotationError: {exc}") from None
    raise AssertionError("parsed a cell outside the supported range")  # pragma: no cover


# ------------------------------------------------------------------------------ fuzzing

NOTATION_ALPHABET = "0123456789,-. _/|\nroygbpCWBHxhoardbirdwolfhorsedragoncat"

_tokens = st.sampled_from([".", "_", "r", "rr", "rr", "bbb", "CW", "rrrrrr", "x", ""])
_coords = st.tuples(st.integers(-60, 60), st.integers(-60, 60)).map(lambda p: f"{p[0]},{p[1]}")
_origins = st.one_of(st.sampled_from(["0,0", "-1,0", "0,-1", "-1,-1"]), _coords)
_ragged_rows = st.lists(
    st.lists(_tokens, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=4
).map("/".join)
_even_rows = st.integers(1, 4).flatmap(
    lambda width: st.lists(
        st.lists(_tokens, min_size=width, max_size=width).map(" ".join), min_size=1, max_size=4
    ).map("/".join)
)
_valid_sections = st.sampled_from(
    [
        "cat 0,0",
        "horse 0,0 1,0",
        "horse 0,0 0,1",
        "bird 0,0 1,0 0,1",
        "wolf 0,0 1,0 2,0",
        "dragon 0,0 0,1 0,2",
        "hoard rB",
    ]
)
_odd_sections = st.tuples(
    st.sampled_from(["bird", "wolf", "horse", "dragon", "cat", "hoard", "yeti"]),
    st.lists(
        st.sampled_from(["0,0", "1,0", "0,1", "1,1", "2,0", "0,2", "rB", "9"]),
        min_size=1,
        max_size=3,
    ),
).map(lambda t: " ".join([t[0], *t[1]]))
_sections = st.lists(
    st.one_of(
        _valid_sections, _valid_sections, _odd_sections, st.text(NOTATION_ALPHABET, max_size=12)
    ),
    max_size=2,
)
near_valid = st.builds(
    lambda origin, rows, sections: " | ".join([f"{origin} {rows}", *sections]),
    _origins,
    st.one_of(_even_rows, _ragged_rows),
    _sections,
)


def _parse_or_notation_error(text: str) -> Altar | None:
    """Parse `text`; None for a NotationError; any other exception fails the test."""
    try:
        return parse_altar(text)
    except NotationError:
        return None


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.text(NOTATION_ALPHABET, max_size=40)))
def test_parsing_arbitrary_text_raises_only_notation_error(text: str) -> None:
    _parse_or_notation_error(text)


@settings(max_examples=300, deadline=None)
@given(near_valid)
def test_parsing_near_valid_text_raises_only_notation_error_or_round_trips(text: str) -> None:
    """Whatever parses prints canonically and reads back as the same altar."""
    altar = _parse_or_notation_error(text)
    if altar is not None:
        canonical = format_altar(altar)
        assert parse_altar(canonical) == altar
        assert format_altar(parse_altar(canonical)) == canonical
