"""The search cases whose results are pinned in tests/golden/search_random.json: today's search
(uniform random or greedy playouts, no model) must give exactly these results for the same
seed. Regenerate only on purpose: `PYTHONPATH=src python tests/golden_search.py`."""
from __future__ import annotations

import json
import pathlib

from atelier import solvers
from atelier.cli.options import read_position

GOLDEN = pathlib.Path(__file__).parent / "golden" / "search_random.json"

# (name, position, algorithm, keyword arguments); rollout is added by the caller.
CASES = [
    ("inventors-mid", "example:inventors-mid", "mcts", {"iterations": 1500, "seed": 3}),
    ("inventors-mid-2t", "example:inventors-mid", "mcts", {"iterations": 1500, "seed": 3, "threads": 2}),
    ("inventors-mid-margin", "example:inventors-mid", "mcts", {"iterations": 800, "seed": 5, "reward": "margin"}),
    ("inventors-late-solver", "example:inventors-late", "mcts", {"iterations": 2000, "seed": 1}),
    ("inventors-start-greedy", "example:inventors-start", "mcts", {"iterations": 300, "seed": 2, "rollout": "greedy"}),
    ("leonardo-turn8", "example:leonardo-turn8", "ismcts", {"iterations": 600, "seed": 4}),
    ("leonardo-turn3", "example:leonardo-turn3-place", "mcts", {"iterations": 300, "seed": 4}),
    ("craftsmen-year2", "example:craftsmen-year2-spring", "ismcts", {"iterations": 200, "seed": 6, "threads": 2}),
    ("craftsmen-auction", "example:craftsmen-auction", "ismcts", {"iterations": 200, "seed": 7}),
]

TIMING = ("seconds", "iterations_per_s")
# Read off the finished tree, added to the result after the golden was taken: not the search.
DERIVED = ("line",)


def run(case, **extra):
    name, pos, algorithm, kw = case
    search = solvers.mcts if algorithm == "mcts" else solvers.ismcts
    r = search(read_position(pos, None), **{**kw, **extra})
    d = r.to_dict()
    for k in TIMING + DERIVED:
        d.pop(k, None)
    # The model's calibration, added after the golden was taken: no model, nothing calibrated.
    assert d.pop("calibrated") is False and all(m.pop("win_raw") is None for m in d["moves"])
    assert all(m.pop("score_raw") is None for m in d["moves"])
    return json.loads(json.dumps(d))


if __name__ == "__main__":
    out = {}
    for c in CASES:   # which evaluation ran is asserted by the test, not pinned
        got = run(c, rollout=c[3].get("rollout", "random"))   # as the test runs it: no model
        out[c[0]] = {k: v for k, v in got.items() if k not in ("evaluation", "model")}
    GOLDEN.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
