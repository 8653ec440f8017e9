"""Nothing sent to a seat or a spectator holds another seat's hidden cards, and the seed
(the generator's state) never leaves the server before the game is over."""

from __future__ import annotations

import random

from wsclient import Client, ThreadServer, create_table, db_rows, play_until

from skytotems import Game, GameOptions, dealt_hands


def secret_leaks(text: str, secrets: set[str]) -> set[str]:
    return {card for card in secrets if f'"{card}"' in text}


def test_no_message_holds_another_seats_hidden_cards(server: ThreadServer, db_url: str):
    data = create_table(
        server.base,
        [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "random"}],
        options={"players": 3},
    )
    table_id = data["table"]["id"]
    # seq 0: each socket asks for every event from the deal on
    clients = {p: Client(server.base, table_id, data["token_of"][p], seq=0) for p in (0, 1)}
    spectator = Client(server.base, table_id, None, seq=0)
    everyone = [*clients.values(), spectator]
    play_until(
        list(clients.values()),
        random.Random(2),
        lambda: clients[0].state is not None and clients[0].state["status"] == "finished",
    )
    for c in everyone:
        c.drain(0.1)

    seed = db_rows(db_url, "SELECT seed FROM tables WHERE id = :id", id=table_id)[0][0]
    hands = dealt_hands(Game(GameOptions(players=3), seed))  # what each seat was dealt
    # when each card became public, read from the spectator's (public) stream
    public_at: dict[str, int] = {}
    for message in spectator.received:
        for event in message.get("events", []):
            if event["type"] == "start_cards_revealed":
                for card in event["cards"]:
                    public_at.setdefault(card, message["seq"])
            elif event["type"] == "card_revealed":
                public_at.setdefault(event["card"], message["seq"])
    assert len([c for c in public_at if any(c in h for h in hands)]) >= 3

    checked = 0
    for viewer, client in [(0, clients[0]), (1, clients[1]), (None, spectator)]:
        for text, message in zip(client.raw, client.received, strict=True):
            assert str(seed) not in text and '"seed"' not in text
            if message["type"] == "welcome":
                message = dict(message, deck=None)  # the deck lists every card, by design
                text = str(message)
            if message.get("status") == "finished" or message["type"] not in ("state", "welcome"):
                continue
            seq = message.get("seq", message.get("table", {}).get("seq", 0))
            for seat, hand in enumerate(hands):
                if seat == viewer:
                    continue
                hidden = {c for c in hand if public_at.get(c, 10**9) > seq}
                assert not secret_leaks(text.replace("'", '"'), hidden), (viewer, seat, seq)
                checked += 1
    assert checked > 100
    dealt = [e for e in spectator.received[1]["events"] if e["type"] == "cards_dealt"]
    assert [e["cards"] for e in dealt] == [[], [], []]  # the deal, with every hand hidden
    # and the viewer's own secrets do reach it (the check above can see a card)
    own = clients[0].received[1]["view"]["seats"][0]["hand"]
    assert set(own) == set(hands[0])
