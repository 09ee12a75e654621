"""An independent, plain-Python reading of the Legendary Inventors rules, written from the spec
(shared/rules/inventors.md), not from the C++ core. It works on ``State.fields()`` dicts and the
``Edition`` dict, and speaks move notation (docs/internal-contract.md), so the tests can compare
it with the core move by move.

* ``suite_oracle`` / ``suite_dp``  spec 7.4 (brute force over star assignments / the DP).
* ``score_detail`` / ``winners``   spec 7.1-7.5.
* ``token_prob``                   spec 6.1.3 (probability of the token pairs of a reveal).
* ``legal_moves``                  spec 5.2-5.6 in the canonical order of 8.13.
* ``apply``                        spec 5.2-5.8 for every non-chance move.
"""
from __future__ import annotations

import copy
import functools
import itertools
import math
from fractions import Fraction

KINDS = ["P2", "P3", "P4", "VP1", "VP2", "VP3", "AV", "AK", "ST"]
DISC = ["P", "C", "M", "Ma"]
P2, P3, P4, VP1, VP2, VP3, AV, AK, ST = range(9)


# ---------------------------------------------------------------- scoring (spec §7)

def suite_oracle(types, stars: int) -> int:
    """Spec 7.4 test oracle: every assignment of the (interchangeable) stars to numbers
    0..5+s; score sum_{v=1..5+s} min(c'_0..c'_v); take the max."""
    top = 5 + stars
    best = 0
    for assign in itertools.combinations_with_replacement(range(top + 1), stars):
        c = [0] * (top + 1)
        for t in types:
            c[t] += 1
        for v in assign:
            c[v] += 1
        run, total = c[0], 0
        for v in range(1, top + 1):
            run = min(run, c[v])
            if run == 0:
                break
            total += run
        best = max(best, total)
    return best


def suite_dp(types, stars: int) -> int:
    """Spec 7.4 'Algorithm' (the DP), transcribed."""
    V = 6 + stars
    c = [0] * V
    for t in types:
        c[t] += 1
    memo = {}

    def best(v, prev, used):
        if v == V or prev == 0:
            return 0
        key = (v, prev, used)
        if key in memo:
            return memo[key]
        r = 0
        for x in range(prev + 1):
            need = max(0, x - c[v])
            if used + need > stars:
                break
            r = max(r, (x if v >= 1 else 0) + best(v + 1, x, used + need))
        memo[key] = r
        return r

    return best(0, c[0] + stars, 0)


@functools.lru_cache(maxsize=None)
def suite_reference(types: tuple, stars: int) -> int:
    """The 7.4 oracle where it is affordable (<= 4 stars), else the DP (checked against the
    oracle in the scenario tests)."""
    return suite_oracle(types, stars) if stars <= 4 else suite_dp(types, stars)


def team_inventors(data, teams, seat):
    return data["inventors"][teams[seat]]


def score_detail(data, teams, f, seat) -> dict:
    cards = [data["cards"][c] for c in f["won"][seat]]
    hand = f["hand"][seat]
    goals = 0
    for i, inv in enumerate(team_inventors(data, teams, seat)):
        if all(f["levels"][seat][i][d] >= inv["goal"][d] for d in range(4)):
            goals += inv["goal_vp"]
    d = {
        "cards": sum(c["age"] for c in cards),
        "vp_tokens": hand[VP1] + 2 * hand[VP2] + 3 * hand[VP3],
        "goals": goals,
        "suites": suite_reference(tuple(sorted(c["type"] for c in cards)), hand[ST]),
        "n_cards": len(cards),
    }
    d["total"] = d["cards"] + d["vp_tokens"] + d["goals"] + d["suites"]
    return d


def winners(details) -> list[int]:
    """Spec 7.5: highest total, then more won cards, then shared."""
    top = max(x["total"] for x in details)
    tied = [s for s, x in enumerate(details) if x["total"] == top]
    most = max(details[s]["n_cards"] for s in tied)
    return [s for s in tied if details[s]["n_cards"] == most]


# ---------------------------------------------------------------- chance (spec §6.1)

def ff(x, m):
    r = 1
    for i in range(m):
        r *= x - i
    return r


def token_prob(bag, pairs) -> Fraction:
    """Spec 6.1.3: P = 2^u prod ff(c_k, m_k) / ff(B, 2K) for the ordered-by-card pairs."""
    m = [0] * 9
    u = 0
    for a, b in pairs:
        m[a] += 1
        m[b] += 1
        u += a != b
    return Fraction(2 ** u * math.prod(ff(bag[k], m[k]) for k in range(9)), ff(sum(bag), 2 * len(pairs)))


def reveal_text(s, cards, pairs):
    """Reveal notation (contract): K cards ascending, each pair sorted by kind."""
    data = s.data
    return "reveal:" + ",".join(
        f"{data['card_ids'][c]}={KINDS[min(p)]}+{KINDS[max(p)]}" for c, p in zip(cards, pairs))


# ---------------------------------------------------------------- moves (spec §5)

def _inv_id(data, teams, seat, i):
    return data["inventor_ids"][teams[seat]][i].lower()


def _extras(rest):
    """AK extras for a WORK (5.4.2): multisets of size min(2, R), count of d <= rest[d],
    as sorted discipline tuples in lexicographic order (8.13)."""
    R = sum(rest)
    if R == 0:
        return []
    size = min(2, R)
    out = []
    for combo in itertools.combinations_with_replacement(range(4), size):
        if all(combo.count(d) <= rest[d] for d in range(4)):
            out.append(combo)
    return out


def _work_parts(data, f, seat, i, slot):
    card = f["display"][slot]
    cost = data["cards"][card["card"]]["cost"]
    empty = [cost[d] - card["filled"][d] for d in range(4)]
    base = [min(f["levels"][seat][i][d], empty[d]) for d in range(4)]
    rest = [empty[d] - base[d] for d in range(4)]
    return base, rest


def legal_moves(data, teams, f) -> list[str]:
    """Lower-case notation of every legal move, canonical order (8.13). [] at chance/terminal."""
    n = len(teams)
    if f["phase"] == "REWARD":
        rw = f["reward"]
        out = []
        if rw["left"]["card"]:
            out.append("take:card")
        for k in sorted(set(rw["left"]["tokens"])):
            out.append("take:" + KINDS[k].lower())
        return out
    if f["phase"] != "MAIN":
        return []
    p = f["active"]
    assert 0 <= p < n
    hand, lv, busy = f["hand"][p], f["levels"][p], f["busy"][p]
    out = []
    for k, N in ((P2, 2), (P3, 3), (P4, 4)):  # FRONT_PROGRESS
        if hand[k] >= 1:
            for i in range(4):
                for d in range(4):
                    if lv[i][d] == N - 1:
                        out.append(f"front:{KINDS[k]}:{_inv_id(data, teams, p, i)}:{DISC[d]}".lower())
    for k in range(9):  # BACK
        if hand[k] >= 1:
            for i in range(4):
                for d in range(4):
                    if lv[i][d] == 0:
                        out.append(f"back:{KINDS[k]}:{_inv_id(data, teams, p, i)}:{DISC[d]}".lower())
    if hand[AV] >= 1 and any(busy):
        out.append("avail")
    for i in range(4):  # WORK
        if busy[i]:
            continue
        for slot, card in enumerate(f["display"]):  # display is in ascending card order
            base, rest = _work_parts(data, f, p, i, slot)
            head = f"work:{_inv_id(data, teams, p, i)}:{data['card_ids'][card['card']]}".lower()
            if sum(base) >= 1:
                out.append(head)
            if hand[AK] >= 1:
                for e in _extras(rest):
                    out.append((head + "".join("+" + DISC[d] for d in e)).lower())
    if any(busy):
        out.append("rest")
    return out


def _parse_work(data, teams, f, text):
    _, inv, rest = text.split(":")
    parts = rest.split("+")
    card_id, extra = parts[0], [DISC_LOWER.index(x) for x in parts[1:]]
    p = f["active"]
    ids = [x.lower() for x in data["inventor_ids"][teams[p]]]
    i = ids.index(inv)
    cid = [x.lower() for x in data["card_ids"]].index(card_id)
    slot = [c["card"] for c in f["display"]].index(cid)
    return i, slot, extra


DISC_LOWER = [d.lower() for d in DISC]


def apply(data, teams, f, text) -> dict:
    """The position after a non-chance move (given as lower-case notation), per spec §5.
    The REWARD context keeps the shape of fields(): left = {card, tokens (sorted)}."""
    n = len(teams)
    g = copy.deepcopy(f)
    text = text.lower()
    if g["phase"] == "REWARD":
        rw = g["reward"]
        q = rw["seats"][rw["index"]]
        what = text.split(":")[1]
        if what == "card":
            assert rw["left"]["card"]
            rw["left"]["card"] = False
            g["won"][q] = sorted(g["won"][q] + [rw["card"]])
        else:
            k = [x.lower() for x in KINDS].index(what)
            rw["left"]["tokens"].remove(k)
            g["hand"][q][k] += 1
        rw["index"] += 1
        if rw["index"] == len(rw["seats"]):
            _finish_sharing(g, n)  # 5.7.7-8: leftovers removed, age-end check
        return g
    assert g["phase"] == "MAIN"
    p = g["active"]
    kind_of = {x.lower(): k for k, x in enumerate(KINDS)}
    ids = [x.lower() for x in data["inventor_ids"][teams[p]]]
    head = text.split(":")[0]
    if head in ("front", "back"):
        _, kname, inv, dname = text.split(":")
        k, i, d = kind_of[kname], ids.index(inv), DISC_LOWER.index(dname)
        assert g["hand"][p][k] >= 1
        g["hand"][p][k] -= 1
        g["levels"][p][i][d] = (k + 2) if head == "front" else 1
    elif head == "avail":
        g["hand"][p][AV] -= 1
        g["busy"][p] = [False] * 4
    elif head == "rest":
        g["busy"][p] = [False] * 4
        g["active"] = (p + 1) % n
    elif head == "work":
        i, slot, extra = _parse_work(data, teams, g, text)
        base, rest = _work_parts(data, g, p, i, slot)
        card = g["display"][slot]
        placed = sum(base) + len(extra)
        for d in range(4):
            card["filled"][d] += base[d] + extra.count(d)
        card["cubes"][p] += placed
        g["busy"][p][i] = True
        if extra:
            g["hand"][p][AK] -= 1
        cost = data["cards"][card["card"]]["cost"]
        if card["filled"] == list(cost):
            _complete(g, n, p, slot)
        else:
            g["active"] = (p + 1) % n
    else:
        raise ValueError(text)
    return g


def reward_order(cubes, statuette, n):
    """5.7.3: contributors by cubes descending, ties by clockwise distance from the holder."""
    contrib = [s for s in range(n) if cubes[s] >= 1]
    contrib.sort(key=lambda s: (-cubes[s], (s - statuette) % n))
    return contrib[:3]


def _complete(g, n, p, slot):
    g["statuette"] = p
    card = g["display"].pop(slot)
    g["reward"] = {"card": card["card"], "tokens": sorted(card["tokens"]),
                   "left": {"card": True, "tokens": sorted(card["tokens"])},
                   "cubes": list(card["cubes"]), "seats": reward_order(card["cubes"], p, n),
                   "index": 0}
    g["phase"] = "REWARD"
    g["active"] = p


def _finish_sharing(g, n):
    g["reward"] = None
    if len(g["display"]) == 1:  # 5.8
        g["display"] = []
        g["active"] = g["statuette"]
        if g["age"] == 3:
            g["phase"] = "TERMINAL"
        else:
            g["age"] += 1
            g["phase"] = "CHANCE_REVEAL"
    else:
        g["phase"] = "MAIN"
        g["active"] = (g["statuette"] + 1) % n
