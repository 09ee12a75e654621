"""Cost of a feature vector (cext/<game>/features.cpp) per ruleset and player count.

    PYTHONPATH=src python bench/bench_features.py [--reps 20000]

For states sampled along half-greedy, half-random games, times State.features-in-C++ (no
Python, no GIL: `State._bench_features`) and, as the baseline measured in the same run at the
same states, the ruleset's own legal_moves(). Prints ns per call and their ratio, with the core
count; nothing asserts a time.
"""
import argparse
import os
import random
import statistics

import atelier
from atelier import solvers


def states(game, players, seed, every=9):
    st = atelier.open(game, players=players, seed=seed).start()
    rng, out, ply = random.Random(seed), [], 0
    while not st.is_terminal():
        if ply % every == 0 and not st.is_chance():
            out.append(st.clone())
        if st.is_chance():
            st.sample_chance(seed * 1000 + ply)
        elif rng.random() < 0.5:
            st.apply(solvers.greedy_move(st, ply))
        else:
            st.apply(rng.choice(st.legal_moves()))
        ply += 1
    return out[:40]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20000)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}")
    print(f"{'game':10} {'n':>2} {'F':>4} {'features ns':>12} {'legal_moves ns':>15} {'ratio':>6}")
    for game in ("inventors", "leonardo", "craftsmen"):
        for n in (2, 3, 4, 5):
            sample = states(game, n, 1)
            reps = max(1, args.reps // len(sample))
            feat, moves = [], []
            for s in sample:
                f, m, _ = s._bench_features(reps)
                feat.append(f)
                moves.append(m)
            f, m = statistics.mean(feat), statistics.mean(moves)
            print(f"{game:10} {n:>2} {sample[0].game.feature_count:>4} {f:>12.0f} {m:>15.0f} {f / m:>6.2f}")


if __name__ == "__main__":
    main()
