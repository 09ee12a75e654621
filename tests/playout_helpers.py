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


def sample_positions(game: str, keep_for, players=range(2, 6), seeds=(1, 2), examples=True) -> list:
    """States of random games of `game` for every player count and seed (`keep_for(players,
    seed)` gives that game's `keep(ply, state)`), then `game`'s bundled examples."""
    out = []
    for n in players:
        for seed in seeds:
            out += playout(game, n, seed, keep_for(n, seed))
    if examples:
        out += [atelier.load_position(path) for name, path in sorted(atelier.examples().items())
                if name.startswith(game)]
    return out


def move_texts(state) -> list[str]:
    """The legal moves of a decision in notation ([] at a chance node or the end)."""
    if state.is_terminal() or state.is_chance():
        return []
    return [state.move_to_string(m) for m in state.legal_moves()]
