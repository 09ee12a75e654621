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


def greedy_record(seed: int, seats=("ann", "bob")):
    """A greedy 2-player Inventors game written as a record (chance sampled from the seed)."""
    from atelier import records, solvers

    s = atelier.open("inventors", players=2, seed=seed).start()
    rec = records.new(s, seats=list(seats))
    k = 0
    while not s.is_terminal():
        s = rec.add_sampled(seed * 1000 + k) if s.is_chance() else rec.add(s.move_to_string(solvers.greedy_move(s, k)))
        k += 1
    return rec
