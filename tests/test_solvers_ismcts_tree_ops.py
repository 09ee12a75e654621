"""The information-set search's descent operations (cext/common/concept.md: tree_apply,
tree_chance, tree_determinize, tree_key) against the keyed ones, on seeded random lines through
whole games of every ruleset: the same states, every seat's key the same at every step, after a
determinization for an observer too. Leonardo leaves its stored keys stale on the way, so this
is what proves its keys computed on demand are the keys."""
import pytest

import atelier
from atelier.solvers import engine

GAMES = [("inventors", 2), ("inventors", 4), ("leonardo", 2), ("leonardo", 4), ("leonardo", 5),
         ("craftsmen", 2), ("craftsmen", 4)]


@pytest.mark.parametrize("game,players", GAMES)
def test_the_descent_keys_are_the_keyed_keys(game, players):
    checked = 0
    for seed in range(6):
        s = atelier.open(game, players=players, seed=seed).start()
        for observer in (-1, seed % players):
            got = engine._check_tree_ops(s, 400, seed=seed, observer=observer)
            assert got > 0, (seed, observer, got)
            checked += got
    assert checked > 1000


def test_from_mid_game_positions_of_leonardo():
    s = atelier.open("leonardo", players=3, seed=11).start()
    import random

    rnd = random.Random(2)
    for k in range(60):   # into the game, then a check from each of several later positions
        if s.is_terminal():
            break
        if s.is_chance():
            s.sample_chance(k)
            continue
        s.apply(rnd.choice(s.legal_moves()))
        if k % 15 == 14:
            for observer in range(3):
                assert engine._check_tree_ops(s, 200, seed=k, observer=observer) > 0


def test_a_bad_observer_is_refused():
    s = atelier.open("leonardo", players=2, seed=1).start()
    with pytest.raises(atelier.InputError, match="observer"):
        engine._check_tree_ops(s, 10, observer=2)
