"""Helpers for the Leonardo da Vinci tests: the default edition, games, and driving a state
to a chosen decision by notation."""
import json
import pathlib

from atelier._core import leonardo as L

EDITION_PATH = pathlib.Path(__file__).resolve().parents[1] / "src/atelier/data/editions/leonardo.json"


def edition():
    return json.loads(EDITION_PATH.read_text())


def game(players, basic=False, codex=False, ed=None):
    return L.Game(players, ed if ed is not None else edition(), basic=basic, codex=codex)


def moves(state):
    return state.legal_move_strings()


def play(state, *texts):
    for t in texts:
        state.apply(t)
    return state


def skip_phase_a(state):
    """Keep every working lab and start nothing, until Phase A is over."""
    while state.fields()["phase"] == "LAB":
        ms = moves(state)
        pick = next(m for m in ms if m.startswith("keep:") or m.endswith(":none"))
        state.apply(pick)
    return state


def basic_at_b(n, seed=0, codex=False, **fields):
    """A basic-setup game at turn 1 Phase B (nothing started), with fields replaced."""
    s = skip_phase_a(game(n, basic=True, codex=codex).start(seed))
    assert s.fields()["phase"] == "PLACE"
    return s.with_fields(fields) if fields else s


def all_pass(state):
    while state.fields()["phase"] == "PLACE":
        state.apply("pass")
    return state


def player(state, p):
    return state.fields()["players"][p]


def perft(st, depth):
    """Decision leaves below `st` (a draw or the end is one leaf): the count the golden file
    holds (tools/make_perft_leonardo.py writes it, test_leonardo_perft.py recomputes it)."""
    if depth == 0 or st.is_chance() or st.is_terminal():
        return 1
    if depth == 1:
        return len(st.legal_moves())
    return sum(perft(st.child(m), depth - 1) for m in st.legal_moves())
