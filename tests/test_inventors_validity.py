"""Spec 4.1 position validity through State.from_fields: a valid base position is accepted, and
each mutation that breaks exactly one 4.1 rule is rejected with ValueError. Boundary cases that
are still valid are accepted (so a loader that rejects too much fails here too)."""
from __future__ import annotations

import copy

import pytest

from inventors_helpers import kind, main_fields, make_setup, play

N = 3
S = make_setup(N, [0, 1, 2], costs={"I03": [2, 0, 1, 2]}, inventors={"gutenberg": {"start": [0, 1, 1, 0]}})
K = N + 3


def base_main():
    return main_fields(
        S, 2, [{"card": "II01", "tokens": ["P2", "AK"], "filled": [1, 0, 1, 0], "cubes": {0: 1, 2: 1}},
               {"card": "II02", "tokens": ["VP1", "ST"]},
               {"card": "II03", "tokens": ["P3", "AV"], "filled": [0, 2, 0, 0], "cubes": {1: 2}}],
        active=1, statuette=0, won={0: ["I01", "I02"], 1: ["II04"], 2: ["I05"]},
        hand={0: {"AK": 1}, 2: {"VP2": 2}}, levels={(1, "gutenberg"): [0, 2, 1, 0]})


def base_reward():
    """A REWARD position after a 3-way tie (S7): seats [1, 0, 2] with the statuette on 1."""
    f = main_fields(
        S, 1, [{"card": "I03", "tokens": ["VP3", "P2"], "filled": [2, 0, 0, 2], "cubes": {0: 2, 1: 1, 2: 1}},
               {"card": "I01", "tokens": ["VP1", "AV"]}, {"card": "I02", "tokens": ["P4", "ST"]}],
        active=1, statuette=0)
    st = S.state(f)
    play(st, "work:gutenberg:I03")
    f = st.fields()
    assert f["phase"] == "REWARD" and list(f["reward"]["seats"]) == [1, 0, 2]
    return f


def accepts(f):
    st = S.state(f)
    assert st.fields()["phase"] == f["phase"]


def rejects(f):
    with pytest.raises(ValueError):
        S.state(f)


def card(cid):
    return S.card(cid)


def test_bases_are_valid():
    accepts(base_main())
    accepts(base_reward())
    accepts(main_fields(S, 2, [], phase="CHANCE_REVEAL"))
    accepts(main_fields(S, 3, [], phase="TERMINAL"))


def m_set(path, value):
    def f(d):
        obj = d
        for p in path[:-1]:
            obj = obj[p]
        obj[path[-1]] = value
    return f


MAIN_BAD = {
    "age 0": m_set(["age"], 0),
    "age 4": m_set(["age"], 4),
    "statuette out of range": m_set(["statuette"], N),
    "active out of range": m_set(["active"], N),
    "level below start": m_set(["levels", 1, 3, 1], 0),  # gutenberg starts at C=1
    "level 5": m_set(["levels", 0, 0, 0], 5),
    "display of 1 card in MAIN": lambda d: d.__setitem__("display", d["display"][:1]),
    "display card of another age": m_set(["display", 1, "card"], card("I07")),
    "filled equals cost": lambda d: (m_set(["display", 1, "filled"], [2, 3, 1, 1])(d),  # II02 cost
                                     m_set(["display", 1, "cubes"], [7, 0, 0])(d)),
    "filled above cost": lambda d: (d["display"][1]["filled"].__setitem__(0, 3),
                                    d["display"][1]["cubes"].__setitem__(0, 3)),
    "cubes do not sum to filled": m_set(["display", 0, "cubes"], [1, 0, 0]),
    "negative cubes": m_set(["display", 0, "cubes"], [3, -1, 0]),
    "display card also won": lambda d: d["won"][2].append(card("II02")),
    "card won twice": lambda d: d["won"][1].append(card("I01")),
    "won card of a later age": lambda d: d["won"][0].append(card("III01")),
    "too many won cards of the current age": lambda d: d["won"][1].extend(
        [card("II05"), card("II06"), card("II07")]),  # 4 > K - |display| = 3
    "bag one short": lambda d: d["bag"].__setitem__(kind("P2"), d["bag"][kind("P2")] - 1),
    "bag one over": lambda d: d["bag"].__setitem__(kind("P2"), d["bag"][kind("P2")] + 1),
    "more tokens of a kind than the edition has": lambda d: d["hand"][1].__setitem__(
        kind("AK"), S.data["token_count"][kind("AK")]),
    "display token pair of 3": m_set(["display", 1, "tokens"], [3, 8, 8]),
    "phase TERMINAL at age 2 (bag of age 2)": lambda d: d.update(
        main_fields(S, 2, [], phase="TERMINAL")),
}


@pytest.mark.parametrize("name", list(MAIN_BAD))
def test_main_violations_rejected(name):
    f = base_main()
    MAIN_BAD[name](f)
    rejects(f)


MAIN_OK = {
    "3 won cards of the current age (= K - |display|)": lambda d: d["won"][1].extend(
        [card("II05"), card("II06")]),
    "display of 2 cards": lambda d: d.__setitem__("display", d["display"][1:]),
    "active differs from statuette in MAIN": m_set(["active"], 2),
    "a level at 4": m_set(["levels", 0, 0, 0], 4),
}


@pytest.mark.parametrize("name", list(MAIN_OK))
def test_main_boundaries_accepted(name):
    f = base_main()
    MAIN_OK[name](f)
    accepts(f)


def _reward_wrong_order(d):
    d["reward"]["seats"] = [0, 1, 2]


REWARD_BAD = {
    "active differs from statuette": m_set(["active"], 2),
    "seats not in 5.7.3 order": _reward_wrong_order,
    "seats for another holder": lambda d: (d.__setitem__("statuette", 0), d.__setitem__("active", 0)),
    "index past the list": m_set(["reward", "index"], 3),
    "rewards left do not match the index": lambda d: (d["reward"].__setitem__("index", 1)),
    "reward card also on display": m_set(["reward", "card"], card("I01")),
    "reward card also won": lambda d: d["won"][2].append(card("I03")),
    "empty display in REWARD": lambda d: d.__setitem__("display", []),
}


@pytest.mark.parametrize("name", list(REWARD_BAD))
def test_reward_violations_rejected(name):
    f = base_reward()
    REWARD_BAD[name](f)
    rejects(f)


def test_chance_and_terminal_rules():
    f = main_fields(S, 2, [], phase="CHANCE_REVEAL")
    g = copy.deepcopy(f)
    g["bag"] = main_fields(S, 2, [], phase="TERMINAL")["bag"]  # the bag of after the reveal
    rejects(g)
    g = copy.deepcopy(f)
    g["active"] = (g["statuette"] + 1) % N
    rejects(g)
    f = main_fields(S, 3, [], phase="TERMINAL")
    g = copy.deepcopy(f)
    g["display"] = base_main()["display"]
    rejects(g)
