"""Generate tests/golden/inventors_perft.json: perft leaf counts of Legendary Inventors positions.

Positions come from seeded random play (fixed seeds, default edition) stopped at several stages
of the game; each is stored as ``to_bytes().hex()`` plus its ``fields()``, with the number of
leaves at depth 1, 2, 3. Counting decisions: perft(s, 0) = 1; at a chance node or a terminal
state perft = 1 (a leaf, we stop there); otherwise perft(s, d) = sum over legal moves m of
perft(child(s, m), d - 1).

Usage: PYTHONPATH=src:tests python tools/make_perft.py [out.json]
Regenerate only when the rules change on purpose, and review the diff.
"""
from __future__ import annotations

import json
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from inventors_helpers import make_setup, perft  # noqa: E402

DEPTH = 3
MAX_LEAVES = 400_000     # skip a position whose depth-3 count would make the test slow
# (players, seed, stage): stage = decisions of random play before stopping, or "reward" (the
# first REWARD phase after 10 decisions), "age2"/"age3" (a state of that age), or "last2" (a
# MAIN state with 2 cards left, so the tree can reach an age end).
STAGES = [(n, seed, stage) for n in (2, 3, 4, 5) for seed in (1, 2)
          for stage in (0, 15, "reward", 60, "age2", "age3", "last2")]


def reach(n, seed, stage):
    rng = random.Random(seed * 7919 + n)
    teams = rng.sample(range(5), n)
    s = make_setup(n, teams)
    st = s.game.initial_state()
    steps = 0
    while not st.is_terminal():
        if st.is_chance():
            st.sample_chance(rng.getrandbits(63))
            continue
        f_phase = st.fields()["phase"]
        if stage == "reward" and f_phase == "REWARD" and steps >= 10:
            break
        if stage in ("age2", "age3") and st.fields()["age"] == int(stage[-1]) and steps % 7 == 0:
            break
        if stage == "last2" and f_phase == "MAIN" and len(st.fields()["display"]) == 2 and steps % 2:
            break
        if isinstance(stage, int) and steps >= stage:
            break
        moves = st.legal_moves()
        st.apply(moves[rng.randrange(len(moves))])
        steps += 1
    return s, teams, st


def main(out):
    positions = []
    for n, seed, stage in STAGES:
        s, teams, st = reach(n, seed, stage)
        counts = [perft(st, d) for d in (1, 2)]
        if counts[1] * max(1, counts[0]) > MAX_LEAVES * 4:
            print(f"skip n={n} seed={seed} stage={stage}: {counts}")
            continue
        counts.append(perft(st, 3))
        if counts[2] > MAX_LEAVES:
            print(f"skip n={n} seed={seed} stage={stage}: {counts}")
            continue
        positions.append({"players": n, "teams": teams, "seed": seed, "stage": stage,
                          "bytes": st.to_bytes().hex(), "fields": st.fields(), "perft": counts})
        print(n, seed, stage, st.fields()["phase"], counts)
    doc = {"about": "Legendary Inventors perft, default edition; see tools/make_perft.py",
           "depths": [1, 2, 3], "positions": positions}
    pathlib.Path(out).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "tests" / "golden" / "inventors_perft.json"))
