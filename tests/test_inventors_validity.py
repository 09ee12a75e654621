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


# ---- Reachability (issue #6): positions spec 4.1 alone let through, but no game can reach ----

def test_reward_won_limit_is_exact_while_the_card_is_on_offer():
    # 3 completions of Age I before this one (K - |display| - 1 = 6 - 2 - 1): 3 won cards fit,
    # and taking the completed card gives a 4th that must still load.
    f = base_reward()
    f["won"][2] = sorted(f["won"][2] + [card("I04"), card("I05"), card("I06")])
    st = S.state(f)
    play(st, "take:card")
    again = S.state(st.fields())
    assert again == st and again.hash == st.hash
    f["won"][2].append(card("I07"))  # 4 won while the 4th completed card is still on offer
    rejects(f)


def test_chance_reveal_with_a_card_of_the_coming_age_is_rejected():
    f = main_fields(S, 2, [], phase="CHANCE_REVEAL", won={0: ["I01"], 1: ["II05"]})
    with pytest.raises(ValueError, match=r"seats\[1\]\.won: II05 is of age 2, not revealed yet"):
        S.state(f)
    accepts(main_fields(S, 2, [], phase="CHANCE_REVEAL", won={0: ["I01"], 1: ["I05"]}))


def test_reveal_never_places_a_held_card():
    # Whatever layer stops it: a position where a seat holds II05 before the Age II reveal is
    # refused, or else neither the sampled nor an explicit reveal may show II05.
    f = main_fields(S, 2, [], phase="CHANCE_REVEAL", won={0: ["I01"], 1: ["II05"]})
    try:
        S.state(f)
    except ValueError:
        return
    for seed in range(30):
        st = S.state(f)
        st.sample_chance(seed)
        assert card("II05") not in {d["card"] for d in st.fields()["display"]}
    reveal = "reveal:" + ",".join(f"II{i:02d}=P2+P3" for i in range(1, K + 1))
    with pytest.raises(ValueError):
        S.state(f).apply_reveal(reveal)


def test_terminal_and_finished_ages_hold_at_most_k_minus_1_won_cards():
    age3 = [f"III{i:02d}" for i in range(1, 13)]
    accepts(main_fields(S, 3, [], phase="TERMINAL", won={0: age3[:K - 1]}))
    rejects(main_fields(S, 3, [], phase="TERMINAL", won={0: age3[:K]}))  # the last card is never won
    age1 = [f"I{i:02d}" for i in range(1, 13)]
    accepts(main_fields(S, 3, [], phase="TERMINAL", won={1: age1[:K - 1]}))
    rejects(main_fields(S, 3, [], phase="TERMINAL", won={1: age1[:K]}))
    rejects(main_fields(S, 2, [], phase="CHANCE_REVEAL", won={2: age1[:K]}))


def test_reward_needs_a_cube_of_the_completer():
    f = base_reward()  # I03 (5 spaces), statuette 1 completed it
    f["reward"]["cubes"] = [3, 0, 2]
    f["reward"]["seats"] = [0, 2]  # the 5.7.3 order of these cubes from holder 1
    with pytest.raises(ValueError, match=r"reward\.cubes: the statuette holder \(seat 1\)"):
        S.state(f)


@pytest.mark.parametrize("change", ["level", "busy", "statuette"])
def test_age_one_reveal_is_the_setup(change):
    kw = {"level": {"levels": {(1, "gutenberg"): [0, 2, 1, 0]}},
          "busy": {"busy": {2: ["galileo"]}},
          "statuette": {"statuette": 1}}[change]
    accepts(main_fields(S, 1, [], phase="CHANCE_REVEAL"))
    rejects(main_fields(S, 1, [], phase="CHANCE_REVEAL", **kw))
    accepts(main_fields(S, 2, [], phase="CHANCE_REVEAL", **kw))  # after Age I all of these happen


# ---- One position, one packing ----------------------------------------------------------

MASK = (1 << 64) - 1


def zobrist_key(i: int) -> int:
    """Key number i of the inventors table (cext/common/zobrist.hpp, salt 1)."""
    z = ((1 * 0x100000001B3 + i + 1) * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


# Word offsets of the Keys table (cext/inventors/keys.hpp) and byte offsets of State.
KEY_ACTIVE = 5 * 4 * 4 * 16 + 5 * 4 + 5 * 9 * 16 + 5 * 36 + 9 * 16 + 36 + 36 * 256 + 36 * 4 * 8 + 36 * 5 * 32 + 4 + 4
KEY_RW_LEFT = KEY_ACTIVE + 5 + 5 + 36 + 256
BYTE_RW_TOKENS, BYTE_RW_LEFT, BYTE_ACTIVE = 231, 232, 245


def repack(st, offset: int, value: int, key_old: int, key_new: int) -> bytes:
    """st's bytes with one byte changed and the stored Zobrist key updated to match."""
    b = bytearray(st.to_bytes())
    b[offset] = value
    h = int.from_bytes(b[:8], "little") ^ zobrist_key(key_old) ^ zobrist_key(key_new)
    b[:8] = h.to_bytes(8, "little")
    return bytes(b)


def test_repack_helper_matches_the_core():
    # The helper reproduces the core's keys: a legitimate one-byte change is accepted as is.
    from atelier._core import inventors as core

    assert core.STATE_BYTES == 253
    f = base_main()
    a, b = S.state(f), S.state(dict(f, active=2))
    assert a.to_bytes()[BYTE_ACTIVE] == 1
    assert core.State.from_bytes(S.game, repack(a, BYTE_ACTIVE, 2, KEY_ACTIVE + 1, KEY_ACTIVE + 2)) == b


def test_equal_reward_tokens_have_one_packing():
    from atelier._core import inventors as core

    f = main_fields(
        S, 1, [{"card": "I03", "tokens": ["P3", "P3"], "filled": [2, 0, 0, 2], "cubes": {0: 2, 1: 1, 2: 1}},
               {"card": "I01", "tokens": ["VP1", "AV"]}, {"card": "I02", "tokens": ["P4", "ST"]}],
        active=1, statuette=0)
    st = S.state(f)
    play(st, "work:gutenberg:I03")
    play(st, "take:P3")  # the low P3 goes; the one left is packed as the high token (bit 2)
    b = st.to_bytes()
    assert b[BYTE_RW_TOKENS] == 0x11 and b[BYTE_RW_LEFT] == 0b101
    assert core.State.from_bytes(S.game, b) == st
    other = repack(st, BYTE_RW_LEFT, 0b011, KEY_RW_LEFT + 0b101, KEY_RW_LEFT + 0b011)
    with pytest.raises(ValueError, match=r"reward\.left: of two equal tokens"):
        core.State.from_bytes(S.game, other)
    # The fields form of the same position packs the canonical way.
    again = S.state(st.fields())
    assert again == st and hash(again) == hash(st) and again.to_bytes() == b


def test_level_raises_and_hands_need_tokens_won():
    # Age I, nothing completed yet: no token has left the cards, so no level can be above its
    # start (each raise spends a token, spec 5.2). With one card completed, two tokens have.
    pairs = [["P2", "AV"], ["VP1", "ST"], ["P3", "AK"], ["P2", "P2"], ["VP2", "P4"], ["VP3", "AK"]]
    full = [{"card": f"I{j + 1:02d}", "tokens": pairs[j]} for j in range(K)]
    raised = {(1, "gutenberg"): [0, 2, 1, 0]}  # start [0, 1, 1, 0]
    accepts(main_fields(S, 1, full))
    with pytest.raises(ValueError, match="level raises"):
        S.state(main_fields(S, 1, full, levels=raised))
    accepts(main_fields(S, 1, full[1:], levels=raised))
    accepts(main_fields(S, 1, full[1:], levels=raised, hand={2: {"VP1": 1}}))
    rejects(main_fields(S, 1, full[1:], levels=raised, hand={2: {"VP1": 1, "AV": 1}}))


def test_tokens_taken_in_this_sharing_are_held_by_the_seats_that_chose():
    st = S.state(base_reward())
    play(st, "take:VP3")  # seat 1 chooses first
    f = st.fields()
    assert S.state(f) == st
    f["hand"][1][kind("VP3")] -= 1  # gone from seat 1's hand: it cannot have played it yet
    with pytest.raises(ValueError, match=r"reward\.left: a token taken from I03 is in no hand"):
        S.state(f)
    f["hand"][2][kind("VP3")] += 1  # held by seat 2, which has not chosen
    rejects(f)


def test_statuette_stays_on_seat_0_until_the_first_completion():
    pairs = [["P2", "AV"], ["VP1", "ST"], ["P3", "AK"], ["P2", "P2"], ["VP2", "P4"], ["VP3", "AK"]]
    full = [{"card": f"I{j + 1:02d}", "tokens": pairs[j]} for j in range(K)]
    accepts(main_fields(S, 1, full, active=2, statuette=0))
    with pytest.raises(ValueError, match="statuette"):
        S.state(main_fields(S, 1, full, active=2, statuette=1))
    accepts(main_fields(S, 1, full[1:], active=2, statuette=1))
