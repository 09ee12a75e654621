"""Small builders for the Legendary Inventors tests (spec: docs/rules/inventors.md).

Everything here goes through the public Python API of ``atelier._core.inventors`` (see
docs/internal-contract.md). Nothing here knows the C++ layout.

* ``edition_json()``            the default edition file, parsed.
* ``make_setup(n, teams, ...)`` an ``Edition`` + ``Game``, optionally with card costs/types and
                                inventor start/goal/goal_vp overridden (spec §9 uses inline costs).
* ``main_fields(...)``          a valid ``fields()`` dict for a MAIN / REWARD / TERMINAL position,
                                with the bag topped to the size spec 4.1 requires.
* id lookups: ``card_index``, ``team_index``, ``inv_index``, ``kind``.
"""
from __future__ import annotations

import copy
import json
import pathlib
from dataclasses import dataclass

from atelier._core import inventors as core
from atelier.games.inventors.edition import edition_data

ROOT = pathlib.Path(__file__).resolve().parents[1]
EDITION_FILE = ROOT / "src" / "atelier" / "data" / "editions" / "inventors.json"

KINDS = ["P2", "P3", "P4", "VP1", "VP2", "VP3", "AV", "AK", "ST"]  # spec 2.3 table order
DISC = ["P", "C", "M", "Ma"]  # spec 1.2
TEAMS = ["green", "blue", "yellow", "purple", "red"]  # edition order


def kind(name: str) -> int:
    return KINDS.index(name)


def edition_json() -> dict:
    with open(EDITION_FILE, encoding="utf-8") as f:
        return json.load(f)


_DEFAULT = None


def default_data() -> dict:
    """The dict that ``core.Edition`` takes, for the default edition (a fresh deep copy)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = edition_data(edition_json())
    return copy.deepcopy(_DEFAULT)


def card_index(card_id: str, data: dict | None = None) -> int:
    data = data or default_data()
    return list(data["card_ids"]).index(card_id)


def team_index(team_id: str) -> int:
    return TEAMS.index(team_id)


def inv_index(team: int, inv_id: str, data: dict | None = None) -> int:
    data = data or default_data()
    return list(data["inventor_ids"][team]).index(inv_id)


@dataclass
class Setup:
    data: dict  # the Edition dict (ids, costs, ...) the game was built from
    edition: object
    game: object

    @property
    def n(self) -> int:
        return self.game.players

    @property
    def k(self) -> int:
        return self.n + 3

    def card(self, card_id: str) -> int:
        return card_index(card_id, self.data)

    def inv(self, seat: int, inv_id: str) -> int:
        return inv_index(self.game.teams[seat], inv_id, self.data)

    def state(self, fields: dict):
        return core.State.from_fields(self.game, fields)


def make_setup(n: int, teams: list[int], costs: dict | None = None, types: dict | None = None,
               inventors: dict | None = None) -> Setup:
    """Game over the default edition with overrides (the spec §9 "test edition").

    costs  {card_id: [P,C,M,Ma]}; types {card_id: type};
    inventors {inv_id: {"start": [...], "goal": [...], "goal_vp": v}} (any subset of keys).
    """
    data = default_data()
    for cid, cost in (costs or {}).items():
        data["cards"][card_index(cid, data)]["cost"] = list(cost)
    for cid, t in (types or {}).items():
        data["cards"][card_index(cid, data)]["type"] = t
    for iid, over in (inventors or {}).items():
        for t in range(5):
            if iid in data["inventor_ids"][t]:
                data["inventors"][t][list(data["inventor_ids"][t]).index(iid)].update(over)
                break
        else:
            raise KeyError(iid)
    ed = core.Edition(data)
    return Setup(data, ed, core.Game(ed, n, list(teams)))


def random_setup(n: int, rng, teams: list[int] | None = None, token_total: int | None = None) -> Setup:
    """A random edition that is valid by spec 2.6 (the default's ids, random numbers): start
    levels 0..2 with the coverage invariant, goals 0..4, goal_vp 0..63, costs 0..7 (mostly
    small) with card totals 1..28, types 0..5, token counts 0..15 totalling >= 48 (or exactly
    token_total)."""
    data = default_data()
    for team in data["inventors"]:
        while True:
            starts = [[rng.choice((0, 0, 1, 1, 2)) for _ in range(4)] for _ in range(4)]
            if all(any(s[d] >= 1 for s in starts) for d in range(4)):
                break
        for inv, st in zip(team, starts):
            inv["start"] = st
            inv["goal"] = [rng.randint(0, 4) for _ in range(4)]
            inv["goal_vp"] = rng.randint(0, 63)
    for card in data["cards"]:
        while True:
            cost = [rng.choice((0, 0, 1, 1, 2, 2, 3, 4, 7)) for _ in range(4)]
            if 1 <= sum(cost) <= 28:
                break
        card["cost"] = cost
        card["type"] = rng.randint(0, 5)
    while True:
        counts = [rng.randint(0, 15) for _ in range(9)]
        if sum(counts) >= 48 and token_total in (None, sum(counts)):
            break
    data["token_count"] = counts
    teams = teams if teams is not None else rng.sample(range(5), n)
    ed = core.Edition(data)
    return Setup(data, ed, core.Game(ed, n, list(teams)))


def start_levels(s: Setup, seat: int) -> list[list[int]]:
    t = s.game.teams[seat]
    return [list(s.data["inventors"][t][i]["start"]) for i in range(4)]


def main_fields(s: Setup, age: int, display: list[dict], *, phase: str = "MAIN", active: int = 0,
                statuette: int | None = None, levels: dict | None = None, busy: dict | None = None,
                hand: dict | None = None, won: dict | None = None, reward: dict | None = None) -> dict:
    """A complete fields() dict.

    display: [{card: id or index, tokens: [kind names], filled: [4] (default 0), cubes: {seat: c}}]
    levels: {(seat, inv_id): [4]}; busy: {seat: [inv_ids]}; hand: {seat: {kind name: count}};
    won: {seat: [card ids]}; reward: a raw reward dict (indices) or None.
    Seats not mentioned have start levels, all available, empty hands, no cards.
    The bag holds every token not on the display / in the reward context / in a hand, minus
    enough "removed" tokens (largest kinds first) to reach the size spec 4.1 requires.
    """
    n = s.n
    if statuette is None:
        statuette = active
    lv = [start_levels(s, seat) for seat in range(n)]
    for (seat, iid), v in (levels or {}).items():
        lv[seat][s.inv(seat, iid)] = list(v)
    bz = [[False] * 4 for _ in range(n)]
    for seat, iids in (busy or {}).items():
        for iid in iids:
            bz[seat][s.inv(seat, iid)] = True
    hd = [[0] * 9 for _ in range(n)]
    for seat, h in (hand or {}).items():
        for kname, c in h.items():
            hd[seat][kind(kname)] = c
    wn = [[] for _ in range(n)]
    for seat, cards in (won or {}).items():
        wn[seat] = sorted(s.card(c) if isinstance(c, str) else c for c in cards)
    disp = []
    for d in display:
        c = s.card(d["card"]) if isinstance(d["card"], str) else d["card"]
        cubes = [0] * n
        for seat, x in d.get("cubes", {}).items():
            cubes[seat] = x
        disp.append({"card": c, "tokens": sorted(kind(t) for t in d["tokens"]),
                     "filled": list(d.get("filled", [0, 0, 0, 0])), "cubes": cubes})
    disp.sort(key=lambda x: x["card"])
    used = [0] * 9
    for d in disp:
        for t in d["tokens"]:
            used[t] += 1
    if reward is not None:
        for t in reward["tokens"]:
            used[t] += 1
    for h in hd:
        for k in range(9):
            used[k] += h[k]
    counts = list(s.data["token_count"])
    bag = [counts[k] - used[k] for k in range(9)]
    assert min(bag) >= 0, "more tokens used than the edition has"
    total = sum(counts)
    want = total - 2 * s.k * (age - 1 if phase == "CHANCE_REVEAL" else age)
    extra = sum(bag) - want
    assert extra >= 0, "too many tokens out of the bag for this age"
    while extra:
        k = max(range(9), key=lambda i: bag[i])
        bag[k] -= 1
        extra -= 1
    return {"age": age, "phase": phase, "active": active if phase == "MAIN" else statuette,
            "statuette": statuette, "levels": lv, "busy": bz, "hand": hd, "won": wn, "bag": bag,
            "display": disp, "reward": reward}


def perft(st, depth):
    """Decision leaves below `st` (a chance node or terminal state is one leaf): the count the
    golden file holds (tools/make_perft.py writes it, test_inventors_perft.py recomputes it)."""
    if depth == 0 or st.is_chance() or st.is_terminal():
        return 1
    if depth == 1:
        return len(st.legal_moves())
    return sum(perft(st.child(m), depth - 1) for m in st.legal_moves())


def moves_text(st) -> list[str]:
    """Legal moves as lower-case notation, in the core's order."""
    return [st.move_to_string(m).lower() for m in st.legal_moves()]


def play(st, text: str):
    """Apply a move given in notation (after checking it is in the legal list)."""
    legal = moves_text(st)
    assert text.lower() in legal, f"{text} not legal; legal: {legal}"
    st.apply(st.parse_move(text))
    return st


def norm(f):
    """fields() with the order-free parts sorted, for comparing with the model."""
    g = dict(f)
    g["display"] = [dict(d, tokens=sorted(d["tokens"]), filled=list(d["filled"]), cubes=list(d["cubes"]))
                    for d in f["display"]]
    g["won"] = [sorted(w) for w in f["won"]]
    g["levels"] = [[list(r) for r in s] for s in f["levels"]]
    g["busy"] = [[bool(b) for b in s] for s in f["busy"]]
    g["hand"] = [list(h) for h in f["hand"]]
    g["bag"] = list(f["bag"])
    if f["reward"] is not None:
        r = f["reward"]
        g["reward"] = {"card": r["card"], "tokens": sorted(r["tokens"]),
                       "left": {"card": bool(r["left"]["card"]), "tokens": sorted(r["left"]["tokens"])},
                       "cubes": list(r["cubes"]), "seats": list(r["seats"]), "index": r["index"]}
    return g
