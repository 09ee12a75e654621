"""Spec §9 worked scenarios S1-S20 (docs/rules/inventors.md), one test each, plus the §7.4
suite oracle against the core. Positions are built with State.from_fields (helpers in
inventors_helpers.py); scenario costs given inline in the spec are forced through a test edition
even where they equal the default, so the test states its own premises."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from inventors_helpers import KINDS, kind, main_fields, make_setup, moves_text, play
from inventors_model import reveal_text, reward_order, score_detail, suite_oracle, token_prob

GREEN, BLUE, YELLOW, PURPLE, RED = range(5)


def fields(st):
    return st.fields()


def disp(f, s, card_id):
    """The display entry of a card (by id) in fields f."""
    idx = s.card(card_id)
    for d in f["display"]:
        if d["card"] == idx:
            return d
    return None


def busy_of(f, s, seat, inv_id):
    return bool(f["busy"][seat][s.inv(seat, inv_id)])


def level_of(f, s, seat, inv_id):
    return list(f["levels"][seat][s.inv(seat, inv_id)])


# ------------------------------------------------------------------------------ S1

def test_s01_basic_work():
    s = make_setup(2, [RED, YELLOW], costs={"II11": [2, 0, 2, 3]},
                   inventors={"tesla": {"start": [0, 0, 2, 0]}})
    st = s.state(main_fields(s, 2, [{"card": "II11", "tokens": ["P2", "AV"]},
                                    {"card": "II02", "tokens": ["P3", "VP1"]}]))
    play(st, "work:tesla:II11")
    f = fields(st)
    w = disp(f, s, "II11")
    assert w["filled"] == [0, 0, 2, 0]  # base [0,0,2,0]
    assert [c - x for c, x in zip([2, 0, 2, 3], w["filled"])] == [2, 0, 0, 3]
    assert w["cubes"] == [2, 0]
    assert busy_of(f, s, 0, "tesla")
    assert f["phase"] == "MAIN" and f["active"] == 1 and len(f["display"]) == 2
    assert st.current_player == 1


# ------------------------------------------------------------------------------ S2

def test_s02_excess_knowledge_completion_tie_order():
    s = make_setup(3, [GREEN, BLUE, PURPLE], costs={"I11": [3, 1, 0, 1]})
    st = s.state(main_fields(
        s, 1, [{"card": "I11", "tokens": ["P2", "VP1"], "filled": [1, 0, 0, 1], "cubes": {0: 1, 1: 1}},
               {"card": "I01", "tokens": ["P3", "AV"]}, {"card": "I02", "tokens": ["AK", "ST"]},
               {"card": "I03", "tokens": ["VP2", "VP3"]}],
        active=2, statuette=0, levels={(2, "franklin"): [3, 1, 1, 0]}))
    play(st, "work:franklin:I11")
    f = fields(st)
    assert f["phase"] == "REWARD"
    assert f["statuette"] == 2
    rw = f["reward"]
    assert rw["card"] == s.card("I11")
    assert list(rw["cubes"]) == [1, 1, 3]  # base [2,1,0,0] = 3 cubes
    assert list(rw["seats"]) == [2, 0, 1]
    assert level_of(f, s, 2, "franklin") == [3, 1, 1, 0]
    for seat, move in ((2, "take:card"), (0, "take:P2"), (1, "take:VP1")):
        assert st.current_player == seat
        play(st, move)
    f = fields(st)
    assert f["phase"] == "MAIN" and f["reward"] is None
    assert len(f["display"]) == 3 and disp(f, s, "I11") is None
    assert all(sum(d["cubes"]) == 0 for d in f["display"])
    assert f["active"] == 0
    assert s.card("I11") in f["won"][2]


# ------------------------------------------------------------------------------ S3

def _s03_state(ak):
    s = make_setup(2, [YELLOW, RED], costs={"II09": [2, 3, 0, 2]},
                   inventors={"boyle": {"start": [0, 2, 0, 0]}})
    st = s.state(main_fields(
        s, 2, [{"card": "II09", "tokens": ["P2", "P3"], "filled": [0, 3, 0, 0], "cubes": {1: 3}},
               {"card": "II01", "tokens": ["VP1", "AV"]}, {"card": "II05", "tokens": ["P4", "ST"]}],
        hand={0: {"AK": ak}} if ak else None))
    return s, st


def test_s03_zero_cube_work_illegal_ak_makes_legal():
    s, st = _s03_state(0)
    assert not [m for m in moves_text(st) if m.startswith("work:boyle:ii09")]
    s, st = _s03_state(1)
    assert [m for m in moves_text(st) if m.startswith("work:boyle:ii09")] == [
        "work:boyle:ii09+p+p", "work:boyle:ii09+p+ma", "work:boyle:ii09+ma+ma"]
    before = fields(st)
    play(st, "work:boyle:II09+P+Ma")
    f = fields(st)
    w = disp(f, s, "II09")
    assert w["filled"] == [1, 3, 0, 1]
    assert w["cubes"][0] == disp(before, s, "II09")["cubes"][0] + 2
    assert busy_of(f, s, 0, "boyle")
    assert f["hand"][0][kind("AK")] == 0
    assert f["bag"] == before["bag"]


# ------------------------------------------------------------------------------ S4

def _s04_state(filled):
    s = make_setup(2, [RED, YELLOW], costs={"II01": [1, 0, 4, 2]},
                   inventors={"tesla": {"start": [0, 0, 2, 0]}})
    st = s.state(main_fields(
        s, 2, [{"card": "II01", "tokens": ["P2", "P3"], "filled": filled, "cubes": {1: sum(filled)}},
               {"card": "II02", "tokens": ["VP1", "AV"]}, {"card": "II05", "tokens": ["P4", "ST"]}],
        hand={0: {"AK": 2}}))
    return s, st


def test_s04_ak_one_space_left_completes():
    s, st = _s04_state([1, 0, 3, 1])
    assert [m for m in moves_text(st) if m.startswith("work:tesla:ii01")] == [
        "work:tesla:ii01", "work:tesla:ii01+ma"]
    none = st.clone()
    play(none, "work:tesla:II01")
    f = fields(none)
    assert f["phase"] == "MAIN" and disp(f, s, "II01")["filled"] == [1, 0, 4, 1]
    assert disp(f, s, "II01")["cubes"][0] == 1
    play(st, "work:tesla:II01+Ma")
    f = fields(st)
    assert f["phase"] == "REWARD" and f["reward"]["card"] == s.card("II01")
    assert list(f["reward"]["cubes"]) == [2, 5]  # 1 M + 1 Ma
    assert f["hand"][0][kind("AK")] == 1
    # filled [1,0,3,2]: the base placement completes it, no AK variant.
    s, st = _s04_state([1, 0, 3, 2])
    assert [m for m in moves_text(st) if m.startswith("work:tesla:ii01")] == ["work:tesla:ii01"]
    play(st, "work:tesla:II01")
    assert fields(st)["phase"] == "REWARD"
    assert fields(st)["hand"][0][kind("AK")] == 2


# ------------------------------------------------------------------------------ S5, S6

def test_s05_tie_break_excludes_a_player():
    s = make_setup(4, [GREEN, BLUE, YELLOW, PURPLE], costs={"III09": [2, 2, 2, 3]},
                   inventors={"pascal": {"start": [0, 0, 1, 1]}})
    st = s.state(main_fields(
        s, 3, [{"card": "III09", "tokens": ["P2", "P3"], "filled": [2, 2, 2, 2],
                "cubes": {0: 3, 1: 2, 2: 1, 3: 2}},
               {"card": "III01", "tokens": ["VP1", "AV"]}, {"card": "III02", "tokens": ["P4", "ST"]}],
        active=2, statuette=1))
    play(st, "work:pascal:III09")
    f = fields(st)
    assert f["statuette"] == 2
    assert list(f["reward"]["cubes"]) == [3, 2, 2, 2]
    assert list(f["reward"]["seats"]) == [0, 2, 3]
    for seat in (0, 2, 3):
        assert st.current_player == seat
        st.apply(st.legal_moves()[0])
    f = fields(st)
    assert f["phase"] == "MAIN" and f["active"] == 3
    assert f["won"][1] == [] and f["hand"][1] == [0] * 9


def test_s06_completer_can_miss_out():
    s = make_setup(5, [GREEN, BLUE, YELLOW, PURPLE, RED], costs={"III09": [2, 2, 2, 3]},
                   inventors={"einstein": {"start": [1, 0, 0, 1]}})
    st = s.state(main_fields(
        s, 3, [{"card": "III09", "tokens": ["P2", "P3"], "filled": [2, 2, 2, 2],
                "cubes": {0: 3, 1: 3, 2: 2}},
               {"card": "III01", "tokens": ["VP1", "AV"]}, {"card": "III02", "tokens": ["P4", "ST"]}],
        active=4, statuette=2))
    play(st, "work:einstein:III09")
    f = fields(st)
    assert f["statuette"] == 4
    assert list(f["reward"]["cubes"]) == [3, 3, 2, 0, 1]
    assert list(f["reward"]["seats"]) == [0, 1, 2]
    before = fields(st)
    for seat in (0, 1, 2):
        assert st.current_player == seat
        st.apply(st.legal_moves()[0])
    f = fields(st)
    assert f["won"][4] == before["won"][4] and f["hand"][4] == before["hand"][4]
    assert f["phase"] == "MAIN" and f["active"] == 0


# ------------------------------------------------------------------------------ S7, S8

def test_s07_two_contributors_and_three_player_tie():
    s = make_setup(2, [GREEN, BLUE], costs={"I03": [2, 0, 1, 2]},
                   inventors={"gutenberg": {"start": [0, 1, 1, 0]}})
    st = s.state(main_fields(
        s, 1, [{"card": "I03", "tokens": ["VP3", "P2"], "filled": [2, 0, 0, 2], "cubes": {0: 3, 1: 1}},
               {"card": "I01", "tokens": ["VP1", "AV"]}, {"card": "I02", "tokens": ["P4", "ST"]}],
        active=1, statuette=0))
    before = fields(st)
    play(st, "work:gutenberg:I03")
    f = fields(st)
    assert list(f["reward"]["cubes"]) == [3, 2]
    assert list(f["reward"]["seats"]) == [0, 1]
    assert st.current_player == 0
    play(st, "take:VP3")
    assert st.current_player == 1
    assert moves_text(st) == ["take:card", "take:p2"]
    play(st, "take:card")
    f = fields(st)
    assert f["bag"] == before["bag"]
    assert [h[kind("P2")] for h in f["hand"]] == [h[kind("P2")] for h in before["hand"]]
    assert f["hand"][0][kind("VP3")] == 1 and s.card("I03") in f["won"][1]
    assert f["reward"] is None and f["phase"] == "MAIN"

    # tie case: 3 players, 5-space card completed by seat 1, counts 2/2/1 -> 1, 0, 2
    s = make_setup(3, [GREEN, BLUE, YELLOW], costs={"I03": [2, 0, 1, 2]},
                   inventors={"gutenberg": {"start": [0, 1, 1, 0]}})
    st = s.state(main_fields(
        s, 1, [{"card": "I03", "tokens": ["VP3", "P2"], "filled": [2, 0, 0, 2],
                "cubes": {0: 2, 1: 1, 2: 1}},
               {"card": "I01", "tokens": ["VP1", "AV"]}, {"card": "I02", "tokens": ["P4", "ST"]}],
        active=1, statuette=0))
    play(st, "work:gutenberg:I03")
    f = fields(st)
    assert list(f["reward"]["cubes"]) == [2, 2, 1]
    assert list(f["reward"]["seats"]) == [1, 0, 2]


def test_s08_one_contributor():
    s = make_setup(4, [GREEN, BLUE, YELLOW, PURPLE], costs={"I03": [2, 0, 1, 2]},
                   inventors={"watt": {"start": [1, 0, 1, 0]}})
    st = s.state(main_fields(
        s, 1, [{"card": "I03", "tokens": ["P2", "VP1"], "filled": [2, 0, 0, 2], "cubes": {3: 4}},
               {"card": "I01", "tokens": ["VP2", "AV"]}, {"card": "I02", "tokens": ["P4", "ST"]}],
        active=3, statuette=0))
    before = fields(st)
    play(st, "work:watt:I03")
    assert list(fields(st)["reward"]["seats"]) == [3]
    assert moves_text(st) == ["take:card", "take:p2", "take:vp1"]
    play(st, "take:P2")
    f = fields(st)
    assert f["phase"] == "MAIN" and f["reward"] is None and f["active"] == 0
    assert all(s.card("I03") not in w for w in f["won"])
    assert f["hand"][3][kind("P2")] == 1
    assert sum(h[kind("VP1")] for h in f["hand"]) == 0
    assert f["bag"] == before["bag"]
    assert len(f["display"]) == 2


# ------------------------------------------------------------------------------ S9, S10

def assert_bag_premise(s, f, size):
    """The bag main_fields built, recomputed here from the edition counts rather than trusted:
    `size` tokens (the spec's number), no kind above what the edition has once the display's
    and the hands' tokens are counted; and the core itself rejects a bag one token off, so the
    size is the rules' (spec 4.1), not the helper's choice."""
    assert sum(f["bag"]) == size
    for k in range(9):
        out = sum(list(d["tokens"]).count(k) for d in f["display"]) + sum(h[k] for h in f["hand"])
        assert 0 <= f["bag"][k] <= s.data["token_count"][k] - out, KINDS[k]
    for delta in (-1, 1):
        k = max(range(9), key=lambda i: f["bag"][i]) if delta < 0 else \
            next(i for i in range(9) if f["bag"][i] < s.data["token_count"][i])
        off = dict(f, bag=[b + (delta if i == k else 0) for i, b in enumerate(f["bag"])])
        with pytest.raises(ValueError, match="bag"):
            s.state(off)


def test_s09_end_of_age():
    s = make_setup(2, [YELLOW, RED], costs={"I04": [0, 1, 3, 1], "I01": [1, 0, 2, 2]},
                   inventors={"galileo": {"start": [1, 1, 0, 0]}})
    st = s.state(main_fields(
        s, 1, [{"card": "I04", "tokens": ["AV", "ST"], "filled": [0, 1, 2, 0], "cubes": {0: 2, 1: 1}},
               {"card": "I01", "tokens": ["P2", "VP1"], "filled": [0, 0, 2, 2], "cubes": {0: 4}}],
        active=0, statuette=1, busy={1: ["tesla"]}, won={0: ["I02", "I05"], 1: ["I06"]}))
    before = fields(st)
    assert_bag_premise(s, before, 52 - 2 * 5 * 1)  # 42: Age I drew 5 cards x 2 tokens
    play(st, "work:galileo:I01")  # the 4th completion of Age I
    play(st, "take:card")
    f = fields(st)
    assert f["phase"] == "CHANCE_REVEAL" and st.is_chance() and st.current_player == -1
    assert f["age"] == 2 and f["display"] == [] and f["reward"] is None
    assert f["bag"] == before["bag"]  # Wheel's AV and ST are not returned
    assert sum(h[kind("AV")] + h[kind("ST")] for h in f["hand"]) == 0
    assert all(s.card("I04") not in w for w in f["won"])
    assert f["statuette"] == 0
    st.sample_chance(7)
    f = fields(st)
    assert f["phase"] == "MAIN" and f["age"] == 2
    assert len(f["display"]) == 5 and all(s.data["cards"][d["card"]]["age"] == 2 for d in f["display"])
    assert sum(len(d["tokens"]) for d in f["display"]) == 10
    drawn = [sum(list(d["tokens"]).count(k) for d in f["display"]) for k in range(9)]
    assert f["bag"] == [b - x for b, x in zip(before["bag"], drawn)]  # the 10 came from the bag
    assert sum(f["bag"]) == 32
    assert busy_of(f, s, 1, "tesla")
    assert f["active"] == 1 and st.current_player == 1


def test_s10_end_of_game():
    s = make_setup(2, [YELLOW, RED], costs={"III01": [1, 2, 4, 2]},
                   inventors={"pascal": {"start": [0, 0, 1, 1]}})
    st = s.state(main_fields(
        s, 3, [{"card": "III01", "tokens": ["P2", "P3"], "filled": [1, 2, 4, 1], "cubes": {0: 8}},
               {"card": "III02", "tokens": ["VP1", "AV"]}],
        won={0: ["III03", "III04"], 1: ["III05"]}))
    before = fields(st)
    assert_bag_premise(s, before, 52 - 2 * 5 * 3)  # 22: three reveals of 5 cards x 2 tokens
    play(st, "work:pascal:III01")
    play(st, "take:P2")
    f = fields(st)
    assert f["phase"] == "TERMINAL" and st.is_terminal() and st.current_player == -2
    assert st.legal_moves() == []
    assert f["bag"] == before["bag"]  # nothing returns to the bag: it ends at 52 - 30
    assert sum(f["bag"]) == 22
    assert f["hand"][0][kind("P2")] == 1
    d = st.score_detail(0)
    assert d["vp_tokens"] == 0
    without = dict(f, hand=[[0] * 9, f["hand"][1]])
    assert d["total"] == score_detail(s.data, s.game.teams, without, 0)["total"]


# ------------------------------------------------------------------------------ S11-S14

def _s11_state(busy):
    s = make_setup(2, [YELLOW, RED], inventors={"galileo": {"start": [1, 1, 0, 0]}})
    st = s.state(main_fields(s, 1, [{"card": "I01", "tokens": ["P2", "AV"]},
                                    {"card": "I02", "tokens": ["P3", "ST"]}],
                             busy={0: ["galileo"]} if busy else None,
                             hand={0: {"VP1": 1, "P2": 1, "P3": 1, "P4": 1}}))
    return s, st


@pytest.mark.parametrize("busy", [False, True])
def test_s11_progression_chains(busy):
    s, st = _s11_state(busy)
    gal = [m for m in moves_text(st) if m.startswith("front:") and m.split(":")[2] == "galileo"]
    assert gal == ["front:p2:galileo:p", "front:p2:galileo:c"]
    vp_before = st.score_detail(0)["vp_tokens"]
    steps = [("front:P2:galileo:P", [2, 1, 0, 0]), ("front:P3:galileo:P", [3, 1, 0, 0]),
             ("back:VP1:galileo:Ma", [3, 1, 0, 1]), ("front:P4:galileo:P", [4, 1, 0, 1])]
    for move, lv in steps:
        play(st, move)
        f = fields(st)
        assert level_of(f, s, 0, "galileo") == lv
        assert f["phase"] == "MAIN" and f["active"] == 0
    assert st.score_detail(0)["vp_tokens"] == vp_before - 1
    assert fields(st)["hand"][0] == [0] * 9
    assert busy_of(fields(st), s, 0, "galileo") == busy


def _s12_state():
    s = make_setup(2, [YELLOW, RED])
    st = s.state(main_fields(s, 1, [{"card": "I01", "tokens": ["P2", "P3"]},
                                    {"card": "I02", "tokens": ["VP1", "ST"]}],
                             busy={0: ["boyle", "newton", "galileo", "pascal"]},
                             hand={0: {"AV": 1}}))
    return s, st


def test_s12_availability():
    s, st = _s12_state()
    f = fields(st)
    ids = [x.lower() for x in s.data["inventor_ids"][YELLOW]]
    backs = [f"back:av:{ids[i]}:{dn}" for i in range(4) for d, dn in enumerate(["p", "c", "m", "ma"])
             if f["levels"][0][i][d] == 0]
    assert moves_text(st) == backs + ["avail", "rest"]
    rest = st.clone()
    play(st, "avail")
    f = fields(st)
    assert f["busy"][0] == [False] * 4
    assert f["hand"][0][kind("AV")] == 0
    assert f["bag"] == fields(rest)["bag"]
    mv = moves_text(st)
    assert "rest" not in mv and mv and all(m.startswith("work:") for m in mv)
    play(rest, "rest")
    f = fields(rest)
    assert f["hand"][0][kind("AV")] == 1 and f["busy"][0] == [False] * 4 and f["active"] == 1


def _s13_state(hand):
    s = make_setup(2, [YELLOW, RED], inventors={"boyle": {"start": [0, 2, 0, 0]}},
                   costs={"I01": [1, 0, 2, 2], "I04": [0, 1, 3, 1], "I05": [1, 3, 0, 1]})
    st = s.state(main_fields(
        s, 1, [{"card": "I01", "tokens": ["P2", "P3"]},
               {"card": "I04", "tokens": ["VP2", "AV"], "filled": [0, 1, 0, 0], "cubes": {1: 1}},
               {"card": "I05", "tokens": ["VP1", "ST"], "filled": [0, 3, 0, 0], "cubes": {1: 3}}],
        busy={0: ["newton", "galileo", "pascal"]}, hand={0: hand}))
    return s, st


def test_s13_only_rest():
    s, st = _s13_state({})
    assert moves_text(st) == ["rest"]
    s, st = _s13_state({"VP1": 1})
    f = fields(st)
    ids = [x.lower() for x in s.data["inventor_ids"][YELLOW]]
    backs = [f"back:vp1:{ids[i]}:{dn}" for i in range(4) for d, dn in enumerate(["p", "c", "m", "ma"])
             if f["levels"][0][i][d] == 0]
    assert moves_text(st) == backs + ["rest"]
    play(st, "back:VP1:boyle:P")
    works = [m for m in moves_text(st) if m.startswith("work:")]
    assert works == ["work:boyle:i01", "work:boyle:i05"]  # I04 has no physics space


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_s14_rest_needs_busy(n):
    s = make_setup(n, list(range(n)))
    for seed in range(5):
        st = s.game.initial_state()
        assert st.is_chance()
        st.sample_chance(seed)
        assert st.current_player == 0
        mv = moves_text(st)
        assert mv and "rest" not in mv


# ------------------------------------------------------------------------------ S15-S17

def pick_cards(s, types):
    """Distinct card indices with the given types, spread over the ages."""
    per_age = {1: 0, 2: 0, 3: 0}
    used = set()
    out = []
    for t in types:
        for age in sorted(per_age, key=lambda a: (per_age[a], a)):
            cand = [c for c in range(36) if c not in used and s.data["cards"][c]["type"] == t
                    and s.data["cards"][c]["age"] == age]
            if cand:
                out.append(cand[0])
                used.add(cand[0])
                per_age[age] += 1
                break
        else:
            raise AssertionError("no card left of type %d" % t)
    return out


def terminal_state(s, **kw):
    return s.state(main_fields(s, 3, [], phase="TERMINAL", **kw))


S15_TABLE = [
    ([0, 1, 2], 0, 2), ([0, 2, 3, 4, 5], 0, 0), ([0, 2, 3], 1, 3), ([0, 1, 2, 3, 4, 5], 0, 5),
    ([0, 1, 2, 3, 4, 5], 1, 6), ([0, 0, 1, 1, 2], 0, 3), ([0, 0, 0, 1, 1, 2], 0, 3),
    ([1, 2, 3], 1, 3), ([], 2, 1), ([], 1, 0), ([0, 2, 4], 2, 4), ([0, 0, 2, 2], 1, 2),
    ([0, 1, 2, 3, 4, 5, 0, 1, 2], 1, 8), ([0], 0, 0),
]


@pytest.mark.parametrize("types,stars,score", S15_TABLE)
def test_s15_suite_scoring(types, stars, score):
    # The brute-force oracle must reproduce the spec's table: it is the reference the random
    # test below holds the core to.
    assert suite_oracle(types, stars) == score
    s = make_setup(5, [GREEN, BLUE, YELLOW, PURPLE, RED])
    cards = pick_cards(s, types)
    st = terminal_state(s, won={0: cards}, hand={0: {"ST": stars}} if stars else None)
    d = st.score_detail(0)
    assert d["suites"] == score
    assert d["cards"] == sum(s.data["cards"][c]["age"] for c in cards)
    assert d["n_cards"] == len(types)


def test_s15_suite_oracle_random():
    """Spec 7.4: the core's DP agrees with the brute-force oracle on random inputs."""
    s = make_setup(5, [GREEN, BLUE, YELLOW, PURPLE, RED])
    rng = random.Random(715)
    for _ in range(120):
        # A reachable terminal: each age has K-1 = 7 completions, so at most 7 won cards per age.
        pool = [c for a in range(3) for c in rng.sample(range(12 * a, 12 * a + 12), 7)]
        rng.shuffle(pool)
        stars_left = s.data["token_count"][kind("ST")]
        won, hand = {}, {}
        for seat in range(5):
            take = rng.randint(0, min(12, len(pool)))
            won[seat], pool = pool[:take], pool[take:]
            st_n = rng.randint(0, stars_left)
            stars_left -= st_n
            hand[seat] = {"ST": st_n}
        st = terminal_state(s, won=won, hand=hand)
        for seat in range(5):
            types = [s.data["cards"][c]["type"] for c in won[seat]]
            want = suite_oracle(types, hand[seat]["ST"])
            assert st.score_detail(seat)["suites"] == want, (types, hand[seat])


def test_s16_goals():
    s = make_setup(2, [PURPLE, RED])
    for seat, team in ((0, PURPLE), (1, RED)):  # premise: no default start meets its goal
        for inv in s.data["inventors"][team]:
            assert not all(a >= b for a, b in zip(inv["start"], inv["goal"]))
    li, ei = s.inv(0, "lovelace"), s.inv(1, "einstein")
    assert list(s.data["inventors"][PURPLE][li]["goal"]) == [0, 0, 1, 3]
    assert s.data["inventors"][PURPLE][li]["goal_vp"] == 3
    assert list(s.data["inventors"][RED][ei]["goal"]) == [3, 0, 0, 3]
    assert s.data["inventors"][RED][ei]["goal_vp"] == 9
    for busy in (False, True):
        bz = {0: ["lovelace"], 1: ["einstein"]} if busy else None
        for lv, want in (([0, 1, 1, 3], 3), ([0, 0, 2, 2], 0)):
            st = terminal_state(s, levels={(0, "lovelace"): lv}, busy=bz)
            assert st.score_detail(0)["goals"] == want
        for lv, want in (([3, 0, 0, 2], 0), ([4, 0, 0, 3], 9)):
            st = terminal_state(s, levels={(1, "einstein"): lv}, busy=bz)
            assert st.score_detail(1)["goals"] == want


def test_s17_final_score_and_tie_breaks():
    s = make_setup(2, [PURPLE, RED], types={"I01": 0, "I04": 1, "II04": 1, "III05": 2},
                   inventors={"lovelace": {"goal": [0, 0, 1, 3], "goal_vp": 3},
                              "watt": {"goal": [2, 0, 3, 0]},
                              "lavoisier": {"goal": [0, 3, 0, 2], "goal_vp": 6},
                              "einstein": {"goal": [3, 0, 0, 3], "goal_vp": 9}})
    a_levels = {(0, "lovelace"): [0, 0, 1, 3], (0, "watt"): [2, 0, 2, 0],
                (0, "lavoisier"): [0, 3, 0, 2], (0, "franklin"): [1, 1, 0, 0]}
    b_levels = {(1, "einstein"): [3, 0, 0, 3]}
    a_won = ["I01", "I04", "II04", "III05"]  # Bow, Wheel, Caravel, Telephone
    st = terminal_state(s, won={0: a_won, 1: ["III01", "III03", "III06"]},
                        levels={**a_levels, **b_levels},
                        hand={0: {"ST": 1, "VP2": 1, "P4": 1}, 1: {"VP1": 1}})
    a = st.score_detail(0)
    assert (a["cards"], a["suites"], a["vp_tokens"], a["goals"], a["total"], a["n_cards"]) == \
        (7, 3, 2, 9, 21, 4)
    b = st.score_detail(1)
    assert (b["total"], b["n_cards"]) == (21, 3)
    assert st.scores() == [21, 21]
    assert st.winners() == [0]
    assert st.returns() == [1.0, 0.0]
    st = terminal_state(s, won={0: a_won, 1: ["I02", "III01", "III03", "III06"]},
                        levels={**a_levels, **b_levels},
                        hand={0: {"ST": 1, "VP2": 1, "P4": 1}})
    b = st.score_detail(1)
    assert (b["total"], b["n_cards"]) == (21, 4)
    assert sorted(st.winners()) == [0, 1]
    assert st.returns() == [0.5, 0.5]


# ------------------------------------------------------------------------------ S18

def test_s18_chance_probabilities():
    """The core's reveal_probability against the spec's numbers. The first card's pair is one
    of three; the other cards' pairs avoid its kinds (P2, VP1, ST, AV), so the rest has the same
    conditional probability whichever of the three comes first: the core's probabilities must
    then stand exactly in the ratio of the spec's 11/221 : 10/663 : 8/221, and each must equal
    C(12,K)^-1 x the spec's first-pair number x the rest (the falling-factorial formula)."""
    full = [12, 8, 6, 4, 4, 4, 4, 5, 5]
    K = kind
    first = [((K("P2"), K("P2")), Fraction(11, 221)), ((K("VP1"), K("ST")), Fraction(10, 663)),
             ((K("P2"), K("AV")), Fraction(8, 221))]
    rest_pairs = [(K("P3"), K("P4")), (K("AK"), K("AK")), (K("VP2"), K("VP3")), (K("P3"), K("P3")),
                  (K("P4"), K("AK")), (K("VP2"), K("VP2")), (K("P4"), K("P4"))]
    assert not {k for p, _ in first for k in p} & {k for p in rest_pairs for k in p}
    for n, card_sets in ((2, Fraction(1, 792)), (5, Fraction(1, 495))):
        s = make_setup(n, list(range(n)))
        assert list(s.data["token_count"]) == full
        kk = n + 3
        cards = sorted(random.Random(n).sample(range(12), kk))
        got = []
        for pair, want in first:
            bag = list(full)
            bag[pair[0]] -= 1
            bag[pair[1]] -= 1
            pairs = [pair] + rest_pairs[:kk - 1]
            expect = card_sets * want * token_prob(bag, pairs[1:])
            st = s.game.initial_state()
            got.append(st.reveal_probability(reveal_text(s, cards, pairs)))
            assert got[-1] == pytest.approx(float(expect), rel=1e-9)
            st.apply_reveal(reveal_text(s, cards, pairs))
            f = st.fields()
            assert [d["card"] for d in f["display"]] == cards
            assert [sorted(d["tokens"]) for d in f["display"]] == [sorted(p) for p in pairs]
            assert sum(f["bag"]) == 52 - 2 * kk
        for (_, want), p in zip(first[1:], got[1:]):
            assert p / got[0] == pytest.approx(float(want / first[0][1]), rel=1e-9)


# ------------------------------------------------------------------------------ S19, S20

def test_s19_at_most_one_ak_per_turn():
    s = make_setup(2, [RED, YELLOW])
    st = s.state(main_fields(s, 2, [{"card": "II01", "tokens": ["P2", "P3"]},
                                    {"card": "II11", "tokens": ["VP1", "AV"], "filled": [1, 0, 0, 0],
                                     "cubes": {1: 1}},
                                    {"card": "II02", "tokens": ["P4", "ST"]}],
                             hand={0: {"AK": 2}}))
    before = st.fields()
    works = [m for m in st.legal_moves() if st.move_to_string(m).lower().startswith("work:")]
    assert works
    for m in works:
        text = st.move_to_string(m)
        assert text.count("+") <= 2
        ch = st.child(m)
        f = ch.fields()
        spent = before["hand"][0][kind("AK")] - f["hand"][0][kind("AK")]
        assert spent == (1 if "+" in text else 0)
        placed = sum(sum(d["cubes"]) for d in f["display"]) - sum(sum(d["cubes"]) for d in before["display"])
        if f["reward"] is not None:
            placed += sum(f["reward"]["cubes"])
        assert 1 <= placed
        card = [c for c in before["display"] if s.data["card_ids"][c["card"]].lower() == text.lower().split(":")[2].split("+")[0]][0]
        inv = [x.lower() for x in s.data["inventor_ids"][RED]].index(text.lower().split(":")[1])
        base = sum(min(before["levels"][0][inv][d], s.data["cards"][card["card"]]["cost"][d] - card["filled"][d])
                   for d in range(4))
        assert placed == base + text.count("+") <= base + 2


def test_s20_reward_identical_tokens():
    s = make_setup(2, [YELLOW, RED], costs={"I03": [2, 0, 1, 2]},
                   inventors={"newton": {"start": [1, 0, 1, 0]}})
    st = s.state(main_fields(
        s, 1, [{"card": "I03", "tokens": ["P3", "P3"], "filled": [2, 0, 0, 2], "cubes": {0: 2, 1: 2}},
               {"card": "I01", "tokens": ["VP1", "AV"]}, {"card": "I02", "tokens": ["P4", "ST"]}]))
    play(st, "work:newton:I03")
    assert list(fields(st)["reward"]["seats"]) == reward_order([3, 2], 0, 2) == [0, 1]
    assert moves_text(st) == ["take:card", "take:p3"]
    play(st, "take:P3")
    assert moves_text(st) == ["take:card", "take:p3"]
