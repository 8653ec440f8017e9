"""Per-rule tests of RULES.md §1 (components), §4 (setup) and §10 (options).

Setups run through the public API from `Game(options, seed)`: the deal and the start
player come from the seed, so tests that need a particular hand search the first seed
that deals it (deterministic, and independent of the generator's details).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

import pytest
from helpers import altar, assert_illegal, c, cells, legal, of_type, play, pos

from skytotems import (
    BuildTotem,
    ChooseStart,
    Deck,
    Game,
    GameOptions,
    NotYourDecision,
    OptionsError,
    PlaceCloud,
    ReturnPedestal,
    TakeSlot,
    dealt_hands,
    default_deck,
    events_for,
    final_places,
    make_record,
    replay,
    score_sheet,
    view,
    xy,
)
from skytotems.rules.events import (
    CardsDealt,
    Event,
    PedestalPlaced,
    PedestalsDrawn,
    SlotFilled,
    StartCardsRevealed,
    StartChosen,
    StartPlayerChosen,
    TotemSetChosen,
    TurnStarted,
)
from skytotems.rules.pieces import (
    BLUE,
    DESIGN_GLYPHS,
    DESIGN_NAMES,
    RED,
    T_BIRD,
    T_CAT,
    T_DRAGON,
    T_HORSE,
    T_WOLF,
    TOTEM_KINDS,
    TOTEM_NAMES,
    design_from_name,
)

EMPTY = "0,0 _ _/_ _"
START_TILE = {(0, 0), (1, 0), (0, 1), (1, 1)}
# The 8 cells edge-adjacent to the 2×2 start tile (RULES.md §2, §3).
AROUND_START = {(-1, 0), (-1, 1), (2, 0), (2, 1), (0, -1), (1, -1), (0, 2), (1, 2)}
CLOUD_CARDS = {card.id for card in default_deck() if card.start.cloud}
SEED_SEARCH = 2000


def first_seed(options: GameOptions, wanted: Callable[[Game], bool]) -> Game:
    """The game of the first seed whose deal satisfies `wanted` (fails if none in range)."""
    for seed in range(SEED_SEARCH):
        game = Game(options, seed)
        if wanted(game):
            return game
    raise AssertionError("no seed in range deals the wanted hands")


def without_cloud(game: Game, seat: int) -> str:
    """A card of `seat`'s hand with no cloud icon (so its setup needs no decision)."""
    return next(card for card in dealt_hands(game)[seat] if card not in CLOUD_CARDS)


def finish_setup(game: Game, picks: dict[int, str] | None = None) -> list[Event]:
    """Every seat keeps its pick (default: its first card); start clouds go on the first
    legal cell. Returns all the events up to the first turn."""
    picks = picks or {}
    events: list[Event] = []
    for seat in range(game.n):
        events += game.apply(ChooseStart(seat, picks.get(seat, dealt_hands(game)[seat][0])))
    while game.decision.kind == "place_cloud":
        events += game.apply(legal(game, PlaceCloud)[0])
    return events


def start_altar_game(seat0_card: str) -> tuple[Game, list[Event]]:
    """A 2-player game where seat 0 keeps `seat0_card` and seat 1 a card without cloud."""
    game = first_seed(GameOptions(players=2), lambda g: seat0_card in dealt_hands(g)[0])
    picks = {0: seat0_card, 1: without_cloud(game, 1)}
    events: list[Event] = []
    for seat in (0, 1):
        events += game.apply(ChooseStart(seat, picks[seat]))
    return game, events


# --- §1 Components -----------------------------------------------------------------------


def test_s1_118_pedestals_6_common_designs_of_15_and_4_rare_of_7() -> None:
    """RULES.md §1 [R]: the bag starts with 6 × 15 common and 4 × 7 rare pedestals."""
    game = Game(GameOptions(players=2), seed=3)
    assert game.bag == [15] * 6 + [7] * 4
    assert game.bag_total == sum(game.bag) == 118


def test_s1_pedestals_are_conserved_through_setup() -> None:
    """RULES.md §1: bag + altars + slots always hold exactly the 118 pedestals."""
    game = Game(GameOptions(players=4), seed=11)
    finish_setup(game)
    held = Counter(d for a in game.altars for d in a.pedestals())
    held.update(d for slot in game.slots for d in slot)
    assert [game.bag[d] + held[d] for d in range(10)] == [15] * 6 + [7] * 4


def test_s1_common_pedestal_scores_1_rare_scores_2() -> None:
    """RULES.md §1 [R]: commons are worth 1, rares 2 (one common, four rares: 1 + 8 = 9)."""
    sheet = score_sheet(pos("0,0 r C/W B | hoard H", EMPTY), 0)
    assert (sheet.common_points, sheet.rare_points) == (1, 8)
    assert sheet.total == 9


def test_s1_rare_designs_are_cat_wolf_bird_horse_and_no_dragon_pedestal() -> None:
    """RULES.md §1 [B]: the rare designs are cat, wolf, bird and horse; there is no dragon one."""
    assert DESIGN_NAMES[6:] == ("cat", "wolf", "bird", "horse")
    assert "dragon" not in DESIGN_NAMES
    with pytest.raises(ValueError):
        design_from_name("dragon")


def test_s1_common_designs_are_named_by_colour() -> None:
    """RULES.md §1 [I]: the six common designs are called red, orange, yellow, green, blue,
    purple, and the bag is shown by those names."""
    assert DESIGN_NAMES[:6] == ("red", "orange", "yellow", "green", "blue", "purple")
    bag = view(Game(GameOptions(players=2), seed=1), 0)["bag"]
    assert set(bag) == set(DESIGN_NAMES)


def test_s1_each_design_has_its_own_glyph() -> None:
    """RULES.md §1: a glyph per design, so that a design is readable without colour."""
    assert len(DESIGN_GLYPHS) == 10
    assert len(set(DESIGN_GLYPHS)) == 10


def test_s1_clouds_are_unlimited() -> None:
    """RULES.md §1 [F] (FAQ general Q2): an altar of 60 clouds (more than the 40 tiles in the
    box) still gains a cloud for a returned pedestal."""
    game = pos("0,0 " + " ".join(["_"] * 60), EMPTY, slots=["r", "", ""], bag={"blue": 3})
    play(game, TakeSlot(0, 0), ReturnPedestal(0, RED))
    assert len(legal(game, PlaceCloud)) == 2 * 60 + 2
    play(game, PlaceCloud(0, c(60, 0)))
    assert len(game.altars[0].clouds) == 61


def test_s1_totems_are_unlimited() -> None:
    """RULES.md §1 [F][B] (FAQ general Q1): with 8 horses built (the box holds 8 tiles) a
    ninth horse is still legal."""
    # Two rows per design, so the altar holds no more pedestals than the box does.
    rows = "/".join(f"{d} {d * 3}" for d in "rrooyyggb")
    horses = " | ".join(f"horse 0,{y} 1,{y}" for y in range(8))
    game = pos(f"0,0 {rows} | {horses}", EMPTY, bag={"blue": 3})
    assert legal(game, BuildTotem) == [BuildTotem(0, T_HORSE, cells((0, 8), (1, 8)))]
    play(game, BuildTotem(0, T_HORSE, cells((0, 8), (1, 8))))
    assert [t.kind for t in game.altars[0].totems] == [T_HORSE] * 9


def test_s1_each_player_starts_with_one_2x2_tile() -> None:
    """RULES.md §1 [R], §2 [I]: every altar begins as the 4 clouds (0,0) (1,0) (0,1) (1,1)."""
    game = Game(GameOptions(players=4), seed=12)
    assert all({xy(cell) for cell in a.clouds} == START_TILE for a in game.altars)
    picks = {seat: without_cloud(game, seat) for seat in range(4)}
    finish_setup(game, picks)
    assert all({xy(cell) for cell in a.clouds} == START_TILE for a in game.altars)


@pytest.mark.parametrize(("players", "slots"), [(1, 3), (2, 3), (3, 4), (4, 5)])
def test_s1_slots_in_use_by_player_count(players: int, slots: int) -> None:
    """RULES.md §1 [R][B][I]: 3 slots with 2 players (and solo), 4 with 3, 5 with 4."""
    options = GameOptions(players=players)
    assert options.slots == slots
    game = Game(options, seed=5)
    assert len(game.slots) == slots
    finish_setup(game)
    assert [len(s) for s in game.slots] == [2] * slots


def test_s1_24_altar_cards_two_per_totem_kind() -> None:
    """RULES.md §1 [R][B]: 24 cards; two belong to each of the 5 totem kinds, 14 to none."""
    deck = default_deck()
    assert len(deck) == 24
    tags = Counter(card.tag for card in deck)
    assert tags[None] == 14
    assert {kind: tags[kind] for kind in TOTEM_KINDS} == dict.fromkeys(TOTEM_KINDS, 2)
    assert {card.points for card in deck} <= {2, 4, 6, 8}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s1_cards_not_dealt_go_back_to_the_box_unseen(players: int) -> None:
    """RULES.md §1 [R]: the 22 cards in play minus 3 per player stay in the box, and no
    view names which ones they are."""
    game = Game(GameOptions(players=players), seed=9)
    dealt = {card for hand in dealt_hands(game) for card in hand}
    assert len(game.box) == 22 - 3 * players
    assert set(game.box) == set(game.cards) - dealt
    finish_setup(game)
    for seat in range(players):
        seen = view(game, seat)
        assert "box" not in seen
        assert not set(json.dumps(seen["seats"]).split('"')) & set(game.box)


# --- §4 Setup ----------------------------------------------------------------------------


def test_s4_the_two_cards_of_the_unused_totem_are_removed() -> None:
    """RULES.md §4 step 1 [R][B]: beginner leaves the dragon out, so its 2 cards are gone."""
    game = Game(GameOptions(players=2, totems="beginner"), seed=2)
    assert len(game.cards) == 22
    assert "dragon-god" not in game.cards and "dragon-pair" not in game.cards
    assert set(game.box) | {c for h in dealt_hands(game) for c in h} == set(game.cards)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s4_three_cards_dealt_to_each_player(players: int) -> None:
    """RULES.md §4 step 2 [R]: each player gets 3 distinct cards; no card is dealt twice."""
    game = Game(GameOptions(players=players), seed=4)
    dealt = of_type(game.setup_events, CardsDealt)
    assert [e.seat for e in dealt] == list(range(players))
    assert all(len(e.cards) == 3 == e.count for e in dealt)
    all_dealt = [card for e in dealt for card in e.cards]
    assert len(set(all_dealt)) == 3 * players
    assert set(all_dealt) <= set(game.cards)
    assert [tuple(e.cards) for e in dealt] == [tuple(h) for h in dealt_hands(game)]


def test_s4_deal_is_shuffled_and_reproducible_from_the_seed() -> None:
    """RULES.md §4 step 2 [R]: the deck is shuffled (deals differ between seeds) and one seed
    always deals the same hands."""
    options = GameOptions(players=2)
    assert Game(options, seed=21).hands == Game(options, seed=21).hands
    deals = {tuple(Game(options, seed=s).hands) for s in range(20)}
    assert len(deals) == 20


def test_s4_start_player_is_random_but_reproducible() -> None:
    """RULES.md §4 step 2 [R]: a random start player; the same seed picks the same seat, every
    seat can be picked, and round 1 starts with that seat."""
    options = GameOptions(players=4)
    picked = {Game(options, seed=s).first_player for s in range(80)}
    assert picked == {0, 1, 2, 3}
    game = Game(options, seed=13)
    again = Game(options, seed=13)
    assert game.first_player == again.first_player == game.start_player
    chosen = of_type(game.setup_events, StartPlayerChosen)
    assert [e.seat for e in chosen] == [game.first_player]
    events = finish_setup(game)
    turns = of_type(events, TurnStarted)
    assert [(e.seat, e.round) for e in turns] == [(game.first_player, 1)]


def test_s4_starting_choice_is_simultaneous_and_secret() -> None:
    """RULES.md §4 step 3 [R][B]: every seat chooses at once, in any order; a choice stays
    hidden from the others until all have chosen, and nothing is built before that."""
    game = Game(GameOptions(players=3), seed=8)
    assert game.decision.kind == "choose_start"
    assert list(game.decision.seats) == [0, 1, 2]
    card = dealt_hands(game)[2][1]
    events = play(game, ChooseStart(2, card))
    assert list(game.decision.seats) == [0, 1]
    assert_illegal(game, ChooseStart(2, dealt_hands(game)[2][0]), NotYourDecision.reason)
    assert [e.card for e in of_type(events_for(events, 2), StartChosen)] == [card]
    assert [e.card for e in of_type(events_for(events, 0), StartChosen)] == [""]
    assert view(game, 0)["seats"][2]["start_card"] is None
    assert view(game, 0)["seats"][2]["chosen"] is True
    assert all(not a.stacks for a in game.altars) and game.phase == "setup"
    play(game, ChooseStart(0, dealt_hands(game)[0][0]))
    events = play(game, ChooseStart(1, dealt_hands(game)[1][2]))
    revealed = of_type(events, StartCardsRevealed)
    assert [e.cards for e in revealed] == [(dealt_hands(game)[0][0], dealt_hands(game)[1][2], card)]


def test_s4_one_card_face_up_the_other_two_are_goals() -> None:
    """RULES.md §4 step 3 [R][B]: the kept card is the starting altar, the other two goals."""
    game = Game(GameOptions(players=2), seed=6)
    hand0, hand1 = dealt_hands(game)
    play(game, ChooseStart(0, hand0[1]), ChooseStart(1, hand1[0]))
    assert game.start_cards == [hand0[1], hand1[0]]
    assert sorted(game.goals[0]) == sorted([hand0[0], hand0[2]])
    assert sorted(game.goals[1]) == sorted([hand1[1], hand1[2]])


def test_s4_starting_altar_pedestals_come_from_the_bag_as_the_card_shows() -> None:
    """RULES.md §4 step 4 [R][B]: God of Birds shows red red on (0,0) and blue on (1,1):
    those pedestals leave the bag and stand there, with no pool to resolve."""
    game, events = start_altar_game("bird-god")
    assert altar(game, 0) == "0,0 rr _/_ b"
    placed = [(e.design, xy(e.cell)) for e in of_type(events, PedestalPlaced) if e.seat == 0]
    assert placed == [(RED, (0, 0)), (RED, (0, 0)), (BLUE, (1, 1))]
    assert all(e.source == "start" for e in of_type(events, PedestalPlaced))
    drawn = [e for e in of_type(events, PedestalsDrawn) if e.seat == 0]
    assert [(e.source, e.designs) for e in drawn] == [("start", (RED, RED, BLUE))]
    assert game.decision.kind == "turn"  # straight to the first turn: nothing to place


def test_s4_cloud_icon_gives_one_cloud_placement() -> None:
    """RULES.md §4 step 4 [R][B]: Rare Collector shows a bird on (0,0) and a cloud icon: its
    owner places one cloud next to the start tile, then the game goes on."""
    game, _ = start_altar_game("collector")
    assert altar(game, 0) == "0,0 B _/_ _"
    assert game.decision.kind == "place_cloud"
    assert game.decision.seats == (0,)
    assert game.decision.context["remaining"] == 1
    assert {xy(a.cell) for a in legal(game, PlaceCloud)} == AROUND_START
    assert_illegal(game, PlaceCloud(0, c(-1, -1)), "illegal_cloud")
    events = play(game, PlaceCloud(0, c(2, 1)))
    assert game.altars[0].clouds == {c(*xy_) for xy_ in START_TILE | {(2, 1)}}
    assert len(of_type(events, SlotFilled)) == 3
    assert game.decision.kind == "turn"


def test_s4_start_clouds_are_placed_from_the_start_player_on() -> None:
    """RULES.md §4, §12 setup order [I]: with two cloud cards, the start player places first."""

    def both_cloud_cards(g: Game) -> bool:
        return all(CLOUD_CARDS & set(h) for h in dealt_hands(g)) and g.first_player == 1

    game = first_seed(GameOptions(players=2), both_cloud_cards)
    for seat in (0, 1):
        play(game, ChooseStart(seat, next(c for c in dealt_hands(game)[seat] if c in CLOUD_CARDS)))
    assert game.decision.kind == "place_cloud" and game.decision.seats == (1,)
    play(game, legal(game, PlaceCloud)[0])
    assert game.decision.kind == "place_cloud" and game.decision.seats == (0,)
    play(game, legal(game, PlaceCloud)[0])
    assert game.decision.kind == "turn" and game.decision.seats == (1,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s4_slots_get_two_each_and_round_1_begins(players: int) -> None:
    """RULES.md §4 step 5 [R][B]: every used slot gets 2 random pedestals from the bag; the
    round marker is on 1 and the start player begins."""
    game = Game(GameOptions(players=players), seed=17)
    events = finish_setup(game)
    fills = of_type(events, SlotFilled)
    assert [(e.slot, len(e.designs)) for e in fills] == [(i, 2) for i in range(players + 1)]
    assert [sorted(s) for s in game.slots] == [sorted(e.designs) for e in fills]
    on_altars = sum(a.pedestal_count() for a in game.altars)
    assert game.bag_total == 118 - on_altars - 2 * (players + 1)
    assert (game.round, game.phase) == (1, "play")
    assert game.decision.kind == "turn"
    assert game.decision.seats == (game.first_player,)


def test_s4_setup_is_reproducible_from_the_seed() -> None:
    """RULES.md §4 [R]: the same seed and choices give the same altars and slots."""
    first = Game(GameOptions(players=3), seed=99)
    second = Game(GameOptions(players=3), seed=99)
    finish_setup(first)
    finish_setup(second)
    assert first.slots == second.slots
    assert [altar(first, s) for s in range(3)] == [altar(second, s) for s in range(3)]


# --- §10 Options -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_s10_two_to_four_players_or_solo(players: int) -> None:
    """RULES.md §10 [B][R]: 2–4 players, or 1 for solo (two altars)."""
    game = Game(GameOptions(players=players), seed=1)
    assert game.n == max(2, players)
    assert len(game.altars) == game.n


@pytest.mark.parametrize("players", [0, 5, -1])
def test_s10_other_player_counts_are_refused(players: int) -> None:
    """RULES.md §10 [B]: no game with 0 or 5+ players."""
    with pytest.raises(OptionsError):
        GameOptions(players=players)


def test_s10_solo_is_a_two_seat_game_with_three_slots() -> None:
    """RULES.md §10 [R], §1 [I]: solo deals 3 cards to each of two altars and uses 3 slots."""
    options = GameOptions(players=1)
    assert (options.solo, options.seats, options.slots) == (True, 2, 3)
    game = Game(options, seed=3)
    assert [len(h) for h in dealt_hands(game)] == [3, 3]
    assert len(game.box) == 22 - 6
    assert game.decision.seats == (0, 1)


def test_s10_solo_player_sees_all_six_cards_and_picks_both_starts() -> None:
    """RULES.md §10 [R]: the one person sees both hands and chooses both starting cards."""
    game = Game(GameOptions(players=1), seed=3)
    seen = view(game, 0)
    assert [s["hand"] for s in seen["seats"]] == [list(h) for h in dealt_hands(game)]
    dealt = of_type(events_for(game.setup_events, 0, solo=True), CardsDealt)
    assert [e.cards for e in dealt] == [tuple(h) for h in dealt_hands(game)]
    assert {a.seat for a in game.legal_actions()} == {0, 1}
    finish_setup(game)
    assert game.phase == "play"


def test_s10_solo_start_altar_is_random() -> None:
    """RULES.md §10 [R][I]: which of the two altars starts is drawn from the seed."""
    options = GameOptions(players=1)
    assert {Game(options, seed=s).first_player for s in range(40)} == {0, 1}


def test_s10_solo_result_sums_both_altars_and_has_no_tie_break() -> None:
    """RULES.md §10 [R][I]: one result, the sum of both altars; both share place 1."""
    game = pos("0,0 rr _/_ C", "0,0 b _/_ _", options=GameOptions(players=1))
    totals = [score_sheet(game, s).total for s in (0, 1)]
    assert totals == [4, 1]
    assert final_places(game) == [1, 1]


def kinds_of(game: Game) -> set[str]:
    """The totem kinds in play, by name."""
    return {TOTEM_NAMES[k] for k in game.kinds}


def test_s10_beginner_set_is_the_default() -> None:
    """RULES.md §10 [B][I]: beginner = bird, wolf, horse, cat, and it is the default."""
    assert GameOptions().totems == "beginner"
    assert kinds_of(Game(GameOptions(), seed=0)) == {"bird", "wolf", "horse", "cat"}


def test_s10_dragon_set() -> None:
    """RULES.md §10 [B]: with the dragon = wolf, horse, dragon, cat (the bird's cards out)."""
    game = Game(GameOptions(totems="dragon"), seed=0)
    assert kinds_of(game) == {"wolf", "horse", "dragon", "cat"}
    assert "bird-god" not in game.cards and "bird-flock" not in game.cards


def test_s10_cat_plus_three_at_random() -> None:
    """RULES.md §10 [B]: the cat is always in; one of the other four is left out at random."""
    options = GameOptions(totems="cat-plus-three")
    left_out = set()
    for seed in range(60):
        kinds = kinds_of(Game(options, seed))
        assert len(kinds) == 4 and "cat" in kinds
        left_out |= set(TOTEM_NAMES) - kinds
    assert left_out == {"bird", "wolf", "horse", "dragon"}


def test_s10_random_four() -> None:
    """RULES.md §10 [B]: any one of the five may be left out, the cat included."""
    options = GameOptions(totems="random-four")
    left_out = set()
    for seed in range(80):
        kinds = kinds_of(Game(options, seed))
        assert len(kinds) == 4
        left_out |= set(TOTEM_NAMES) - kinds
    assert left_out == set(TOTEM_NAMES)


@pytest.mark.parametrize("totems", ["cat-plus-three", "random-four"])
def test_s10_random_sets_are_reproducible_from_the_seed(totems: str) -> None:
    """RULES.md §10 [B]: drawn with the game's own seeded generator, so the same seed gives
    the same set and a record replays it."""
    options = GameOptions(players=2, totems=totems)
    for seed in range(10):
        game = Game(options, seed)
        assert game.kinds == Game(options, seed).kinds
        shown = of_type(game.setup_events, TotemSetChosen)
        assert [set(e.kinds) for e in shown] == [kinds_of(game)]
        finish_setup(game)
        replayed = replay(make_record(game))
        assert replayed.kinds == game.kinds
        assert replayed.slots == game.slots


@pytest.mark.parametrize("spec", ["bird,wolf,horse,dragon", " dragon , horse,wolf, bird "])
def test_s10_hand_picked_set(spec: str) -> None:
    """RULES.md §10 [R]: any 4 of the 5 chosen by hand (names in any order)."""
    game = Game(GameOptions(totems=spec), seed=0)
    assert kinds_of(game) == {"bird", "wolf", "horse", "dragon"}
    assert not game.cat_in_play


@pytest.mark.parametrize(
    "spec", ["bird,wolf,horse", "bird,wolf,horse,cat,dragon", "bird,bird,wolf,horse", "x,y,z,w"]
)
def test_s10_hand_picked_set_must_name_four_different_totems(spec: str) -> None:
    """RULES.md §10 [R]: a hand-picked set is exactly 4 of the 5 totems."""
    with pytest.raises(OptionsError):
        GameOptions(totems=spec)


@pytest.mark.parametrize("left_out", TOTEM_KINDS)
def test_s10_the_two_cards_of_the_unused_totem_are_removed(left_out: int) -> None:
    """RULES.md §10, §4 step 1 [R][B]: whichever totem is out, exactly its 2 cards go."""
    spec = ",".join(TOTEM_NAMES[k] for k in TOTEM_KINDS if k != left_out)
    game = Game(GameOptions(totems=spec), seed=0)
    expected = {card.id for card in default_deck() if card.tag != left_out}
    assert set(game.cards) == expected
    assert len(expected) == 22


def test_s10_totems_not_in_play_cannot_be_built() -> None:
    """RULES.md §10, §5: a staircase is no dragon in a beginner game; an L is no bird in a
    dragon game."""
    beginner = pos("0,0 r rr rrr", EMPTY, bag={"blue": 3})
    assert all(a.kind != T_DRAGON for a in legal(beginner, BuildTotem))
    dragon_cells = cells((0, 0), (1, 0), (2, 0))
    assert_illegal(beginner, BuildTotem(0, T_DRAGON, dragon_cells), "totem_not_buildable")
    dragon = pos("0,0 rr rr/rr _", EMPTY, options=GameOptions(totems="dragon"))
    assert legal(dragon, BuildTotem) == []
    bird_cells = cells((0, 0), (1, 0), (0, 1))
    assert_illegal(dragon, BuildTotem(0, T_BIRD, bird_cells), "totem_not_buildable")


def test_s10_tie_break_option() -> None:
    """RULES.md §10: tie-break bga (default) or rulebook; nothing else."""
    assert GameOptions().tie_break == "bga"
    assert GameOptions(tie_break="rulebook").tie_break == "rulebook"
    with pytest.raises(OptionsError):
        GameOptions(tie_break="coin")


def test_s10_kinds_listed_in_every_set_are_the_buildable_ones() -> None:
    """RULES.md §10: the cat is in play but never buildable; the others of the set are."""
    game = Game(GameOptions(totems="dragon"), seed=0)
    assert set(game.buildable_kinds) == {T_WOLF, T_HORSE, T_DRAGON}
    assert game.cat_in_play and T_CAT in game.kinds


def test_s4_start_pedestals_the_bag_cannot_supply_are_skipped() -> None:
    """RULES.md §4, §1 (rules note E10): a starting altar takes its pedestals from the bag;
    one whose design has run out is left out, and `pedestals_drawn` lists only what was
    taken (only a custom deck asking 16 reds per card, 15 exist, can reach this)."""
    data = default_deck().to_json()
    red_tile = [{"cell": [x, y], "stack": ["red"] * 4} for y in (0, 1) for x in (0, 1)]
    for card in data["cards"]:  # type: ignore[union-attr]
        card["start"] = {"columns": red_tile, "cloud": False}
    game = Game(GameOptions(players=2), seed=3, deck=Deck.from_json(data))
    events = list(game.setup_events) + finish_setup(game)
    on_altars = sum(a.pedestals().count(RED) for a in game.altars)
    drawn = [d for e in of_type(events, PedestalsDrawn) for d in e.designs]
    assert on_altars == drawn.count(RED) == 15
    assert game.bag[RED] == 0 and all(RED not in slot for slot in game.slots)
    assert sorted(a.pedestals().count(RED) for a in game.altars) == [0, 15]


def test_s4_slot_draws_at_setup_name_no_seat() -> None:
    """RULES.md §4, §11 (rules note E12): the slots' pedestals are public through
    `slot_filled`; the only `pedestals_drawn` of setup are the starting altars' own,
    each naming its seat."""
    game = Game(GameOptions(players=3), seed=7)
    events = list(game.setup_events) + finish_setup(game)
    assert sum(len(e.designs) for e in of_type(events, SlotFilled)) == 2 * len(game.slots)
    drawn = of_type(events, PedestalsDrawn)
    assert all(e.seat is not None for e in drawn)
    assert sum(len(e.designs) for e in drawn) == sum(len(a.pedestals()) for a in game.altars)
