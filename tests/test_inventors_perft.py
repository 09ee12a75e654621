"""Perft for Legendary Inventors.

1. The golden file (tests/golden/inventors_perft.json, made by tools/make_perft.py) is recomputed
   through the core: leaf counts at depth 1-3 (a chance node or terminal state is one leaf).
2. Depth 1-2 (and 3 for trees of <= 3000 leaves) are recomputed by the independent plain-Python model (inventors_model.py, written
   from spec §5: free plays, WORK with AK extras, REST, rewards), which generates AND applies the
   moves itself. This is the test that catches move-generation bugs in the core.
"""
from __future__ import annotations

import json
import pathlib
from functools import lru_cache

import pytest

from inventors_helpers import make_setup, norm, perft
import inventors_model as model

GOLDEN = pathlib.Path(__file__).parent / "golden" / "inventors_perft.json"
POSITIONS = json.loads(GOLDEN.read_text())["positions"]
IDS = [f"n{p['players']}-s{p['seed']}-{p['stage']}" for p in POSITIONS]


@lru_cache(maxsize=None)
def setup(n, teams):
    return make_setup(n, list(teams))


def load(p):
    s = setup(p["players"], tuple(p["teams"]))
    st = type(s.game.initial_state()).from_bytes(s.game, bytes.fromhex(p["bytes"]))
    return s, st


def model_perft(data, teams, f, depth):
    if depth == 0 or f["phase"] in ("CHANCE_REVEAL", "TERMINAL"):
        return 1
    moves = model.legal_moves(data, teams, f)
    assert moves, "the model finds no move at a decision point"
    if depth == 1:
        return len(moves)
    return sum(model_perft(data, teams, model.apply(data, teams, f, m), depth - 1) for m in moves)


def test_golden_covers_all_player_counts():
    assert sorted({p["players"] for p in POSITIONS}) == [2, 3, 4, 5]
    assert {p["fields"]["phase"] for p in POSITIONS} >= {"MAIN", "REWARD"}
    assert len(POSITIONS) >= 40


@pytest.mark.parametrize("p", POSITIONS, ids=IDS)
def test_perft_core(p):
    s, st = load(p)
    assert norm(st.fields()) == norm(p["fields"])
    assert type(st).from_fields(s.game, p["fields"]) == st
    assert [perft(st, d) for d in (1, 2, 3)] == p["perft"]


@pytest.mark.parametrize("p", POSITIONS, ids=IDS)
def test_perft_model(p):
    s, st = load(p)
    f = st.fields()
    teams = list(p["teams"])
    assert model.legal_moves(s.data, teams, f) == [st.move_to_string(m).lower() for m in st.legal_moves()]
    assert [model_perft(s.data, teams, f, d) for d in (1, 2)] == p["perft"][:2]
    if p["perft"][2] <= 3000:  # small trees: depth 3 too
        assert model_perft(s.data, teams, f, 3) == p["perft"][2]
