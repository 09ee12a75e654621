"""Craftsmen positions (docs/positions-craftsmen.md): State.with_fields is the exact inverse of
State.fields() and the position JSON round trips at random states of every player count; bad
input is one ValueError line naming the field (never a crash), including the checks that need
the edition: the 48 money cards and the 10-card hand limit."""
import copy
import json
import random

import pytest

import atelier
from atelier._core import craftsmen as core


def playout(players, seed):
    """Every state of a seeded game (random moves and draws), the start and the end included."""
    rng = random.Random(seed)
    s = atelier.open("craftsmen", players=players, seed=seed).start()
    while True:
        yield s.clone()
        if s.is_terminal():
            return
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(outs[rng.randrange(len(outs))][0])
        else:
            ms = s.legal_moves()
            s.apply(ms[rng.randrange(len(ms))])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_with_fields_inverts_fields_at_every_state(players):
    phases = set()
    for seed in (1, 2):
        for s in playout(players, seed):
            phases.add(s.fields()["phase"])
            back = s.game.start(0).with_fields(s.fields())
            assert back.to_bytes() == s.to_bytes()
    # The walk went through the decisions that carry most context.
    assert {"MULLIGAN", "HELPER", "CHANCE", "CRAFT", "PAY", "TERMINAL"} <= phases, phases


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_position_json_round_trips(players):
    for k, s in enumerate(x for seed in (3, 4) for x in playout(players, seed)):
        if k % 4 and not s.is_chance() and not s.is_terminal():
            continue
        text = atelier.dump_position(s)
        doc = json.loads(text)
        assert doc["game"] == "craftsmen" and doc["format"] == 1
        back = atelier.load_position(text)
        assert back == s and back.to_bytes() == s.to_bytes()
        assert atelier.dump_position(back) == text


def test_keys_that_may_be_left_out_are_derived():
    s = atelier.open("craftsmen", players=4, seed=9).start()
    doc = atelier.position_dict(s)
    for seat in doc["seats"]:
        del seat["supply"], seat["seat"], seat["passed"], seat["filled"]
    for k in ("neutral_supply", "order_track", "mayor", "context"):
        del doc[k]
    for deck in doc["decks"].values():
        del deck["top"], deck["bottom"], deck["pool"]
    assert atelier.load_position(doc) == s


def test_an_edition_of_ones_own_travels_with_the_position(tmp_path):
    from atelier.games.craftsmen.edition import card_names, default_edition, edition_of

    ed = json.loads(json.dumps(default_edition()))
    ed["basic_buildings"][0]["name"] = "Deep iron mine"
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(ed))
    s = atelier.open("craftsmen", players=2, seed=1, edition=str(path)).start()
    doc = atelier.position_dict(s)
    assert doc["edition"]["basic_buildings"][0]["name"] == "Deep iron mine"
    assert "edition" not in atelier.position_dict(atelier.open("craftsmen", players=2, seed=1).start())
    back = atelier.load_position(doc)
    assert back == s and card_names(edition_of(back.game))["B01"] == "Deep iron mine"
    assert back != atelier.open("craftsmen", players=2, seed=1).start()   # same deal, another edition


def mid_state(players=3, seed=5, steps=400):
    *_, s = (x for _, x in zip(range(steps), playout(players, seed)))
    return s


def rejected(doc, *, match):
    with pytest.raises(atelier.InputError, match=match) as exc:
        atelier.load_position(doc)
    assert "\n" not in str(exc.value)
    return str(exc.value)


def test_bad_positions_name_their_field():
    s = mid_state()
    doc = atelier.position_dict(s)

    d = copy.deepcopy(doc)
    d["seats"][0]["hand"].append("X99")
    rejected(d, match=r"^seats\[0\]\.hand\[\d+\]: unknown card 'X99'")

    d = copy.deepcopy(doc)
    d["seats"][1]["hand"].append(d["decks"]["basic"]["faceup"][0])
    rejected(d, match=r"is already in decks\.basic\.faceup\[0\]|is already in seats\[1\]\.hand")

    d = copy.deepcopy(doc)
    d["display"]["R1"] = d["display"].get("R1", 0) + 1
    rejected(d, match=r"^money: \d+ R1 cards .* the edition has 4")

    d = copy.deepcopy(doc)
    d["box"] = []
    rejected(d, match=r"^buildings: L\d is in no place")

    d = copy.deepcopy(doc)
    d["seats"][2]["supply"] += 1
    rejected(d, match=r"^seats\[2\]\.supply: \d+, but the market, the filled icons")

    d = copy.deepcopy(doc)
    del d["decks"]["advanced"]
    rejected(d, match=r"^decks\.advanced: missing")

    d = copy.deepcopy(doc)
    d["viewpoint"] = 0   # a full position marked as a view: its money deck must be a count
    rejected(d, match=r"^money_deck: a viewpoint writes the money deck as")

    d = copy.deepcopy(doc)
    d["format"] = 2
    rejected(d, match=r"^format: unsupported format 2")

    d = copy.deepcopy(doc)
    d["seats"][0]["hnad"] = []
    rejected(d, match=r"^seats\[0\]\.hnad: unknown field")

    d = copy.deepcopy(doc)
    d["phase"] = "RUN"
    rejected(d, match=r"^phase: unknown value 'RUN'")


def test_a_hand_over_ten_only_while_discarding():
    s = atelier.open("craftsmen", players=2, seed=3).start()   # MULLIGAN: no discard pending
    doc = atelier.position_dict(s)
    deck = doc["money_deck"]
    # Six more cards from the money deck into seat 0's hand: 11.
    moved = 0
    for t in list(deck):
        while deck[t] and moved < 6:
            deck[t] -= 1
            doc["seats"][0]["money"][t] = doc["seats"][0]["money"].get(t, 0) + 1
            moved += 1
    assert sum(doc["seats"][0]["money"].values()) == 11
    rejected(doc, match=r"^seats\[0\]\.money: 11 cards, above the hand limit of 10")


MUTANTS = [None, -1, 300, 2**70, "X99", "B01", [], {}, True, 1.5, [None], {"R9": 1}, "neutral"]


def paths(x, here=()):
    """Every path into a fields dict."""
    yield here
    if isinstance(x, dict):
        for k, v in x.items():
            yield from paths(v, here + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from paths(v, here + (i,))


def test_with_fields_never_crashes_on_nonsense():
    rng = random.Random(7)
    states = [s for i, s in enumerate(playout(3, 6)) if i % 50 == 0]
    accepted = refused = 0
    for s in states:
        f = s.fields()
        ps = [p for p in paths(f) if p]
        for _ in range(60):
            g = copy.deepcopy(f)
            path = rng.choice(ps)
            target = g
            for k in path[:-1]:
                target = target[k]
            target[path[-1]] = rng.choice(MUTANTS)
            try:
                s.game.start(0).with_fields(g)
                accepted += 1
            except ValueError as exc:   # InputError is a ValueError; nothing else may escape
                refused += 1
                msg = str(exc)
                assert "\n" not in msg and ": " in msg, msg
    assert refused > accepted   # most nonsense is refused (and some is harmless: a stale field)


def test_with_fields_refuses_what_is_not_a_dict():
    s = atelier.open("craftsmen", players=2).start()
    with pytest.raises(ValueError, match="^fields: expected an object"):
        s.with_fields([1, 2])
    with pytest.raises(ValueError, match=r"^seats: expected 2 entries"):
        s.with_fields({"seats": []})


def test_load_position_never_crashes_on_nonsense():
    """The same through the position reader, whose own checks run before the core's."""
    rng = random.Random(8)
    docs = [atelier.position_dict(s) for i, s in enumerate(playout(4, 7)) if i % 80 == 0]
    refused = 0
    for doc in docs:
        ps = [p for p in paths(doc) if p and p[0] != "game"]
        for _ in range(60):
            d = copy.deepcopy(doc)
            path = rng.choice(ps)
            target = d
            for k in path[:-1]:
                target = target[k]
            target[path[-1]] = rng.choice(MUTANTS)
            try:
                atelier.load_position(d)
            except atelier.InputError as exc:
                refused += 1
                assert "\n" not in str(exc) and ": " in str(exc), str(exc)
    assert refused > len(docs) * 30


def test_match_records_write_draws_as_text_and_replay():
    from atelier import match

    r = match.play("craftsmen", ["greedy", "random"], games=1, seed=3, keep_moves=True)
    moves = r.records[0]["moves"]
    assert any(isinstance(m, str) and m.startswith("DRAW(") for m in moves)
    assert not any(isinstance(m, dict) for m in moves)
    final = match.replay(r.records[0], "craftsmen")
    assert final.is_terminal() and list(final.scores()) == r.records[0]["scores"]
