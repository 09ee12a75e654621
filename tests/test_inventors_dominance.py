"""Inventors' ruleset knowledge for the exact solver never changes a value: alpha-beta with the
moves it proves dominated skipped (search_moves) and with its score bounds, against alpha-beta
with neither, every root move's exact value, both objectives, on Age III positions of games
played partly at random (so hands hold the tokens greedy play rarely keeps)."""
import random

import pytest

pytest.importorskip("atelier._core")
from atelier.solvers import engine  # noqa: E402
from solver_helpers import mixed_game  # noqa: E402

FULL = engine.AB_DEFAULT_ORDERING                  # bounds and dominance
BARE = engine.AB_DEFAULT_ORDERING | 16 | 32       # neither: every legal move, no score bounds
CAP = 400_000                                      # nodes per solve: bigger ones are skipped


def age3_positions(seeds, per_game, players=2, greedy=0.5):
    """Decisions of Age III (no chance left), the last `per_game` of each game."""
    for seed in seeds:
        states = [s for s in mixed_game("inventors", players, seed, greedy=greedy) if engine.chance_free(s)]
        yield from ((seed, k, s) for k, s in enumerate(states[-per_game:]))


def values(state, ordering, objective):
    r = engine.alphabeta_search(state, objective=objective, ordering=ordering, max_nodes=CAP, memory_mb=16)
    if r["aborted"]:
        return None, r["nodes"]
    return [(m["move"], m["lo"], m["hi"]) for m in r["moves"]], r["nodes"]


def compare(seeds, per_game, players=2):
    checked, nodes = 0, {FULL: 0, BARE: 0}
    for seed, k, s in age3_positions(seeds, per_game, players):
        for objective in ("win", "margin"):
            ref, n_bare = values(s, BARE, objective)
            if ref is None:
                continue
            got, n_full = values(s, FULL, objective)
            if got is None:   # another order of search may pass the cap first
                continue
            assert got == ref, (seed, k, objective)
            nodes[BARE] += n_bare
            nodes[FULL] += n_full
            checked += 1
    return checked, nodes


def test_dominance_and_bounds_keep_every_value():
    checked, nodes = compare(range(1, 41), 12)
    assert checked >= 600
    # They prune: the same solves take fewer nodes (a count, not a time).
    assert nodes[FULL] < 0.7 * nodes[BARE], nodes


def test_paranoid_three_players_keeps_every_value():
    checked, _ = compare(range(100, 112), 8, players=3)
    assert checked >= 100


@pytest.mark.slow
def test_dominance_and_bounds_keep_every_value_thousands():
    checked, _ = compare(range(1000, 1300), 16)
    assert checked >= 5000


def extreme(state, seat, helped, memo):
    """The most `seat` can score over every continuation with every seat helping it (helped),
    or the most it can make sure of whatever the others do (not helped)."""
    if state.is_terminal():
        return state.scores()[seat]
    key = state.hash
    if key not in memo:
        pick = max if helped or state.current_player == seat else min
        values = []
        for m in state.legal_moves():
            t = state.clone()
            t.apply(m)
            values.append(extreme(t, seat, helped, memo))
        memo[key] = pick(values)
    return memo[key]


def test_score_bounds_hold_against_exhaustive_search():
    """hi is at least the best any continuation gives the seat; lo at most what the seat can make
    sure of (its current total, or more for the seat to move, which can play tokens now)."""
    checked = raised = 0
    for seed, k, s in age3_positions(range(1, 21), 4):
        lo, hi = s.score_bounds()
        for seat in range(2):
            best = extreme(s, seat, True, {})
            assert best <= hi[seat], (seed, k, seat, best, hi)
            sure = extreme(s, seat, False, {})
            assert s.scores()[seat] <= lo[seat] <= sure, (seed, k, seat, lo, sure)
            raised += lo[seat] > s.scores()[seat]
            checked += 1
    assert checked >= 120 and raised > 0
