"""Generate tests/golden/craftsmen_perft.json: perft leaf counts of Craftsmen positions.

A position is Game.start(seed) plus a move prefix stored as notation (draws as DRAW(..) too;
replayed with parse_move), found by seeded play (the lockstep test's mix of uniform, greedy and
build-and-make moves) at the first state of each decision kind (``kind``) in a game, PER_KIND
positions per kind and player count.
For depth 1-3 the file holds two counts: ``perft`` as the Leonardo/Inventors perft (a chance
node or the end is one leaf) and ``perft_chance`` with chance nodes expanded over their outcomes
(one ply each). Every count of a position with at most MODEL_LEAVES leaves is also recounted
through the independent model (tests/craftsmen_model.py, set up from the core's deal) and the
tool stops if the two disagree; the positions so checked carry "model_checked": true.

Usage: PYTHONPATH=src:tests python tools/make_perft_craftsmen.py [out.json]
Regenerate only when the rules change on purpose, and review the diff.
"""
from __future__ import annotations

import json
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

import craftsmen_model as M  # noqa: E402
from craftsmen_helpers import game, perft, replay  # noqa: E402
from test_craftsmen_lockstep import core_deviation, model_setup, pick  # noqa: E402

DEPTH = 3
MAX_LEAVES = 100_000    # per count: the test recounts every position, < 20 s in all
MODEL_LEAVES = 20_000   # the model (plain Python) recounts the positions up to this size
SEEDS = range(1, 9)
PER_KIND = 2            # positions per decision kind and player count (from different seeds)
MAX_PREFIX = 1500
F_ROUND_END, A_BANK_DISCARD_DONE = 7, 2  # the core's flow cursor and discard continuation


def byte(st, name):
    from atelier._core import craftsmen as C
    return st.to_bytes()[C.LAYOUT[name][0]]


def kind(st):
    """The decision kind of a state: its phase, split where one phase serves several rules."""
    f = st.fields()
    ph = f["phase"]
    if ph == "DISCARD":
        if byte(st, "flow") == F_ROUND_END:
            return "DISCARD_END_OF_ROUND"
        return "DISCARD_BANKER" if byte(st, "disc_after") == A_BANK_DISCARD_DONE else "DISCARD"
    if f["season"] == 3 and ph not in ("CHANCE", "LIMIT", "WINDOW", "PAY", "SEND"):
        return "WINTER_" + ph
    if ph == "BID" and f["context"]["auction_high"] > 1:
        return "BID_RAISED"
    return ph


def model_perft(s, depth, chance):
    if depth == 0 or M.phase(s) == "terminal" or (M.phase(s) == "chance" and not chance):
        return 1
    if M.phase(s) == "chance":
        outs = [M.outcome_to_string(o) for o, _p in M.chance_outcomes(s)]
        if depth == 1:
            return len(outs)
        return sum(model_perft(M.apply_chance(s, t), depth - 1, chance) for t in outs)
    moves = M.legal_moves(s)
    if depth == 1:
        return len(moves)
    return sum(model_perft(M.apply(s, m, check=False), depth - 1, chance) for m in moves)


def model_state(st0, prefix):
    s = model_setup(st0)
    for text in prefix:
        s = M.apply_chance(s, text) if M.phase(s) == "chance" else M.apply(s, text)
    return s


def candidates(n, seed):
    """(kind, prefix) at the first state of every kind in one seeded game."""
    g = game(n)
    rng = random.Random(f"perft-{n}-{seed}")
    st, prefix, seen = g.start(seed), [], set()
    while not st.is_terminal() and len(prefix) < MAX_PREFIX:
        k = kind(st)
        if k not in seen:
            seen.add(k)
            yield k, list(prefix)
        if st.is_chance():
            mv, _p, text = rng.choice(st.chance_outcomes())
        else:
            texts = [st.move_to_string(m) for m in st.legal_moves()]
            text = pick(st, rng, texts, 0.4)
            mv = st.parse_move(text)
        assert core_deviation(st, text) is None
        st.apply(mv)
        prefix.append(text)


def counts(st):
    out = {}
    for chance in (False, True):
        c = []
        for d in range(1, DEPTH + 1):
            c.append(perft(st, d, chance))
            if c[-1] > MAX_LEAVES:
                return None
        out["perft_chance" if chance else "perft"] = c
    return out


def main(out: str) -> None:
    positions = []
    for n in (2, 3, 4, 5):
        done = {}
        for seed in SEEDS:
            for k, prefix in candidates(n, seed):
                if done.get(k, 0) >= PER_KIND:
                    continue
                st = replay(game(n), seed, prefix)
                c = counts(st)
                if c is None:
                    continue
                done[k] = done.get(k, 0) + 1
                checked = max(c["perft_chance"][-1], c["perft"][-1]) <= MODEL_LEAVES
                if checked:
                    s = model_state(game(n).start(seed), prefix)
                    for chance, key in ((False, "perft"), (True, "perft_chance")):
                        got = [model_perft(s, d, chance) for d in range(1, DEPTH + 1)]
                        assert got == c[key], (n, seed, k, key, got, c[key])
                positions.append({"players": n, "seed": seed, "kind": k, "phase": st.fields()["phase"],
                                  "prefix": prefix, **c, "model_checked": checked})
                print(n, seed, k, len(prefix), c, "model" if checked else "", file=sys.stderr)
    head = {"about": "Craftsmen perft, made by tools/make_perft_craftsmen.py", "depth": DEPTH}
    lines = ",\n".join(" " + json.dumps(p) for p in positions)  # one position a line: short diffs
    pathlib.Path(out).write_text(json.dumps(head)[:-1] + ', "positions": [\n' + lines + "\n]}\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "tests" / "golden" / "craftsmen_perft.json"))
