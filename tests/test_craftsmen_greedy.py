"""The Craftsmen greedy bot's games, pinned: its heuristic is the leaf policy of the model-backed
search (docs/models.md, leaf moves), so a faster heuristic must choose exactly as before. The
digest was taken from the byte-by-byte heuristic (before the SWAR one of cext/craftsmen/greedy.cpp)
and matched by it: every move, every tie broken by the same random draw, every final score."""
import hashlib

from atelier import solvers
from craftsmen_helpers import game

# sha256 of the move texts and final scores of the games below, 16 hex digits.
DIGEST = "cac4743930a53365"


def greedy_games():
    h = hashlib.sha256()
    for players in (2, 3, 4, 5):
        for seed in range(3):
            st = game(players).start(seed)
            k = 0
            while not st.is_terminal():
                if st.is_chance():
                    st.sample_chance(seed * 7919 + k)
                else:
                    m = solvers.greedy_move(st, seed * 104729 + k)
                    h.update(st.move_to_string(m).encode() + b"\n")
                    st.apply(m)
                k += 1
            h.update(repr(st.scores()).encode() + b"\n")
    return h.hexdigest()[:16]


def test_greedy_games_are_unchanged():
    assert greedy_games() == DIGEST
