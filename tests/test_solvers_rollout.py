"""The search without a model is today's search: `rollout="random"` (and "greedy") give exactly
the results pinned before the model came (tests/golden/search_random.json, golden_search.py),
and so does the default where the package ships no model for the game (it falls back to random
playouts, and says so)."""
import json

import pytest

from atelier import solvers
from golden_search import CASES, GOLDEN, run

NEW = ("evaluation", "model")   # fields the pinned results predate


def _pinned(name):
    return json.loads(GOLDEN.read_text())[name]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_random_rollout_reproduces_the_pinned_search(case):
    rollout = case[3].get("rollout", "random")
    got = run(case, rollout=rollout)
    assert (got.pop("evaluation"), got.pop("model")) == (rollout, None)
    assert got == _pinned(case[0])


def test_the_default_without_a_bundled_model_is_random_playouts(monkeypatch):
    monkeypatch.setattr(solvers, "_BUNDLED", {})
    monkeypatch.setattr("atelier.model.bundled", lambda game, players: None)
    case = CASES[0]
    got = run(case)
    assert (got.pop("evaluation"), got.pop("model")) == ("random", None)
    assert got == _pinned(case[0])
