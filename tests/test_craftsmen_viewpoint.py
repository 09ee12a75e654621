"""Craftsmen viewpoints (rules §6.2, docs/positions-craftsmen.md): one seat's view written and
read back at random states (the same key, the same view, the same legal moves for the seat), a
view that hides what the seat has not seen, and impossible views refused in one line."""
import copy
import json
import random

import pytest

import atelier
from atelier.errors import InputError
from craftsmen_helpers import game


def states(players, seed, every):
    g = game(players)
    st, rng, k = g.start(seed), random.Random(seed), 0
    while not st.is_terminal():
        if k % every == 0 or st.fields()["phase"] in ("BID", "KEEP", "RETURN", "PAY"):
            yield k, st
        st.apply(rng.choice(st.chance_outcomes())[0] if st.is_chance() else rng.choice(st.legal_moves()))
        k += 1


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 6), (4, 7), (5, 8)])
def test_viewpoints_round_trip(players, seed):
    for k, st in states(players, seed, every=17):
        for s in range(players):
            doc = atelier.position_dict(st, viewpoint=s)
            back = atelier.load_position(json.dumps(doc), seed=k)
            assert back.viewpoint == s
            assert back.infoset_key(s) == st.infoset_key(s)
            assert atelier.position_dict(back) == doc
            if not st.is_chance() and st.current_player == s:
                assert [back.move_to_string(m) for m in back.legal_moves()] == \
                       [st.move_to_string(m) for m in st.legal_moves()]


def test_a_view_is_the_same_whatever_the_seat_cannot_see():
    for k, st in states(4, 9, every=23):
        for s in range(4):
            d = st.clone()
            d.determinize(s, k)
            assert atelier.position_dict(d, viewpoint=s) == atelier.position_dict(st, viewpoint=s)


def test_a_view_shows_other_hands_as_known_cards_and_counts():
    st = atelier.open("craftsmen", players=3, seed=2).start()
    doc = atelier.position_dict(st, viewpoint=1)
    full = atelier.position_dict(st)
    assert doc["viewpoint"] == 1 and doc["money_deck"] == {"cards": sum(full["money_deck"].values())}
    assert doc["seats"][1] == full["seats"][1]   # its own seat as it is
    for q in (0, 2):
        seat = doc["seats"][q]
        assert seat["money"] == {} and seat["money_unseen"] == sum(full["seats"][q]["money"].values())
        assert all(b.startswith("?") for b in seat["hand"])
        assert sorted(seat["hand"]) == sorted(["?basic", "?basic", "?extended-house"])
    assert all(b.startswith("?") for seg in doc["decks"]["extended"]["segments"] for b in seg)


def auction_view():
    for _, st in states(4, 3, every=10 ** 9):
        f = st.fields()
        if f["phase"] == "BID":
            seat = f["actor"]
            bids = f["context"]["auction_max_bids"]
            other = next(q for q in range(4) if q != seat and bids[q] > 0)
            return atelier.position_dict(st, viewpoint=seat), other
    pytest.fail("no auction in the game")


def test_a_bid_above_what_the_bidder_could_hold_is_refused():
    doc, other = auction_view()
    atelier.load_position(json.dumps(doc))   # as written it loads
    bad = copy.deepcopy(doc)
    bad["context"]["auction_max_bids"][other] = 90
    bad["context"]["auction_high"] = max(bad["context"]["auction_high"], 90)
    with pytest.raises(InputError) as e:
        atelier.load_position(json.dumps(bad))
    assert "auction" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["seats"][0].update(money_unseen=d["seats"][0].get("money_unseen", 0) + 1), "places"),
    (lambda d: d["seats"][0]["hand"].append("?basic"), "?basic"),
    (lambda d: d["seats"][0]["hand"].append("?wooden"), "unknown placeholder"),
    (lambda d: d.update(money_deck={"R1": 2}), "money_deck"),
])
def test_impossible_views_are_one_line(edit, words):
    st = atelier.open("craftsmen", players=3, seed=4).start()
    doc = atelier.position_dict(st, viewpoint=1)
    edit(doc)
    with pytest.raises(InputError) as e:
        atelier.load_position(json.dumps(doc))
    assert words in str(e.value) and "\n" not in str(e.value)


def test_search_and_apply_from_a_view():
    from atelier import solvers

    doc, _ = auction_view()
    st = atelier.load_position(json.dumps(doc), seed=3)
    r = solvers.ismcts(st, iterations=200, seed=1)
    assert r.best_text in [st.move_to_string(m) for m in st.legal_moves()]
    nxt = atelier.apply_in_view(st, r.best_text)
    assert nxt.viewpoint == st.viewpoint


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_viewpoint_and_full_json_round_trips_many(players):
    """JSON round trips, full and every seat's view, at every 5th state of 50 games."""
    for seed in range(100, 150):
        for k, st in states(players, seed, every=5):
            assert atelier.load_position(atelier.dump_position(st)) == st
            for s in range(players):
                doc = atelier.position_dict(st, viewpoint=s)
                back = atelier.load_position(json.dumps(doc), seed=k)
                assert back.infoset_key(s) == st.infoset_key(s) and atelier.position_dict(back) == doc


REPRO = __import__("pathlib").Path(__file__).parent / "repro"


@pytest.mark.parametrize("name,field", [
    ("discard-null", "discard.R1: expected an integer"),
    ("discard-str", "discard.P3: expected an integer"),
    ("row-int", "seats[1].row: expected a list"),
    ("faceup-int", "decks.extended.faceup: expected a list"),
    ("bottom-list", "decks.basic.bottom[0]: expected a card id"),
    ("hand-obj", "seats[0].hand[0]: expected a card id"),
    ("negative-money-20000000", "display.B3: -20000000 is out of range 0..48"),
])
def test_wrong_types_and_counts_in_a_view_are_one_line(name, field):
    """A view's fields are checked before the fill uses them (these gave TypeError tracebacks),
    and a count before it is expanded into cards (-20,000,000 took 1.6 GB before its error)."""
    from cli_helpers import one_error_line, run

    line = one_error_line(run("show", REPRO / f"craftsmen-view-{name}.json"))
    assert line.startswith(f"error: {field}"), line


@pytest.mark.parametrize("count", [-(2**31), 2**31, -1, 49])
def test_a_huge_or_negative_count_in_a_view_is_refused_first(count):
    st = atelier.open("craftsmen", players=3, seed=4).start()
    for where in ("display", "seats"):
        doc = atelier.position_dict(st, viewpoint=1)
        money = doc["display"] if where == "display" else doc["seats"][1]["money"]
        money["B3"] = count
        with pytest.raises(InputError, match="out of range 0..48"):
            atelier.load_position(json.dumps(doc))
    if count < 0 or count > len(st.game.building_ids):   # a Notary look's unseen returns
        doc = atelier.position_dict(st, viewpoint=1)
        doc["decks"]["basic"]["returns"] = {"face_up": [], "unseen": {"basic": count}}
        with pytest.raises(InputError, match=r"decks\.basic\.returns\.unseen\.basic: .*out of range"):
            atelier.load_position(json.dumps(doc))
