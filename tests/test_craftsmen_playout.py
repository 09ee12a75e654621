"""Craftsmen playouts skip what only determinization, validation and the field view read (what
each seat knows of the buildings, bknow) and play exactly the games the full transitions played.

The digests were taken from the full transitions (random_games before the playout path); any
change in a playout's moves or results changes them.
"""
import hashlib

import numpy as np
import pytest

import atelier

GOLDEN = {2: ("659edc9b104dea2e", 17910), 3: ("060740c147a849bf", 25715),
          4: ("2dc307cfebb9ba79", 35156), 5: ("2bde006b59ad80a7", 44805)}


@pytest.mark.parametrize("players", sorted(GOLDEN))
def test_random_games_are_the_full_transitions_games(players):
    r = atelier.open("craftsmen", players=players, seed=1).random_games(60, seed=11)
    blob = b"".join(np.ascontiguousarray(r[k]).tobytes() for k in ("scores", "lengths", "winners"))
    assert (hashlib.sha256(blob).hexdigest()[:16], int(r["lengths"].sum())) == GOLDEN[players]
