"""Perft for Leonardo da Vinci: the golden file (tests/golden/leonardo_perft.json, made by
tools/make_perft_leonardo.py) holds full positions from seeded play at every kind of decision,
with their leaf counts at depth 1-3 (a draw or the end is one leaf). Each is loaded from its
JSON (so the file also pins the position format) and recounted through the core."""
from __future__ import annotations

import json
import pathlib

import pytest

import atelier
from leonardo_helpers import perft

GOLDEN = pathlib.Path(__file__).parent / "golden" / "leonardo_perft.json"
POSITIONS = json.loads(GOLDEN.read_text())["positions"]
IDS = [f"n{p['players']}-{p['setup']}{'-codex' if p['codex'] else ''}-s{p['seed']}-{p['stage']}"
       for p in POSITIONS]


def test_golden_covers_every_player_count_and_decision_kind():
    assert sorted({p["players"] for p in POSITIONS}) == [2, 3, 4, 5]
    assert {p["phase"] for p in POSITIONS} >= {"FAVOUR", "LAB", "PLACE", "CLAIM", "AREA", "BID", "REORDER"}
    assert len(POSITIONS) >= 40


@pytest.mark.parametrize("p", POSITIONS, ids=IDS)
def test_perft(p):
    s = atelier.load_position(p["position"])
    assert s.fields()["phase"] == p["phase"]
    assert atelier.position_dict(s) == p["position"]
    assert [perft(s, d) for d in (1, 2, 3)] == p["perft"]
