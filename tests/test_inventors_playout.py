"""The playout path (Position::random_move, playout_apply without keys) plays exactly the games
the listed moves and keyed transitions played before it: the same draw picks the same move.

The digests were taken from the list-based, keyed playout (random_games before the unkeyed
path); any change in which move a draw picks, or in a transition, changes them.
"""
import hashlib

import numpy as np
import pytest

import atelier

GOLDEN = {2: ("916f7bc600ed6073", 34138), 3: ("9237aad175f0fc40", 44745),
          4: ("7bb2e1a26e180e81", 54711), 5: ("4a12d2e88c655b3d", 64092)}


@pytest.mark.parametrize("players", sorted(GOLDEN))
def test_random_games_are_the_listed_moves_games(players):
    r = atelier.open("inventors", players=players, seed=1).random_games(300, seed=11)
    blob = b"".join(np.ascontiguousarray(r[k]).tobytes() for k in ("scores", "lengths", "winners"))
    assert (hashlib.sha256(blob).hexdigest()[:16], int(r["lengths"].sum())) == GOLDEN[players]


def test_a_playouts_end_state_scores_exactly():
    # The unkeyed transitions leave the hash stale but never the scores: random_playouts'
    # mean returns are win shares (sum 1), the same for the same seed.
    from atelier.solvers import engine

    s = atelier.open("inventors", players=3, seed=2).start()
    a = engine.random_playouts(s, 200, 5)
    assert a == engine.random_playouts(s, 200, 5)
    assert abs(sum(a) - 1.0) < 1e-9
