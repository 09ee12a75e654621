"""The search without a model is today's search: `rollout="random"` (and "greedy") give exactly
the results pinned before the model came (tests/golden/search_random.json, golden_search.py)."""
import json

import pytest

from golden_search import CASES, GOLDEN, run



@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_random_rollout_reproduces_the_pinned_search(case):
    want = json.loads(GOLDEN.read_text())[case[0]]
    rollout = case[3].get("rollout", "random")
    assert run(case, rollout=rollout) == want
