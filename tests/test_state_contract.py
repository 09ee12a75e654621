"""What docs/internal-contract.md promises of every ruleset's State, held by all three: a state
pickles and deep-copies (equal after the round trip, a viewpoint still one), and returns() follows
one convention (before the end 1/n per seat, at the end the win shares)."""
import copy
import json
import pickle
import random

import pytest

import atelier

GAMES = ("inventors", "leonardo", "craftsmen")


def states(game, players, seed, every):
    """Every `every`-th state of a random game, chance nodes included, and the end."""
    rng = random.Random(seed)
    s = atelier.open(game, players=players, seed=seed).start()
    k = 0
    while True:
        if k % every == 0 or s.is_terminal():
            yield s.clone()
        if s.is_terminal():
            return
        if s.is_chance():
            s.sample_chance(rng.getrandbits(64))
        else:
            s.apply(rng.choice(s.legal_moves()))
        k += 1


@pytest.mark.parametrize("game", GAMES)
def test_states_pickle_and_deepcopy(game):
    for s in states(game, 3, seed=4, every=41):
        for again in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s), copy.copy(s)):
            assert again == s and again.to_bytes() == s.to_bytes() and again is not s
            assert again.legal_moves() == s.legal_moves()
            assert atelier.dump_position(again) == atelier.dump_position(s)
    # the Game too (multiprocessing sends it), with the seed atelier.open gave it
    g = atelier.open(game, players=4, seed=9)
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.players == 4 and g2.seed == 9 and g2.start() == g.start()


@pytest.mark.parametrize("game", ["leonardo", "craftsmen"])
def test_a_viewpoint_stays_one_through_pickle_and_deepcopy(game):
    s = atelier.open(game, players=3, seed=2).start()
    view = atelier.load_position(json.dumps(atelier.position_dict(s, viewpoint=1)), seed=5)
    assert view.viewpoint == 1
    for again in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view)):
        assert again == view and again.viewpoint == 1
        assert atelier.position_dict(again) == atelier.position_dict(view)
    # states of one Game share one Game after the round trip, as before it
    full = view.clone()
    full.viewpoint = None
    a, b = pickle.loads(pickle.dumps([view, full]))
    assert a.game is b.game and a.viewpoint == 1 and b.viewpoint is None and a == b


@pytest.mark.parametrize("game", GAMES)
def test_a_corrupt_pickle_is_an_input_error(game):
    """Unpickling checks the bytes as from_bytes does (a pickle is bytes from outside)."""
    s = atelier.open(game, players=2, seed=1).start()
    state_tuple = s.__getstate__()
    for bad in [(state_tuple[0], state_tuple[1][:-1]) + tuple(state_tuple[2:]), (), "x"]:
        with pytest.raises(atelier.InputError):
            type(s).__new__(type(s)).__setstate__(bad)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_returns_are_one_over_n_before_the_end_and_win_shares_at_it(game, players):
    """One convention in every ruleset (Craftsmen gave 0 per seat before the end, the others the
    current leaders' shares): nobody has won yet, so each seat 1/n and the shares add up to 1."""
    seen = 0
    for s in states(game, players, seed=players, every=29):
        r = s.returns()
        assert len(r) == players and sum(r) == pytest.approx(1.0)
        if not s.is_terminal():
            assert r == [1.0 / players] * players
            seen += 1
        else:
            win = [p for p in range(players) if r[p] > 0]
            assert all(r[p] == pytest.approx(1.0 / len(win)) for p in win)
    assert seen > 3
