"""A quick value model and a short match: does the model-backed search beat today's search?

Fits a linear model (no hidden layer) by least squares on the features of positions from greedy
self-play games (labels: the game's final scores and winner), saves it, then plays a seat-rotated
two-player match of `mcts:N` (or `ismcts:N`) with the model against the same budget with
`:random`. Not a trained model (that is `atelier train`); a floor for what the model can do.

    PYTHONPATH=src python bench/model_match.py --game inventors --games 20 --budget 300
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import atelier
from atelier import match
from atelier import model as model_file
from atelier import solvers
from atelier.solvers import engine


def positions(game, players, n_games, seed, every=3):
    """(features rows from the mover's side, rotated win targets, rotated final scores)."""
    X, W, S = [], [], []
    for g in range(n_games):
        s = atelier.open(game, players=players, seed=seed + g).start()
        seen, k = [], 0
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(seed * 7919 + g * 1000 + k)
            else:
                if k % every == 0:
                    p = s.current_player
                    seen.append((p, engine.position_features(s, p)[2]))
                s.apply(solvers.greedy_move(s, seed + g * 1000 + k) if k % 5 else solvers.random_move(s, k))
            k += 1
        scores = np.array(s.scores(), np.float64)
        win = np.array(s.returns(), np.float64) if hasattr(s, "returns") else None
        if win is None:
            best = scores.max()
            win = (scores == best) / (scores == best).sum()
        for p, row in seen:
            order = [(p + q) % players for q in range(players)]
            X.append(row)
            W.append(win[order])
            S.append(scores[order])
    return np.array(X, np.float32), np.array(W), np.array(S)


def fit(game, players, X, W, S, ridge=1.0):
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    # features are about [0, 1]: a floor on the spread keeps a rarely-moving feature from
    # blowing up on the states a search visits that self-play did not
    scale = (1.0 / np.maximum(std, 0.1)).astype(np.float32)
    Z = (X - mean) * scale
    A = np.hstack([Z, np.ones((len(Z), 1), np.float32)]).astype(np.float64)
    reg = ridge * np.eye(A.shape[1])
    reg[-1, -1] = 0.0
    # Win head: least squares on centred log-odds-like targets (a softmax of them ranks seats
    # as the outcomes did); score head: the final scores / score_scale.
    logits = 3.0 * (W - 1.0 / players)
    sc = float(max(S.std(), 1.0))
    sol = np.linalg.solve(A.T @ A + reg, A.T @ np.hstack([logits, S / sc]))
    f32 = lambda a: np.ascontiguousarray(a, np.float32)  # noqa: E731
    return model_file.Model(game=game, players=players, feature_version=_version(game, players),
                            mean=f32(mean), scale=f32(scale), layers=[],
                            win=(f32(sol[:-1, :players]), f32(sol[-1, :players])),
                            score=(f32(sol[:-1, players:]), f32(sol[-1, players:])), score_scale=sc,
                            provenance={"name": f"quick-fit {game}-{players}p", "fit": "least squares"})


def _version(game, players):
    return engine.position_features(atelier.open(game, players=players, seed=0).start())[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="inventors")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--fit-games", type=int, default=150)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--budget", default="300", help="per move: iterations (300) or seconds (0.01s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--algorithm", default=None, help="mcts or ismcts (default: ismcts where hidden)")
    ap.add_argument("--leaf-moves", type=int, default=0, help="greedy moves before the model")
    ap.add_argument("--out", default="/tmp/quick-model.npz")
    a = ap.parse_args()
    t0 = time.process_time()
    X, W, S = positions(a.game, a.players, a.fit_games, a.seed)
    m = fit(a.game, a.players, X, W, S)
    model_file.save(m, a.out)
    pw, ps = m.forward(X)
    acc = float((pw.argmax(1) == W.argmax(1)).mean())
    print(f"fit: {len(X)} positions from {a.fit_games} games, {X.shape[1]} features; "
          f"winner picked {100 * acc:.1f}%, score MAE {np.abs(ps - S).mean():.2f}; "
          f"{time.process_time() - t0:.1f} CPU s")
    algo = a.algorithm or ("ismcts" if a.game != "inventors" else "mcts")
    # The match plays bots by name: the quick model stands in as the package's model.
    solvers._BUNDLED[(a.game, a.players)] = m
    solvers.DEFAULT_LEAF_MOVES = a.leaf_moves
    bots = [f"{algo}:{a.budget}"] + [f"{algo}:{a.budget}:random"] * (a.players - 1)
    t1 = time.process_time()
    r = match.play(a.game, bots, games=a.games, seed=a.seed + 100)
    print(f"match: {' vs '.join(bots)} (the first with the quick model, {a.leaf_moves} greedy moves "
          f"before it), {a.games} games, seats rotated; "
          f"{time.process_time() - t1:.1f} CPU s")
    for row in r.summary:
        print("  ", row)


if __name__ == "__main__":
    main()
