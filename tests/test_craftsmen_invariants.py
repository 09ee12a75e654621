"""Random Craftsmen playouts with invariants: termination after year 3, conservation (checked by
validate on every position: 48 money cards by type, buildings, 20 cubes a seat, 14 neutral
cubes, tokens), clone equality and independence, bytes round trip, notation round trip for
every legal move and chance outcome, exact chance probabilities."""
import random

import pytest

from atelier._core import craftsmen as C
from craftsmen_helpers import game


def walk(players, seed, check_every=1):
    g = game(players)
    st = g.start(seed)
    rng = random.Random(seed)
    steps = 0
    while not st.is_terminal():
        if steps % check_every == 0:
            assert st.validate() == ""
            assert C.State.from_bytes(g, st.to_bytes()) == st
            assert st.hash == st.compute_hash()
        if st.is_chance():
            outs = st.chance_outcomes()
            assert outs and abs(sum(p for _, p, _ in outs) - 1) < 1e-9
            for m, _, text in outs:
                assert st.parse_move(text) == m
            st.apply(rng.choice(outs)[0])
        else:
            moves = st.legal_moves()
            assert moves and len(moves) <= C.MAX_MOVES
            if steps % check_every == 0:
                strings = [st.move_to_string(m) for m in moves]
                assert len(set(strings)) == len(strings)
                for m, s in zip(moves, strings):
                    assert st.parse_move(s) == m
            st.apply(rng.choice(moves))
        steps += 1
        assert steps < 40000
    f = st.fields()
    assert f["year"] == 3 and f["season"] == 3 and f["phase"] == "TERMINAL"
    assert sorted(st.ranking()) == list(range(players))
    assert sum(st.returns()) == 1.0
    return st


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_random_playout_invariants(players, seed):
    walk(players, seed, check_every=3)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(10, 20))
def test_random_playout_invariants_many(players, seed):
    walk(players, seed)


def test_clone_is_equal_and_independent():
    g = game(4)
    st = g.start(11)
    c = st.clone()
    assert c == st and c.hash == st.hash
    c.apply(c.legal_moves()[-1])
    assert c != st and c.hash != st.hash
    assert st.validate() == "" and st == g.start(11)


def test_random_games_batch_terminates_for_every_player_count():
    for n in (2, 3, 4, 5):
        r = game(n).random_games(20, seed=n)
        assert r["scores"].shape == (20, n)
        assert (r["lengths"] > 100).all() and (r["lengths"] < 20000).all()
        # a bitmask of the winners, one bit (A19 breaks every tie), as the other rulesets write it
        assert all(w in [1 << p for p in range(n)] for w in r["winners"].tolist())


def test_bad_bytes_are_rejected_not_crashing():
    g = game(3)
    st = g.start(1)
    raw = bytearray(st.to_bytes())
    rng = random.Random(5)
    rejected = 0
    for _ in range(300):
        b = bytearray(raw)
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256)
        try:
            s2 = C.State.from_bytes(g, bytes(b))
        except ValueError:
            rejected += 1
            continue
        # accepted bytes must be a playable position
        s2.legal_moves()
        if s2.is_chance():
            s2.chance_outcomes()
    assert rejected > 0
    with pytest.raises(ValueError):
        C.State.from_bytes(g, b"short")


def test_moves_from_outside_are_checked():
    st = game(4).start(1)
    for bad in (-1, 70000, 0xFFFF):
        with pytest.raises(ValueError):
            st.apply(bad)
    with pytest.raises(ValueError):
        st.apply("PLACE(IV)")  # not during the mulligan
    with pytest.raises(ValueError):
        st.apply(True)


def test_bad_editions_name_the_field():
    from craftsmen_helpers import edition
    ed = edition()
    ed["basic_buildings"][0]["top"] = "orange"
    with pytest.raises(ValueError, match="top"):
        C.Game(4, ed)
    ed = edition()
    ed["extended_buildings"][0]["house"] = False
    with pytest.raises(ValueError, match="house"):
        C.Game(4, ed)
    ed = edition()
    ed["advanced_buildings"][0]["ap"] = 300
    with pytest.raises(ValueError, match="ap"):
        C.Game(4, ed)
    with pytest.raises(ValueError, match="players"):
        C.Game(6, edition())
    with pytest.raises(ValueError, match="age_rank"):
        C.Game(3, edition(), [0, 0, 1])


def test_inconsistent_bytes_are_rejected_by_name():
    from craftsmen_helpers import M_MAYOR, Edit, phase, play, script
    st = play(game(4).start(3), phase("CRAFT"), script(["PLACE(IV)"]))
    e = Edit(st)
    e.set_money(M_MAYOR, ["R1"])  # the mayor's cards outside an auction
    with pytest.raises(ValueError, match="mayor"):
        e.state()
    e = Edit(st)
    e.set("stage", 6)  # a Craftsmen decision outside the guild phase: would index guild[6]
    with pytest.raises(ValueError, match="stage|flow"):
        e.state()
    e = Edit(st)
    e.set_seat(st.current_player, "home", 5)  # a sixth helper
    with pytest.raises(ValueError, match="helpers"):
        e.state()


# The C++ batch (cext/bind/craftsmen_check.cpp): validate at every state (conservation of money,
# buildings, cubes, tokens and helpers; auction claims; knowledge), termination, a strict
# ranking, and the determinization contract at random states and at every state of an auction.
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_games_batch(players):
    out = game(players).check_games(200, seed=players)
    assert out["error"] == "" and out["games"] == 200
    assert out["determinized_in_auctions"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_games_10000(players):
    out = game(players).check_games(10_000, seed=100 + players)
    assert out["error"] == "" and out["games"] == 10_000, out
