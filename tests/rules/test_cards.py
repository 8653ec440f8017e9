"""The altar deck as data (RULES.md §1, §4, §7, §9): file, schema, loader and missions."""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from skytotems import cell
from skytotems.rules.altar import Altar, PlacedTotem
from skytotems.rules.cards import (
    Card,
    Deck,
    StartLayout,
    default_deck,
    load_deck,
    parse_deck,
)
from skytotems.rules.errors import DeckError
from skytotems.rules.mission_types import MISSION_TYPES
from skytotems.rules.missions import Mission
from skytotems.rules.pieces import (
    BLUE,
    DESIGN_BY_LETTER,
    GREEN,
    RED,
    T_BIRD,
    T_CAT,
    T_DRAGON,
    T_HORSE,
    T_WOLF,
    TOTEM_KINDS,
    WOLF,
)

DATA = files("skytotems.rules") / "data"

# --- helpers ----------------------------------------------------------------------------


def altar_of(
    columns: Mapping[tuple[int, int], str] | None = None,
    *,
    clouds: Iterable[tuple[int, int]] = (),
    totems: Iterable[tuple[int, Iterable[tuple[int, int]], int]] = (),
    hoard: str = "",
) -> Altar:
    """An altar from design letters (r o y g b p, C W B H), e.g. {(0, 0): "rrW"}.

    Each column's cell gets a cloud; the 2×2 start tile is always there.
    """
    altar = Altar()
    for (x, y), letters in (columns or {}).items():
        c = cell(x, y)
        altar.add_cloud(c)
        for letter in letters:
            altar.add_pedestal(DESIGN_BY_LETTER[letter], c)
    for x, y in clouds:
        altar.add_cloud(cell(x, y))
    for kind, cells, height in totems:
        altar.add_totem(PlacedTotem(kind, tuple(sorted(cell(x, y) for x, y in cells)), height))
    for letter in hoard:
        altar.add_hoard(DESIGN_BY_LETTER[letter])
    return altar


def row(y: int, *stacks: str, x0: int = 0) -> dict[tuple[int, int], str]:
    """Columns along row `y` from x0 (empty strings leave a cell without a column)."""
    return {(x0 + i, y): s for i, s in enumerate(stacks) if s}


def deck_json() -> dict[str, Any]:
    """A fresh, mutable copy of the packaged deck's JSON."""
    return copy.deepcopy(default_deck().to_json())


def card_json(data: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in data["cards"] if c["id"] == card_id)


# --- the packaged deck -------------------------------------------------------------------

# The RULES.md §9 table: id, name, tag, points, mission (wire form), start, cloud icon.
TABLE: list[tuple[str, str, str | None, int, dict[str, object], str, bool]] = [
    ("bird-god", "God of Birds", "bird", 6,
     {"type": "totem_over_rare_column", "kind": "bird"}, "0,0 red red; 1,1 blue", False),
    ("bird-flock", "Flock", "bird", 8,
     {"type": "totem_count", "kind": "bird", "min": 2}, "0,0 yellow; 1,0 yellow; 0,1 green", False),
    ("wolf-god", "God of Wolves", "wolf", 6,
     {"type": "totem_over_rare_column", "kind": "wolf"}, "0,0 green green; 1,0 orange", False),
    ("wolf-pack", "Pack", "wolf", 8,
     {"type": "totem_count", "kind": "wolf", "min": 2}, "0,0 purple; 1,1 purple", True),
    ("horse-god", "God of Horses", "horse", 4,
     {"type": "totem_over_rare_column", "kind": "horse"}, "0,0 blue blue blue", False),
    ("horse-herd", "Herd", "horse", 6,
     {"type": "totem_count", "kind": "horse", "min": 2}, "0,0 red; 1,0 orange; 0,1 yellow", False),
    ("cat-god", "Cat God", "cat", 8,
     {"type": "totem_over_rare_column", "kind": "cat"}, "0,0 cat", False),
    ("cat-pair", "Two Cats", "cat", 8,
     {"type": "totem_count", "kind": "cat", "min": 2}, "0,0 green green green", False),
    ("dragon-god", "Dragon God", "dragon", 6,
     {"type": "totem_over_rare_column", "kind": "dragon"}, "0,0 orange; 1,0 orange orange", False),
    ("dragon-pair", "Twin Dragons", "dragon", 8,
     {"type": "totem_count", "kind": "dragon", "min": 2}, "0,0 yellow yellow; 0,1 blue", False),
    ("four-winds", "Four Winds", None, 4,
     {"type": "rare_designs", "min": 4, "include_hoard": True}, "0,0 red; 1,1 green", True),
    ("rainbow", "Rainbow", None, 4,
     {"type": "column_kinds",
      "designs": ["red", "orange", "yellow", "green", "blue", "purple"]},
     "0,0 blue; 1,0 purple; 0,1 red", False),
    ("skyline", "Skyline", None, 4,
     {"type": "tall_columns", "count": 4, "height": 3}, "0,0 yellow; 1,0 green; 1,1 orange", False),
    ("high-place", "High Place", None, 2,
     {"type": "tall_columns", "count": 1, "height": 5}, "0,0 purple purple; 1,0 blue", False),
    ("twin-peaks", "Twin Peaks", None, 4,
     {"type": "same_kind_tall_columns", "count": 2, "height": 4}, "0,0 red red; 1,1 red", False),
    ("wide-clouds", "Wide Clouds", None, 2,
     {"type": "cloud_cells", "min": 12}, "0,0 orange; 0,1 purple", True),
    ("sea-of-clouds", "Sea of Clouds", None, 4,
     {"type": "cloud_cells", "min": 16}, "1,0 green; 0,1 yellow", True),
    ("menagerie", "Menagerie", None, 6,
     {"type": "totem_kinds", "min": 3}, "0,0 blue; 1,0 blue; 1,1 yellow", False),
    ("pantheon", "Pantheon", None, 8,
     {"type": "totem_kinds", "min": 4}, "0,0 orange orange; 1,1 purple", False),
    ("collector", "Rare Collector", None, 6,
     {"type": "rare_pedestals", "min": 6, "include_hoard": True}, "0,0 bird", True),
    ("plaza", "Plaza", None, 6,
     {"type": "equal_square", "size": 2, "min_height": 2}, "0,0 green; 1,0 red; 0,1 red", False),
    ("staircase", "Grand Staircase", None, 6,
     {"type": "staircase", "length": 4, "min_start": 1}, "0,0 yellow; 1,0 yellow yellow", False),
    ("courtyard", "Courtyard", None, 2,
     {"type": "courtyard"}, "0,0 purple; 1,0 green; 0,1 blue", False),
    ("monument", "Monument", None, 6,
     {"type": "all_rare_column", "height": 4}, "0,0 wolf", False),
]  # fmt: skip


def test_packaged_deck_has_24_cards_two_per_totem() -> None:
    """RULES.md §1, §9: 24 cards, two per totem kind, points 2/4/6/8, unique ids."""
    deck = default_deck()
    assert len(deck.cards) == 24
    assert len({c.id for c in deck.cards}) == 24
    tags = Counter(c.tag for c in deck.cards)
    assert {kind: tags[kind] for kind in TOTEM_KINDS} == {kind: 2 for kind in TOTEM_KINDS}
    assert tags[None] == 24 - 2 * len(TOTEM_KINDS)
    assert {c.points for c in deck.cards} <= {2, 4, 6, 8}
    assert default_deck() is deck  # cached


@pytest.mark.parametrize("expected", TABLE, ids=[r[0] for r in TABLE])
def test_packaged_deck_matches_rules_table(expected: tuple[Any, ...]) -> None:
    """RULES.md §9: every card has the id, name, tag, mission, points and start of the table."""
    card_id, name, tag, points, mission, start, cloud = expected
    columns = []
    for part in start.split("; "):
        where, *stack = part.split()
        x, y = (int(v) for v in where.split(","))
        columns.append({"cell": [x, y], "stack": stack})
    want = {
        "id": card_id,
        "name": name,
        "tag": tag,
        "points": points,
        "mission": mission,
        "start": {"columns": columns, "cloud": cloud},
    }
    assert default_deck().card(card_id).to_json() == want


def test_packaged_deck_order_is_the_table_order() -> None:
    """RULES.md §9: the file lists the cards in the order of the table."""
    assert [c.id for c in default_deck().cards] == [r[0] for r in TABLE]


def test_packaged_cards_as_engine_values() -> None:
    """RULES.md §9: spot checks of cards in their int form (what the engine reads)."""
    deck = default_deck()
    bird_god = deck.card("bird-god")
    assert bird_god == Card(
        id="bird-god",
        name="God of Birds",
        tag=T_BIRD,
        points=6,
        mission=Mission.of("totem_over_rare_column", kind=T_BIRD),
        start=StartLayout(((cell(0, 0), (RED, RED)), (cell(1, 1), (BLUE,))), cloud=False),
    )
    pack = deck.card("wolf-pack")
    assert (pack.tag, pack.points, pack.start.cloud) == (T_WOLF, 8, True)
    assert pack.mission == Mission("totem_count", (("min", 2), ("kind", T_WOLF)))
    assert pack.mission.describe() == "2 or more wolf totems"
    monument = deck.card("monument")
    assert monument.tag is None
    assert monument.start == StartLayout(((cell(0, 0), (WOLF,)),), cloud=False)
    assert monument.mission.param("height") == 4
    plaza = deck.card("plaza")
    assert plaza.start.columns == ((0, (GREEN,)), (1, (RED,)), (cell(0, 1), (RED,)))


def test_deck_file_is_the_canonical_json() -> None:
    """RULES.md §9: the data file holds exactly what the deck writes back (no lost field)."""
    on_disk = json.loads((DATA / "deck.json").read_text(encoding="utf-8"))
    assert default_deck().to_json() == on_disk


def test_deck_file_validates_against_schema() -> None:
    """RULES.md §9: deck.json follows deck.schema.json (JSON Schema draft 2020-12)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "deck.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    data = json.loads((DATA / "deck.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def test_schema_missions_match_the_registry() -> None:
    """RULES.md §9: the schema's mission oneOf lists exactly the registered predicates,
    each with the loader's parameters and integer ranges."""
    schema = json.loads((DATA / "deck.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    listed = [ref["$ref"].rsplit("/", 1)[1] for ref in defs["mission"]["oneOf"]]
    assert listed == [f"mission_{name}" for name in MISSION_TYPES]
    for name, spec in MISSION_TYPES.items():
        entry = defs[f"mission_{name}"]
        assert entry["properties"]["type"] == {"const": name}
        assert set(entry["required"]) == {"type", *(p.name for p in spec.params)}
        assert set(entry["properties"]) == {"type", *(p.name for p in spec.params)}
        for p in spec.params:
            prop = entry["properties"][p.name]
            if p.kind == "int":
                assert prop["minimum"] == p.low, (name, p.name)
                assert prop.get("maximum") == p.high, (name, p.name)


def test_round_trip_json() -> None:
    """RULES.md §9: Deck.from_json(d.to_json()) == d, also through JSON text and pickle."""
    deck = default_deck()
    assert Deck.from_json(deck.to_json()) == deck
    assert parse_deck(json.dumps(deck.to_json())) == deck
    assert hash(Deck.from_json(deck.to_json())) == hash(deck)
    assert pickle.loads(pickle.dumps(deck)) == deck
    clone = copy.deepcopy(deck)
    assert clone == deck and clone.card("rainbow").mission.met(Altar()) is False


@pytest.mark.parametrize("unused", TOTEM_KINDS)
def test_for_totems_removes_the_two_cards_of_the_unused_kind(unused: int) -> None:
    """RULES.md §1, §4: the two cards tagged with the totem not in play leave the deck."""
    deck = default_deck()
    in_play = [k for k in TOTEM_KINDS if k != unused]
    kept = deck.for_totems(in_play)
    removed = [c for c in deck.cards if c not in kept]
    assert len(kept) == 22
    assert len(removed) == 2 and all(c.tag == unused for c in removed)
    assert kept == [c for c in deck.cards if c.tag != unused]  # order kept


def test_for_totems_beginner_set() -> None:
    """RULES.md §4, §10: the beginner set (no dragon) drops dragon-god and dragon-pair."""
    deck = default_deck()
    kept = {c.id for c in deck.for_totems(iter([T_BIRD, T_WOLF, T_HORSE, T_CAT]))}
    assert {c.id for c in deck.cards} - kept == {"dragon-god", "dragon-pair"}


def test_card_lookup_unknown_id_is_a_clear_key_error() -> None:
    """RULES.md §9: asking for a card that is not in the deck names the id."""
    with pytest.raises(KeyError, match="no card with id 'phoenix' in deck 'reconstructed'"):
        default_deck().card("phoenix")


# --- mission values -----------------------------------------------------------------------


def test_mission_params_are_sorted_and_hashable() -> None:
    """RULES.md §9: missions are small hashable values, equal whatever the parameter order."""
    a = Mission("staircase", (("min_start", 1), ("length", 4)))
    b = Mission.of("staircase", length=4, min_start=1)
    assert a == b and hash(a) == hash(b)
    assert a.params == (("length", 4), ("min_start", 1))
    rainbow = Mission.of("column_kinds", designs=[RED, BLUE])
    assert rainbow.params == (("designs", (RED, BLUE)),)
    assert hash(rainbow) == hash(Mission.of("column_kinds", designs=(RED, BLUE)))
    assert pickle.loads(pickle.dumps(a)) == a


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Mission("fly"), r"mission.type: unknown mission type 'fly'"),
        (lambda: Mission.of("totem_count", kind=T_WOLF), r"missing parameter 'min'"),
        (lambda: Mission.of("courtyard", size=2), r"unexpected parameter 'size'"),
        (lambda: Mission.of("totem_count", kind=9, min=2), r"mission.kind: must be a totem kind"),
        (lambda: Mission.of("cloud_cells", min=True), r"mission.min: must be an integer"),
        (lambda: Mission.of("totem_kinds", min=6), r"mission.min: must be an integer 1…5"),
        (
            lambda: StartLayout(((cell(2, 0), (RED,)),)),
            r"start.columns\[0\].cell: \(2,0\) is outside",
        ),
        (lambda: StartLayout(((0, ()),)), r"start.columns\[0\].stack: must be a non-empty list"),
    ],
)
def test_values_refuse_invalid_construction(make: Callable[[], object], message: str) -> None:
    """RULES.md §9: a Mission or StartLayout built in code is checked like a loaded one."""
    with pytest.raises(DeckError, match=message):
        make()


def test_every_mission_type_describes_itself_in_english() -> None:
    """RULES.md §9: each predicate of the packaged deck has a readable sentence."""
    texts = {c.id: c.mission.describe() for c in default_deck().cards}
    assert texts["bird-god"] == "a bird totem over at least one rare column"
    assert texts["high-place"] == "a column of height 5 or more"
    assert texts["skyline"] == "4 or more columns of height 3 or more"
    assert texts["plaza"] == "a 2×2 square of columns of equal height, at least 2"
    assert texts["rainbow"] == "columns of all 6 common kinds"
    assert all(t and (t[0].islower() or t[0].isdigit()) for t in texts.values())
    assert {c.mission.type for c in default_deck().cards} == set(MISSION_TYPES)


# --- mission predicates ------------------------------------------------------------------


def met(mission: Mission | str, altar: Altar) -> bool:
    """A packaged card's mission (by card id) or a given mission, on `altar`."""
    if isinstance(mission, str):
        mission = default_deck().card(mission).mission
    return mission.met(altar)


# A bird L over (0,0) (1,0) (0,1): the corner (0,0) and one neighbour in each direction.
BIRD_L = [(0, 0), (1, 0), (0, 1)]


def test_totem_over_rare_column() -> None:
    """RULES.md §9: a bird standing on a column whose bottom design is rare."""
    rare = altar_of({(0, 0): "BB", (1, 0): "rr", (0, 1): "gg"}, totems=[(T_BIRD, BIRD_L, 2)])
    assert met("bird-god", rare)
    common = altar_of({(0, 0): "rB", (1, 0): "rr", (0, 1): "gg"}, totems=[(T_BIRD, BIRD_L, 2)])
    assert not met("bird-god", common), "a rare pedestal on top does not make a rare column"
    assert not met("horse-god", rare), "another kind's card"
    uncovered = altar_of({(0, 0): "BB", (1, 0): "rr", (0, 1): "gg"})
    assert not met("bird-god", uncovered)


def test_wolf_gap_is_not_over() -> None:
    """RULES.md §9: a wolf is over its two legs only; a rare column in its gap does not count."""
    wolf = [(0, 0), (1, 0), (2, 0)]
    gap_rare = altar_of(row(0, "rr", "W", "gg"), totems=[(T_WOLF, wolf, 2)])
    assert not met("wolf-god", gap_rare)
    leg_rare = altar_of(row(0, "WW", "r", "gg"), totems=[(T_WOLF, wolf, 2)])
    assert met("wolf-god", leg_rare)


def test_cat_god_needs_the_cat_on_a_rare_column() -> None:
    """RULES.md §9: the cat covers one cell; that column's kind must be rare."""
    on_rare = altar_of({(0, 0): "CCCCCC"}, totems=[(T_CAT, [(0, 0)], 6)])
    on_common = altar_of({(0, 0): "rrrrrC"}, totems=[(T_CAT, [(0, 0)], 6)])
    assert met("cat-god", on_rare)
    assert not met("cat-god", on_common)


def test_totem_count() -> None:
    """RULES.md §9: 2+ wolf totems; other kinds do not count."""
    one = altar_of(totems=[(T_WOLF, [(0, 0), (1, 0), (2, 0)], 2)])
    two = altar_of(totems=[(T_WOLF, [(0, 0), (1, 0), (2, 0)], 2), (T_WOLF, [(0, 1)], 2)])
    mixed = altar_of(totems=[(T_WOLF, [(0, 0)], 2), (T_BIRD, [(0, 1)], 2)])
    assert not met("wolf-pack", one)
    assert met("wolf-pack", two)
    assert not met("wolf-pack", mixed)
    assert met("dragon-pair", altar_of(totems=[(T_DRAGON, [(0, 0)], 3)] * 2))


def test_rare_designs_with_and_without_hoard() -> None:
    """RULES.md §9: four rare designs in any position of any stack, hoard counted if asked."""
    on_altar = altar_of({(0, 0): "rC", (1, 0): "W", (0, 1): "Br", (1, 1): "gH"})
    assert met("four-winds", on_altar), "rare pedestals count in any position"
    three = altar_of({(0, 0): "rC", (1, 0): "W", (0, 1): "BB"})
    assert not met("four-winds", three)
    with_hoard = altar_of({(0, 0): "rC", (1, 0): "W", (0, 1): "BB"}, hoard="H")
    assert met("four-winds", with_hoard)
    assert not met(Mission.of("rare_designs", min=4, include_hoard=False), with_hoard)


def test_column_kinds_use_bottom_designs() -> None:
    """RULES.md §9: columns whose kinds (bottom designs) cover all 6 commons."""
    all_six = altar_of(row(0, "r", "o", "y") | row(1, "g", "b", "pp"))
    assert met("rainbow", all_six)
    purple_on_top = altar_of(row(0, "r", "o", "y") | row(1, "g", "b", "rp"))
    assert not met("rainbow", purple_on_top)


def test_tall_columns_count_covered_columns() -> None:
    """RULES.md §9: skyline 4 columns ≥ 3, with or without a totem on them."""
    four = altar_of(row(0, "rrr", "ooo", "yyyy", "ggg"), totems=[(T_CAT, [(2, 0)], 4)])
    assert met("skyline", four)
    short = altar_of(row(0, "rrr", "ooo", "yyyy", "gg"))
    assert not met("skyline", short)


def test_high_place() -> None:
    """RULES.md §9: a column of height ≥ 5."""
    assert met("high-place", altar_of({(0, 0): "bbbbb"}))
    assert not met("high-place", altar_of({(0, 0): "bbbb", (1, 0): "bbbb"}))


def test_same_kind_tall_columns() -> None:
    """RULES.md §9: twin peaks need two columns ≥ 4 of one kind (bottom design)."""
    assert met("twin-peaks", altar_of(row(0, "rrrr", "", "rbbb")))
    assert not met("twin-peaks", altar_of(row(0, "rrrr", "bbbb")))
    assert not met("twin-peaks", altar_of(row(0, "rrrr", "rrr")))


def test_cloud_cells() -> None:
    """RULES.md §9: 12+ cloud cells, built on or not."""
    eleven = altar_of(clouds=[(x, 2) for x in range(7)])  # 4 + 7
    assert len(eleven.clouds) == 11 and not met("wide-clouds", eleven)
    eleven.add_cloud(cell(0, 3))
    assert met("wide-clouds", eleven)
    assert not met("sea-of-clouds", eleven)


def test_totem_kinds() -> None:
    """RULES.md §9: totems of 3 (menagerie) and 4 (pantheon) different kinds."""
    three = altar_of(totems=[(T_BIRD, [(0, 0)], 2), (T_WOLF, [(1, 0)], 2), (T_HORSE, [(0, 1)], 3)])
    assert met("menagerie", three) and not met("pantheon", three)
    repeats = altar_of(totems=[(T_BIRD, [(0, 0)], 2), (T_BIRD, [(1, 0)], 2), (T_WOLF, [(0, 1)], 2)])
    assert not met("menagerie", repeats)
    three.add_totem(PlacedTotem(T_CAT, (cell(1, 1),), 6))
    assert met("pantheon", three)


def test_rare_pedestals_with_and_without_hoard() -> None:
    """RULES.md §9: 6+ rare pedestals on the altar, the hoard counted when the card says so."""
    five = altar_of({(0, 0): "BBB", (1, 0): "rW", (0, 1): "gC"})
    assert not met("collector", five)
    five.add_hoard(WOLF)
    assert met("collector", five)
    assert not met(Mission.of("rare_pedestals", min=6, include_hoard=False), five)


def test_equal_square() -> None:
    """RULES.md §9: plaza, a 2×2 square of columns of one height ≥ 2."""
    square = row(0, "rr", "oo") | row(1, "yy", "gg")
    assert met("plaza", altar_of(square))
    assert not met("plaza", altar_of(square | {(1, 1): "ggg"})), "heights differ"
    low = row(0, "r", "o") | row(1, "y", "g")
    assert not met("plaza", altar_of(low)), "height 1 is below the minimum"
    assert not met("plaza", altar_of(row(0, "rr", "oo") | row(1, "yy"))), "an L is no square"
    apart = row(0, "rr", "oo") | row(1, "yy", x0=5) | row(1, "gg", x0=6)
    assert not met("plaza", altar_of(apart))


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        (row(0, "r", "oo", "yyy", "gggg"), True),
        (row(0, "gggg", "yyy", "oo", "r"), True),  # read in the other direction
        ({(0, y): "r" * (y + 1) for y in range(4)}, True),  # vertical
        ({(3, 3 - y): "r" * (y + 1) for y in range(4)}, True),  # vertical, upward
        ({(i, i): "r" * (i + 1) for i in range(4)}, False),  # diagonal is never a line
        ({(0, 0): "r", (1, 0): "rr", (1, 1): "rrr", (1, 2): "rrrr"}, False),  # bent
        (row(0, "r", "oo", "", "yyy", "gggg"), False),  # a gap
        (row(0, "r", "oo", "oo", "yyy", "gggg"), False),  # a plateau
        (row(0, "r", "oo", "yyy"), False),  # too short
        (row(0, "rr", "ooo", "yyyy", "ggggg"), True),  # h = 2 is fine (h ≥ 1)
    ],
)
def test_staircase(columns: dict[tuple[int, int], str], expected: bool) -> None:
    """RULES.md §2, §9: 4 columns in a straight line, heights h..h+3 in order, h ≥ 1."""
    assert met("staircase", altar_of(columns)) is expected


def test_staircase_min_start() -> None:
    """RULES.md §9: the lowest step must reach `min_start`."""
    stairs = altar_of(row(0, "r", "oo", "yyy", "gggg"))
    assert not met(Mission.of("staircase", length=4, min_start=2), stairs)
    assert met(Mission.of("staircase", length=3, min_start=2), stairs)


PLUS = {(1, 0): "r", (0, 1): "o", (2, 1): "y", (1, 2): "g"}  # around the empty cloud (1,1)


def test_courtyard() -> None:
    """RULES.md §9: an empty uncovered cloud cell with a column on all four sides."""
    assert met("courtyard", altar_of(PLUS))
    assert not met("courtyard", altar_of(PLUS | {(1, 1): "b"})), "the centre holds a column"
    missing = {k: v for k, v in PLUS.items() if k != (1, 2)}
    assert not met("courtyard", altar_of(missing, clouds=[(1, 2)]))


def test_courtyard_covered_centre_does_not_count() -> None:
    """RULES.md §2, §9: a wolf's gap covers the empty centre, so it is no courtyard."""
    wolf = [(0, 1), (1, 1), (2, 1)]
    covered = altar_of(PLUS | {(0, 1): "oo", (2, 1): "yy"}, totems=[(T_WOLF, wolf, 2)])
    assert cell(1, 1) in covered.covered
    assert not met("courtyard", covered)


def test_courtyard_neighbours_may_carry_totems() -> None:
    """RULES.md §9: missions count columns with or without totems."""
    altar = altar_of(PLUS | {(0, 1): "ooo", (0, 2): "o"}, totems=[(T_HORSE, [(0, 1), (0, 2)], 3)])
    assert met("courtyard", altar)


def test_courtyard_needs_a_cloud_in_the_centre() -> None:
    """RULES.md §2, §9: a cell with no cloud is not an empty cloud cell."""
    around = {(x + 5, y + 5): s for (x, y), s in PLUS.items()}
    altar = altar_of(around)
    assert cell(6, 6) not in altar.clouds
    assert not met("courtyard", altar)
    altar.add_cloud(cell(6, 6))
    assert met("courtyard", altar)


def test_all_rare_column() -> None:
    """RULES.md §9: monument, a column of 4+ pedestals that are all rare."""
    assert met("monument", altar_of({(0, 0): "WCBH"}))
    assert not met("monument", altar_of({(0, 0): "WWW"}))
    assert not met("monument", altar_of({(0, 0): "WWWr"})), "a common pedestal on top"
    assert not met("monument", altar_of({(0, 0): "rWWWW"})), "a common pedestal at the bottom"


# --- the loader refuses malformed decks ----------------------------------------------------

Mutate = Callable[[dict[str, Any]], object]

BAD_DECKS: list[tuple[str, Mutate, str, bool]] = [
    # (case, mutation, expected message, schema can see it too)
    ("format", lambda d: d.update(format="chess"), r"deck: format must be 'skytotems-deck'", True),
    ("version", lambda d: d.update(version=2), r"deck: unsupported version 2", True),
    ("version-str", lambda d: d.update(version="1"), r"deck: unsupported version '1'", True),
    ("no-cards", lambda d: d.pop("cards"), r"deck: missing field 'cards'", True),
    ("extra-top", lambda d: d.update(extra=1), r"deck: unexpected field 'extra'", True),
    ("empty-cards", lambda d: d.update(cards=[]), r"deck: cards must be a non-empty list", True),
    ("deck-name", lambda d: d.update(name=""), r"deck: name must be a non-empty string", True),
    (
        "card-not-object",
        lambda d: d["cards"].__setitem__(3, "wolf-pack"),
        r"card at index 3: must be a JSON object",
        True,
    ),
    (
        "missing-points",
        lambda d: d["cards"][0].pop("points"),
        r"card 'bird-god' \(index 0\): missing field 'points'",
        True,
    ),
    (
        "extra-card-field",
        lambda d: d["cards"][0].update(colour="gold"),
        r"card 'bird-god' \(index 0\): unexpected field 'colour'",
        True,
    ),
    (
        "duplicate-id",
        lambda d: d["cards"][1].update(id="bird-god"),
        r"card 'bird-god' \(index 1\): duplicate id, already used by the card at index 0",
        False,
    ),
    (
        "bad-id",
        lambda d: d["cards"][2].update(id="Wolf God"),
        r"index 2\): id: must be lower",
        True,
    ),
    (
        "id-type",
        lambda d: d["cards"][2].update(id=7),
        r"card at index 2: id: must be a string",
        True,
    ),
    (
        "card-name",
        lambda d: d["cards"][2].update(name=""),
        r"'wolf-god'.*name: must be a non",
        True,
    ),
    (
        "unknown-design",
        lambda d: d["cards"][0]["start"]["columns"][0]["stack"].__setitem__(1, "pink"),
        r"card 'bird-god' \(index 0\): start.columns\[0\].stack\[1\]: unknown pedestal design "
        r"'pink'",
        True,
    ),
    (
        "unknown-tag",
        lambda d: d["cards"][0].update(tag="phoenix"),
        r"card 'bird-god' \(index 0\): tag: unknown totem kind 'phoenix'",
        True,
    ),
    (
        "unknown-type",
        lambda d: card_json(d, "skyline")["mission"].update(type="skyscraper"),
        r"card 'skyline' \(index 12\): mission.type: unknown mission type 'skyscraper'",
        True,
    ),
    (
        "no-type",
        lambda d: card_json(d, "skyline")["mission"].pop("type"),
        r"card 'skyline'.*mission: missing field 'type'",
        True,
    ),
    (
        "missing-param",
        lambda d: card_json(d, "wolf-pack")["mission"].pop("min"),
        r"card 'wolf-pack' \(index 3\): mission: missing field 'min'",
        True,
    ),
    (
        "extra-param",
        lambda d: card_json(d, "wolf-pack")["mission"].update(max=3),
        r"card 'wolf-pack' \(index 3\): mission: unexpected field 'max'",
        True,
    ),
    (
        "param-type",
        lambda d: card_json(d, "wolf-pack")["mission"].update(min="2"),
        r"card 'wolf-pack'.*mission.min: must be an integer, got '2'",
        True,
    ),
    (
        "param-float",
        lambda d: card_json(d, "skyline")["mission"].update(height=2.5),
        r"card 'skyline'.*mission.height: must be an integer, got 2.5",
        True,
    ),
    (
        "param-range",
        lambda d: card_json(d, "wide-clouds")["mission"].update(min=0),
        r"card 'wide-clouds'.*mission.min: must be an integer ≥ 1, got 0",
        True,
    ),
    (
        "param-max",
        lambda d: card_json(d, "four-winds")["mission"].update(min=5),
        r"card 'four-winds'.*mission.min: must be an integer 1…4, got 5",
        True,
    ),
    (
        "param-bool",
        lambda d: card_json(d, "collector")["mission"].update(include_hoard=1),
        r"card 'collector'.*mission.include_hoard: must be true or false, got 1",
        True,
    ),
    (
        "param-kind",
        lambda d: card_json(d, "bird-god")["mission"].update(kind="unicorn"),
        r"card 'bird-god'.*mission.kind: unknown totem kind 'unicorn'",
        True,
    ),
    (
        "param-design",
        lambda d: card_json(d, "rainbow")["mission"]["designs"].__setitem__(2, "gold"),
        r"card 'rainbow'.*mission.designs\[2\]: unknown pedestal design 'gold'",
        True,
    ),
    (
        "param-designs-empty",
        lambda d: card_json(d, "rainbow")["mission"].update(designs=[]),
        r"card 'rainbow'.*mission.designs: must be a non-empty list",
        True,
    ),
    (
        "param-designs-twice",
        lambda d: card_json(d, "rainbow")["mission"].update(designs=["red", "red"]),
        r"card 'rainbow'.*mission.designs: lists a design twice",
        True,
    ),
    (
        "cell-outside",
        lambda d: d["cards"][0]["start"]["columns"][1].update(cell=[2, 0]),
        r"card 'bird-god'.*start.columns\[1\].cell: \(2,0\) is outside the 2×2 start tile",
        True,
    ),
    (
        "cell-negative",
        lambda d: d["cards"][0]["start"]["columns"][1].update(cell=[0, -1]),
        r"start.columns\[1\].cell: \(0,-1\) is outside",
        True,
    ),
    (
        "cell-shape",
        lambda d: d["cards"][0]["start"]["columns"][1].update(cell=[1]),
        r"start.columns\[1\].cell: must be \[x, y\] with two integers",
        True,
    ),
    (
        "cell-twice",
        lambda d: d["cards"][0]["start"]["columns"][1].update(cell=[0, 0]),
        r"card 'bird-god'.*start.columns\[1\].cell: \(0,0\) is used by two columns",
        False,
    ),
    (
        "empty-stack",
        lambda d: d["cards"][0]["start"]["columns"][0].update(stack=[]),
        r"card 'bird-god'.*start.columns\[0\].stack: must be a non-empty list",
        True,
    ),
    (
        "column-field",
        lambda d: d["cards"][0]["start"]["columns"][0].update(height=2),
        r"start.columns\[0\]: unexpected field 'height'",
        True,
    ),
    (
        "cloud-type",
        lambda d: d["cards"][3]["start"].update(cloud="yes"),
        r"card 'wolf-pack'.*start.cloud: must be true or false",
        True,
    ),
    (
        "no-cloud",
        lambda d: d["cards"][3]["start"].pop("cloud"),
        r"card 'wolf-pack'.*start: missing field 'cloud'",
        True,
    ),
    ("points-zero", lambda d: d["cards"][0].update(points=0), r"points: must be a positive", True),
    ("points-neg", lambda d: d["cards"][0].update(points=-2), r"points: .* got -2", True),
    ("points-float", lambda d: d["cards"][0].update(points=2.5), r"points: .* got 2.5", True),
    ("points-bool", lambda d: d["cards"][0].update(points=True), r"points: .* got True", True),
    ("points-str", lambda d: d["cards"][0].update(points="6"), r"points: .* got '6'", True),
    (
        "mission-not-object",
        lambda d: d["cards"][0].update(mission="bird"),
        r"card 'bird-god'.*mission: must be a JSON object",
        True,
    ),
    (
        "start-not-object",
        lambda d: d["cards"][0].update(start=[]),
        r"card 'bird-god'.*start: must be a JSON object",
        True,
    ),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [b[1:3] for b in BAD_DECKS], ids=[b[0] for b in BAD_DECKS]
)
def test_loader_rejects_malformed_deck(mutate: Mutate, message: str) -> None:
    """RULES.md §9: the validating loader names the card and the field at fault."""
    data = deck_json()
    mutate(data)
    with pytest.raises(DeckError, match=message):
        Deck.from_json(data)


@pytest.mark.parametrize(
    "mutate", [b[1] for b in BAD_DECKS if b[3]], ids=[b[0] for b in BAD_DECKS if b[3]]
)
def test_schema_rejects_the_same_malformed_decks(mutate: Mutate) -> None:
    """RULES.md §9: the schema is no looser than the loader wherever it can express a rule."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "deck.schema.json").read_text(encoding="utf-8"))
    data = deck_json()
    mutate(data)
    assert not jsonschema.Draft202012Validator(schema).is_valid(data)


def test_loader_rejects_a_non_object() -> None:
    """RULES.md §9: a deck is a JSON object."""
    with pytest.raises(DeckError, match="deck: must be a JSON object, got list"):
        Deck.from_json([])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "skytotems-deck",', r"deck.json: invalid JSON at line 1 column"),
        ('{"format": 1, "format": 2}', r"deck.json: duplicate key 'format'"),
        ('{"version": NaN}', r"deck.json: NaN is not allowed"),
    ],
)
def test_load_deck_turns_syntax_errors_into_deck_errors(
    tmp_path: Path, text: str, message: str
) -> None:
    """RULES.md §9: a broken file is a DeckError naming the file, not a bare JSON error."""
    path = tmp_path / "deck.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DeckError, match=message):
        load_deck(path)


def test_load_deck_missing_file(tmp_path: Path) -> None:
    """RULES.md §9: an unreadable deck file is a DeckError too."""
    with pytest.raises(DeckError, match="cannot read deck file"):
        load_deck(tmp_path / "absent.json")


def test_load_deck_default_is_the_packaged_deck() -> None:
    """RULES.md §9: load_deck() with no path reads the packaged file."""
    assert load_deck() == default_deck()
    assert load_deck(None).name == "reconstructed"


# --- a replaced deck changes behaviour without code -----------------------------------------


def test_modified_deck_file_changes_missions_and_layouts(tmp_path: Path) -> None:
    """RULES.md §9: the deck is data; a corrected file changes the game with no code change."""
    data = deck_json()
    card_json(data, "wolf-pack")["mission"]["min"] = 1
    card_json(data, "collector")["start"] = {
        "columns": [{"cell": [1, 1], "stack": ["horse", "horse"]}],
        "cloud": False,
    }
    path = tmp_path / "custom.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    custom = load_deck(path)
    one_wolf = altar_of(row(0, "rr", "", "gg"), totems=[(T_WOLF, [(0, 0), (1, 0), (2, 0)], 2)])
    assert not default_deck().card("wolf-pack").mission.met(one_wolf)
    assert custom.card("wolf-pack").mission.met(one_wolf)
    assert custom.card("wolf-pack").mission.describe() == "a wolf totem"

    collector = custom.card("collector").start
    assert collector == StartLayout(((cell(1, 1), (9, 9)),), cloud=False)
    assert collector != default_deck().card("collector").start
    assert custom != default_deck()
