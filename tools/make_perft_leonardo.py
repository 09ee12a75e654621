"""Generate tests/golden/leonardo_perft.json: perft leaf counts of Leonardo da Vinci positions.

Positions come from seeded play (mostly the greedy bot, so that labs work, inventions complete
and auctions run; default edition) stopped at a stage of the game; each is stored as its full
position JSON (docs/positions-leonardo.md: a user contract, so the golden file also pins the
format) with the number of leaves at depth 1, 2, 3. perft(s, 0) = 1; a draw (chance node) or
the end is one leaf; otherwise perft(s, d) = sum over legal moves m of perft(child(s, m), d - 1).

Usage: PYTHONPATH=src:tests python tools/make_perft_leonardo.py [out.json]
Regenerate only when the rules change on purpose, and review the diff.
"""
from __future__ import annotations

import json
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

import atelier  # noqa: E402
from leonardo_helpers import perft  # noqa: E402

DEPTH = 3
MAX_LEAVES = 300_000     # skip a position whose depth-3 count would make the test slow
# Stages: the phase to stop in (the first time it comes after `after` decisions), per config.
STAGES = ("FAVOUR", "LAB", "PLACE", "CLAIM", "AREA", "BID", "REORDER", "late")
CONFIGS = [(2, "expert", False), (3, "basic", False), (3, "expert", True), (4, "expert", False),
           (4, "basic", True), (5, "expert", False)]


def reach(n, setup, codex, seed, stage):
    rng = random.Random(seed * 7919 + n)
    s = atelier.open("leonardo", players=n, seed=seed, setup=setup, codex=codex).start()
    steps = 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(rng.getrandbits(63))
            continue
        f = s.fields()
        if stage == "late" and f["turn"] >= 8 and f["phase"] == "PLACE":
            return s
        if stage == f["phase"] and (stage == "FAVOUR" or steps >= 3 + seed):
            return s
        s.apply(s.greedy_move(rng.getrandbits(32)) if rng.random() < 0.8 else rng.choice(s.legal_moves()))
        steps += 1
    return None


def main(out: str) -> None:
    positions = []
    for n, setup, codex in CONFIGS:
        for seed in (1, 2):
            for stage in STAGES:
                s = reach(n, setup, codex, seed, stage)
                if s is None:
                    continue
                counts = [perft(s, d) for d in (1, 2)]
                if counts[1] * max(1, counts[1] // max(counts[0], 1)) > MAX_LEAVES:
                    continue
                counts.append(perft(s, DEPTH))
                if counts[2] > MAX_LEAVES:
                    continue
                positions.append({"players": n, "setup": setup, "codex": codex, "seed": seed,
                                  "stage": stage, "phase": s.fields()["phase"],
                                  "position": atelier.position_dict(s), "perft": counts})
                print(n, setup, codex, seed, stage, counts, file=sys.stderr)
    doc = {"about": "Leonardo da Vinci perft, made by tools/make_perft_leonardo.py",
           "depth": DEPTH, "positions": positions}
    pathlib.Path(out).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "tests" / "golden" / "leonardo_perft.json"))
