"""Strength in CI-sized matches on the High-card test game (seats rotated, same seed = same
result). The Legendary Inventors matches are in test_solvers_inventors.py."""
import pytest

from atelier import match
from atelier.errors import InputError
from atelier.solvers import make_bot


def share(r, i=0):
    return r.summary[i].win_share


@pytest.mark.parametrize("bots, floor", [
    (["mcts:300", "random"], 0.62),
    (["mcts:300", "random", "random", "random"], 0.35),
    (["greedy", "random"], 0.62),
    (["ismcts:300", "random", "random"], 0.45),
])
def test_bots_beat_random(bots, floor):
    r = match.play("testgame", bots, games=240, seed=7)
    assert share(r) >= floor, r.summary
    assert all(s.games == 240 for s in r.summary)
    assert abs(sum(s.win_share for s in r.summary) - 1.0) < 1e-9


def test_match_is_reproducible_and_rotates_seats():
    a = match.play("testgame", ["mcts:50", "greedy", "random"], games=9, seed=3, keep_moves=True)
    b = match.play("testgame", ["mcts:50", "greedy", "random"], games=9, seed=3, keep_moves=True)
    assert a.records == b.records
    seats = [[r["seating"][s] for r in a.records] for s in range(3)]
    assert all(sorted(col) == [0, 0, 0, 1, 1, 1, 2, 2, 2] for col in seats)


@pytest.mark.parametrize("spec", ["foo", "mcts:0", "mcts:-3", "mcts:xs", "random:5", "", "mcts:0s"])
def test_unknown_bots(spec):
    with pytest.raises(InputError, match="bot"):
        make_bot(spec)


def test_bad_match_input():
    with pytest.raises(InputError, match="games"):
        match.play("testgame", ["random", "random"], games=0)
    with pytest.raises(InputError, match="bots"):
        match.play("testgame", ["random"], games=2)


def test_ismcts_on_sealed_plays_beats_random():
    r = match.play("testgame-sealed", ["ismcts:500", "random", "random"], games=240, seed=2)
    assert share(r) >= 0.42, r.summary
