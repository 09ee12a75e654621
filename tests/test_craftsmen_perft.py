"""Perft for Craftsmen: the golden file (tests/golden/craftsmen_perft.json, made by
tools/make_perft_craftsmen.py) holds positions given as Game.start(seed) plus a move prefix in
notation (draws included), one or two per decision kind and player count, with their leaf counts
at depth 1-3: ``perft`` counts a chance node or the end as one leaf (as the Leonardo and
Inventors perft), ``perft_chance`` expands chance nodes over their outcomes. The generator
recounted every position through the independent model (``model_checked``)."""
from __future__ import annotations

import json
import pathlib

import pytest

from craftsmen_helpers import game, perft, replay

GOLDEN = pathlib.Path(__file__).parent / "golden" / "craftsmen_perft.json"
POSITIONS = json.loads(GOLDEN.read_text())["positions"]
IDS = [f"n{p['players']}-s{p['seed']}-{p['kind']}" for p in POSITIONS]
_GAMES = {}


def core_game(n):
    if n not in _GAMES:
        _GAMES[n] = game(n)
    return _GAMES[n]


def test_golden_covers_every_player_count_and_decision_kind():
    kinds = {p["kind"] for p in POSITIONS}
    assert sorted({p["players"] for p in POSITIONS}) == [2, 3, 4, 5]
    assert kinds >= {"MULLIGAN", "HELPER", "STACK", "STACK_PAY", "BANK1", "BANK2", "BANK_PRIV",
                     "DISCARD_BANKER", "BUILD1", "BUILD2", "PAY", "NOTARY1", "NOTARY2", "NOTARY3",
                     "BID", "BID_RAISED", "MAYOR_BID", "KEEP", "RETURN", "CRAFT", "WPUSE", "SEND",
                     "REWARD", "LOAD", "MERCH", "MERCH_PAY", "TOWN", "WINDOW", "LIMIT", "CHANCE",
                     "DISCARD_END_OF_ROUND", "WINTER_BUILD1", "WINTER_CRAFT", "WINTER_CONTRIB"}
    assert all(p["model_checked"] for p in POSITIONS)
    # the counts differ from one convention to the other somewhere: chance nodes were expanded
    assert any(p["perft"] != p["perft_chance"] for p in POSITIONS)


@pytest.mark.parametrize("p", POSITIONS, ids=IDS)
def test_perft(p):
    st = replay(core_game(p["players"]), p["seed"], p["prefix"])
    assert st.fields()["phase"] == p["phase"]
    assert [perft(st, d) for d in (1, 2, 3)] == p["perft"]
    assert [perft(st, d, chance=True) for d in (1, 2, 3)] == p["perft_chance"]
