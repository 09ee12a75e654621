"""Positions along random games, for tests that look at many kinds of position (the pictures)."""
import random

import atelier


def playout(game: str, players: int, seed: int, keep) -> list:
    """Copies of the states of one random game of `game` for which `keep(ply, state)` is true
    (chance nodes sampled from the seed), and always its last state."""
    st = atelier.open(game, players=players, seed=seed).start()
    rng, out, ply = random.Random(seed), [], 0
    while True:
        if keep(ply, st) or st.is_terminal():
            out.append(st.clone())
        if st.is_terminal():
            return out
        if st.is_chance():
            st.sample_chance(seed * 1000 + ply)
        else:
            st.apply(rng.choice(st.legal_moves()))
        ply += 1
