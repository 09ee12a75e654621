"""Core speed (pytest-benchmark): random games through Game.random_games (C++ loop), and the
Python-level clone, legal_moves and apply, for 2 and 4 players. Figures only: nothing here
asserts a time (see bench/README.md)."""
from __future__ import annotations

import random

import pytest

from atelier._core import inventors as core
from atelier.games.inventors.edition import load_edition

GAMES_PER_ROUND = 200


def make_game(n):
    return core.Game(load_edition(), n, list(range(n)))


def mid_game_state(game, seed=3, decisions=40):
    """A MAIN state after some seeded random play (chance sampled)."""
    rng = random.Random(seed)
    st = game.initial_state()
    done = 0
    while True:
        if st.is_chance():
            st.sample_chance(rng.getrandbits(63))
            continue
        if done >= decisions and st.fields()["phase"] == "MAIN":
            return st
        moves = st.legal_moves()
        st.apply(moves[rng.randrange(len(moves))])
        done += 1


@pytest.mark.parametrize("n", [2, 4])
def test_random_games(benchmark, n):
    game = make_game(n)
    seeds = iter(range(10 ** 9))
    res = benchmark(lambda: game.random_games(GAMES_PER_ROUND, next(seeds)))
    assert len(res["lengths"]) == GAMES_PER_ROUND
    benchmark.extra_info["games_per_round"] = GAMES_PER_ROUND
    benchmark.extra_info["games_per_s"] = GAMES_PER_ROUND / benchmark.stats.stats.mean


@pytest.mark.parametrize("n", [2, 4])
def test_clone(benchmark, n):
    st = mid_game_state(make_game(n))
    c = benchmark(st.clone)
    assert c == st


@pytest.mark.parametrize("n", [2, 4])
def test_legal_moves(benchmark, n):
    st = mid_game_state(make_game(n))
    moves = benchmark(st.legal_moves)
    benchmark.extra_info["moves"] = len(moves)
    assert moves


@pytest.mark.parametrize("n", [2, 4])
def test_apply(benchmark, n):
    st = mid_game_state(make_game(n))
    m = st.legal_moves()[-1]
    benchmark.pedantic(lambda s: s.apply(m), setup=lambda: ((st.clone(),), {}),
                       rounds=20000, iterations=1)


@pytest.mark.parametrize("n", [2, 4])
def test_child(benchmark, n):
    st = mid_game_state(make_game(n))
    m = st.legal_moves()[-1]
    benchmark(st.child, m)
