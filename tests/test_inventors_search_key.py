"""The exact solver's table key (concept: search_key) folds out only what cannot change a value:
positions that differ in a level the dominance rules call settled, in the statuette during MAIN,
or in a rewarded card's cubes share a key, and then every root move's exact value is the same
from both (alpha-beta with its knowledge on one, without it on the other)."""
import copy

import pytest

pytest.importorskip("atelier._core")
from atelier._core import inventors as core  # noqa: E402
from atelier.solvers import engine  # noqa: E402
from solver_helpers import mixed_game  # noqa: E402

FULL = engine.AB_DEFAULT_ORDERING
BARE = engine.AB_DEFAULT_ORDERING | 16 | 32
CAP = 300_000
P2, P4 = 0, 2


def variants(state):
    """Field-level changes of one Age III state: each level raised by one, each held P token
    moved to another P kind, the statuette moved on (MAIN), a cube of the rewarded card moved."""
    f = state.fields()
    n = len(f["levels"])
    for p in range(n):
        for i in range(4):
            for d in range(4):
                g = copy.deepcopy(f)
                g["levels"][p][i][d] += 1
                yield g
        for k in range(P2, P4 + 1):
            for k2 in range(P2, P4 + 1):
                if k != k2 and f["hand"][p][k]:
                    g = copy.deepcopy(f)
                    g["hand"][p][k] -= 1
                    g["hand"][p][k2] += 1
                    yield g
    if f["phase"] == "MAIN":
        g = copy.deepcopy(f)
        g["statuette"] = (f["statuette"] + 1) % n
        yield g
    if f["reward"] is not None:   # a cube moved between seats, the priority order kept
        cubes = f["reward"]["cubes"]
        for a in range(n):
            for b in range(n):
                if cubes[b] and cubes[a] >= cubes[b] + 3:
                    g = copy.deepcopy(f)
                    g["reward"]["cubes"][a] -= 1
                    g["reward"]["cubes"][b] += 1
                    yield g


def loaded(game, fields):
    try:
        return core.State.from_fields(game, fields)
    except ValueError:
        return None


def values(state, ordering, objective):
    """Every root move's exact value by its notation, or None past the node cap."""
    r = engine.alphabeta_search(state, objective=objective, ordering=ordering, max_nodes=CAP, memory_mb=16)
    return None if r["aborted"] else {state.move_to_string(m["move"]): (m["lo"], m["hi"]) for m in r["moves"]}


def test_positions_with_one_key_have_the_same_values():
    merged = checked = 0
    for seed in range(1, 31):
        states = [s for s in mixed_game("inventors", 2, seed, greedy=0.5) if engine.chance_free(s)]
        for s in states[-10::3]:
            for g in variants(s):
                t = loaded(s.game, g)
                if t is None or t.search_key() != s.search_key():
                    continue
                merged += 1
                for objective in ("win", "margin"):
                    a = values(s, FULL, objective)
                    b = values(t, BARE, objective)
                    if a is None or b is None:
                        continue
                    # The root lists all legal moves, so a raise of the changed level may be
                    # legal from one side only (a settled level's raise is worth nothing).
                    assert max(a.values()) == max(b.values()), (seed, g, objective)
                    assert all(a[m] == b[m] for m in a.keys() & b.keys()), (seed, g, objective)
                    checked += 1
    # The key does merge positions, and the merged ones were compared.
    assert merged >= 100 and checked >= 100, (merged, checked)


def test_a_level_that_still_matters_keeps_its_key():
    # Before Age III nothing is folded: the key is the hash.
    s = mixed_game("inventors", 2, 3)[0]
    assert s.search_key() == s.hash
    changed = 0
    for seed in range(1, 6):
        for s in [s for s in mixed_game("inventors", 2, seed) if engine.chance_free(s)][-6:]:
            for g in variants(s):
                t = loaded(s.game, g)
                if t is not None and t.search_key() != s.search_key():
                    changed += 1
                    assert t.hash != s.hash
    assert changed > 0

