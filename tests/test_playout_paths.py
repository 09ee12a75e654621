"""Playouts take the short paths (Position::random_move and playout_apply; Inventors skips its
Zobrist key, Craftsmen the buildings' knowledge, Leonardo lists no placement) and still play exactly the games the listed moves
and full transitions played: the same draw picks the same move, the same transition follows.

The digests were taken from random_games before the short paths existed; any change in which
move a draw picks, or in a transition, changes them.
"""
import hashlib

import numpy as np
import pytest

import atelier
from atelier.solvers import engine

# game -> (games per player count, {players: (digest, decisions)})
GOLDEN = {
    "inventors": (300, {2: ("916f7bc600ed6073", 34138), 3: ("9237aad175f0fc40", 44745),
                        4: ("7bb2e1a26e180e81", 54711), 5: ("4a12d2e88c655b3d", 64092)}),
    "leonardo": (100, {2: ("e34daca0a532190b", 12135), 3: ("b74e9bc04736d0bf", 18909),
                       4: ("d5082713d89be616", 25407), 5: ("3f3eca55aa595c04", 30745)}),
    "craftsmen": (60, {2: ("659edc9b104dea2e", 17910), 3: ("060740c147a849bf", 25715),
                       4: ("2dc307cfebb9ba79", 35156), 5: ("2bde006b59ad80a7", 44805)}),
}


@pytest.mark.parametrize("game,players", [(g, n) for g, (_, d) in GOLDEN.items() for n in sorted(d)])
def test_random_games_are_the_full_paths_games(game, players):
    games, digests = GOLDEN[game]
    r = atelier.open(game, players=players, seed=1).random_games(games, seed=11)
    blob = b"".join(np.ascontiguousarray(r[k]).tobytes() for k in ("scores", "lengths", "winners"))
    assert (hashlib.sha256(blob).hexdigest()[:16], int(r["lengths"].sum())) == digests[players]


def test_a_playouts_end_state_scores_exactly():
    # The unkeyed transitions leave the hash stale but never the scores: random_playouts'
    # mean returns are win shares (sum 1), the same for the same seed.
    s = atelier.open("inventors", players=3, seed=2).start()
    a = engine.random_playouts(s, 200, 5)
    assert a == engine.random_playouts(s, 200, 5)
    assert abs(sum(a) - 1.0) < 1e-9
