"""An independent, plain-Python reading of the Craftsmen rules, written from the spec
(shared/rules/craftsmen.md, its §23 rulings first) and the edition data alone, not from any core.
Later tests compare a C++ core with it move list by move list and successor by successor.

Public surface
* ``Edition(data)`` / ``load_edition(path)``      the edition (§3), numbers read from ``constants``.
* ``setup(edition, players, options, rng)``       §4 (deals sampled with ``rng``, 4.2 allows it).
* ``legal_moves(s)``   move tuples (``legal_texts(s)``: their notation), canonical order:
                       names by ``ORDER`` (§18.3 rows), then arguments ascending (``_arg_key``).
* ``apply(s, move)``   a new state; ``move`` a tuple or notation text (§18).
* ``chance_outcomes(s)`` / ``apply_chance(s, outcome)``  §6.4, §15 (Fractions count/size).
* ``move_to_string(m)`` / ``parse_move(s, text)``  §18.
* ``scores(s)`` / ``ranking(s)`` / ``to_fields(s)``  §14, §6.1.

A state is a plain dict. The pending work is a stack of frames (``s["stack"]``, last = next):
a frame whose ``op`` is in ``DECISIONS`` is the pending decision, ``draw`` with a shuffled
segment to draw from is a chance node, every other frame is a forced step run by ``_run``.
The frames are the §6.3 context; ``s["act"]`` is the running helper action, ``s["auction"]``
the running auction.

Money is held as counts per type (index t over ``ed.types``, colour order P G B R, then
value); a money deck's segments hold type indices, a building deck's segments card ids.

Readings of points the spec leaves open (a core may read them differently; see the report):
* order: §23 leaves the canonical order to the implementation, which documents it; this model
  follows the project's docs/notation.md: within a decision the order of its §18.3 row (SKIP,
  DONE, WORK_TOKEN, END, DECLINE after the rest), then arguments ascending (cards in edition
  order, money types P1..R3, numbers by value, TOP < BOTTOM; multisets by their text as
  strings). An earlier reading (first appearance in §18.3, every argument as a string) differed
  from the core in most decisions.
* forced one-move decisions are still decisions (SEND, PAY, KEEP of a small pool, STOP, DROP,
  DECLINE without four colours, END at pool 0 with a token and nothing to do); a decision with no
  move besides DONE after a Notary deal is not offered (no LOOK legal).
* the stacking disc lands (home - 1) at STACK, before its payment or the 2-player draw.
* BUY: the card stays face up during its PAY; an auctioned card stays face up until its PAY.
  LOOK: the face-up cards stay face up during the draws; the mayor's cards are discarded when
  the auction resolves, before the winner pays.
* Merchants: the cube swap happens at the payment decision (PAY_CARD / PAY_MARKET).
* ORDER_CHANGE empties the helper's layer on its Town Hall space (no slide).
* SWAP_MILL compares the ordered (top, bottom) pair.
"""
from __future__ import annotations

import itertools
import json
import marshal
import pickle
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

EDITION_PATH = Path(__file__).resolve().parents[1] / "src" / "atelier" / "data" / "editions" / "craftsmen.json"
ROMAN = ["I", "II", "III", "IV", "V", "VI"]
TIERS = ["basic", "extended", "advanced"]
NEUTRAL = "N"

# §18.3 names in order of first appearance (the order is ORDER below).
NAMES = ["KEEP", "SWAP_BASIC", "SWAP_EXTENDED", "SWAP_MILL", "PASS", "PLACE", "STACK",
         "PAY_CARD", "PAY_AP", "WORK_TOKEN", "END", "SKIP", "TAKE_FACEUP", "TAKE_DECK", "STOP",
         "PRIVILEGE", "NO_PRIVILEGE", "DISCARD", "BUILD", "DONE", "PAY", "LOOK", "BUY",
         "AUCTION", "BID", "DROP", "RETURN", "PURCHASE", "PAY_MARKET", "MARKET_PLACE",
         "DECLINE", "TAKE_PRIVILEGE", "TAKE_WORK", "ORDER_CHANGE", "PRODUCE", "PRODUCE2",
         "TRADE", "MAKE", "SEND", "REWARD", "REWARD_DECK", "LOAD", "LOAD_BRIBE", "LOSE",
         "CONTRIBUTE"]
# The canonical order (§23; the project fixes it in docs/notation.md): within a decision, the
# order of its row in §18.3. One global rank serves every row: the names that end rows (SKIP,
# DONE, WORK_TOKEN, END, DECLINE) come after every name they share a decision with.
LAST = ["SKIP", "DONE", "WORK_TOKEN", "END", "DECLINE"]
ORDER = [x for x in NAMES if x not in LAST] + LAST
RANK = {x: i for i, x in enumerate(ORDER)}
# Argument kinds per name (§18.2); KEEP is variadic (0 = mulligan, 1-2 cards = Notary look).
SIG = {"SWAP_BASIC": "c", "SWAP_EXTENDED": "c", "SWAP_MILL": "c", "PLACE": "g", "STACK": "i",
       "PAY_CARD": "t", "TAKE_FACEUP": "t", "DISCARD": "t", "BUILD": "cs", "PAY": "m",
       "LOOK": "T", "BUY": "c", "AUCTION": "ci", "BID": "i", "RETURN": "ce", "PURCHASE": "pc",
       "PRODUCE": "c", "PRODUCE2": "c", "TRADE": "cp", "MAKE": "c", "SEND": "d", "REWARD": "t",
       "LOAD": "i", "LOAD_BRIBE": "it", "CONTRIBUTE": "m"}


class InputError(ValueError):
    pass


# ---------------------------------------------------------------- edition (§3)

_EDITIONS: dict = {}


def _edition_ref(key):
    return _EDITIONS[key]


class Edition:
    """The numbers and cards the rules read (§3). Pickles by reference (states are cloned
    by pickling, the edition is shared)."""

    def __init__(self, data: dict):
        self.data = data
        self.k = {name: c["value"] for name, c in data["constants"].items()}
        self.colours = list(data["colours"])
        self.initial = {c: c[0].upper() for c in self.colours}
        pr = data["products"]
        self.raw, self.semi, self.final = pr["raw"], pr["semi_finished"], pr["final"]
        self.shippable, self.warehouse_goods = pr["shippable"], pr["warehouse"]
        self.products = self.raw + self.semi + self.final
        self.cards, self.tier_ids = {}, {}
        for key, tier in (("lumber_mills", "lumber_mill"), ("basic_buildings", "basic"),
                          ("extended_buildings", "extended"), ("advanced_buildings", "advanced")):
            self.tier_ids[tier] = [c["id"] for c in data[key]]
            for c in data[key]:
                self.cards[c["id"]] = {"id": c["id"], "tier": tier, "top": c["top"],
                                       "bottom": c["bottom"], "inputs": list(c["inputs"]),
                                       "output": c["output"], "ap": c["ap"],
                                       "house": bool(c["house"]), "name": c.get("name", "")}
        self.lower_id = {i.lower(): i for i in self.cards}
        self.card_rank = {i: r for r, i in enumerate(self.cards)}  # edition order L, B, E, A
        pairs = sorted({(self.colours.index(m["colour"]), m["value"]) for m in data["money_cards"]})
        self.types = [self.initial[self.colours[c]] + str(v) for c, v in pairs]
        self.tcol = [self.colours[c] for c, _ in pairs]
        self.tval = [v for _, v in pairs]
        self.tindex = {t: i for i, t in enumerate(self.types)}
        self.by_colour = [[t for t in range(len(pairs)) if pairs[t][0] == c]
                          for c in range(len(self.colours))]
        self.colour_values = [[(t, self.tval[t]) for t in ts] for ts in self.by_colour]
        self.set_rule = (self.k["money_set"]["min_cards"], self.k["money_set"]["value_per_card_after_first"])
        self.money_items = sorted(pairs.index((self.colours.index(m["colour"]), m["value"]))
                                  for m in data["money_cards"])
        self.ships = [{"id": sh["id"], "rows": [dict(r) for r in sh["rows"]],
                       "bonuses": list(sh["bonuses"])} for sh in data["ships"]]
        self.bonus_ap = {b["good"]: b["ap"] for b in data["bonus_tokens"]}
        self.key = len(_EDITIONS)
        _EDITIONS[self.key] = self

    def __reduce__(self):
        return (_edition_ref, (self.key,))

    def c(self, name, *keys):
        v = self.k[name]
        for key in keys:
            v = v[key]
        return v


def load_edition(path=EDITION_PATH) -> Edition:
    return Edition(json.loads(Path(path).read_text()))


# ---------------------------------------------------------------- money (§7.1)

def value(ed: Edition, counts) -> int:
    """§7.1: per colour, the printed sum, or 5(k-1) for k >= 2 cards when that is more."""
    least, step = ed.set_rule
    total = 0
    for ts in ed.colour_values:
        k = s = 0
        for t, v in ts:
            c = counts[t]
            k += c
            s += c * v
        total += s if k < least else max(s, step * (k - 1))
    return total


def printed(ed, counts) -> int:
    return sum(c * ed.tval[t] for t, c in enumerate(counts))


def minimal_payments(ed: Edition, counts, amount: int, colours=None) -> list[tuple]:
    """§7.1/A4: the distinct sub-multisets worth >= amount from which no card can be removed
    with the value still >= amount (value only falls when a card is removed)."""
    T = len(ed.types)
    types = [t for t in range(T) if counts[t] and (colours is None or ed.tcol[t] in colours)]
    out = []
    for combo in itertools.product(*[range(counts[t] + 1) for t in types]):
        S = [0] * T
        for t, k in zip(types, combo):
            S[t] = k
        if value(ed, S) < amount:
            continue
        minimal = True
        for t in types:
            if S[t]:
                S[t] -= 1
                ok = value(ed, S) >= amount
                S[t] += 1
                if ok:
                    minimal = False
                    break
        if minimal:
            out.append(tuple(ed.types[t] for t in range(T) for _ in range(S[t])))
    return out


def _held_types(ed, counts):
    return [ed.types[t] for t in range(len(counts)) if counts[t]]


# ---------------------------------------------------------------- notation (§18)

def _arg_text(kind, a):
    if kind == "m":
        return "+".join(a)
    if kind == "d":
        return a if isinstance(a, str) else f"ICON({a[1]},{a[2]})"
    return str(a)


def _args_text(m):
    name = m[0]
    if name == "KEEP":
        return ",".join(m[1:])
    return ",".join(_arg_text(k, a) for k, a in zip(SIG.get(name, ""), m[1:]))


def move_to_string(m) -> str:
    """§18.1: NAME or NAME(arg,...), no spaces."""
    if len(m) == 1:
        return m[0]
    return f"{m[0]}({_args_text(m)})"


def _arg_key(ed, kind, a):
    """An argument's place in "arguments ascending" (docs/notation.md): cards and products in
    edition order, money types P1..R3, numbers by value, L < R, TOP < BOTTOM, tiers basic <
    extended < advanced; multisets by their canonical text compared as strings (§23)."""
    if kind == "c":
        return ed.card_rank[a]
    if kind == "t":
        return ed.tindex[a]
    if kind == "m":
        return "+".join(a)
    if kind == "g":
        return ROMAN.index(a)
    if kind == "s":
        return "LR".index(a)
    if kind == "e":
        return ("TOP", "BOTTOM").index(a)
    if kind == "T":
        return TIERS.index(a)
    if kind == "p":
        return ed.products.index(a)
    if kind == "d":  # SEND(MARKET), SEND(ICON(card,product))..., SEND(WAREHOUSE)
        if a == "MARKET":
            return (0,)
        if a == "WAREHOUSE":
            return (2,)
        return (1, ed.card_rank[a[1]], ed.products.index(a[2]))
    return a


def _sort_key(ed, m):
    name = m[0]
    if name == "KEEP":
        args = tuple(_arg_key(ed, "c", a) for a in m[1:])
    else:
        args = tuple(_arg_key(ed, k, a) for k, a in zip(SIG.get(name, ""), m[1:]))
    return (RANK[name], args)


def _sort_moves(ed, moves):
    """§23: names in §18.3 row order (ORDER), then arguments ascending; no duplicates."""
    return sorted(set(moves), key=lambda m: _sort_key(ed, m))


def _split_top(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def _parse_arg(ed, kind, a, text):
    bad = InputError(f"error: move: cannot read {text!r}")
    if kind == "c":
        if a.lower() not in ed.lower_id:
            raise bad
        return ed.lower_id[a.lower()]
    if kind == "t":
        if a.upper() not in ed.tindex:
            raise bad
        return a.upper()
    if kind == "m":
        items = [x.upper() for x in a.split("+")]
        if not all(x in ed.tindex for x in items):
            raise bad
        return tuple(sorted(items, key=ed.tindex.__getitem__))
    if kind == "i":
        if not a.isdigit():
            raise bad
        return int(a)
    if kind == "g":
        if a.upper() not in ROMAN:
            raise bad
        return a.upper()
    if kind == "s":
        if a.upper() not in ("L", "R"):
            raise bad
        return a.upper()
    if kind == "e":
        if a.upper() not in ("TOP", "BOTTOM"):
            raise bad
        return a.upper()
    if kind == "T":
        if a.lower() not in TIERS:
            raise bad
        return a.lower()
    if kind == "p":
        if a.lower() not in ed.products:
            raise bad
        return a.lower()
    if kind == "d":
        if a.upper() in ("MARKET", "WAREHOUSE"):
            return a.upper()
        if a.upper().startswith("ICON(") and a.endswith(")"):
            parts = _split_top(a[5:-1])
            if len(parts) == 2:
                return ("ICON", _parse_arg(ed, "c", parts[0], text), _parse_arg(ed, "p", parts[1], text))
        raise bad
    raise bad


def parse_text(ed: Edition, text: str):
    """Text -> move tuple (no legality check). Accepts other case, spaces and any multiset order."""
    t = "".join(text.split())
    bad = InputError(f"error: move: cannot read {text!r}")
    if not t or "?" in t:
        raise bad
    if "(" in t:
        if not t.endswith(")"):
            raise bad
        name, rest = t[:t.index("(")].upper(), t[t.index("(") + 1:-1]
        args = _split_top(rest)
    else:
        name, args = t.upper(), []
    if name not in RANK:
        raise bad
    if name == "KEEP":
        if len(args) > 2:
            raise bad
        return ("KEEP",) + tuple(sorted(_parse_arg(ed, "c", a, text) for a in args))
    kinds = SIG.get(name, "")
    if len(args) != len(kinds):
        raise bad
    return (name,) + tuple(_parse_arg(ed, k, a, text) for k, a in zip(kinds, args))


def parse_move(s, text: str):
    """§18.1: the legal move whose canonical form equals the normalised text."""
    m = parse_text(s["ed"], text)
    if m not in legal_moves(s):
        raise InputError(f"error: move: {text!r} is not legal here")
    return m


def outcome_to_string(o) -> str:
    return f"DRAW({o[1]})"


# ---------------------------------------------------------------- setup (§4)

def _deck(segments):
    return {"top": [], "seg": [sorted(x) for x in segments if x], "bottom": []}


def setup(edition, players, options=None, rng=None) -> dict:
    """§4: deal with ``rng`` (4.2), fixed part (4.3), order and AP (4.4); the mulligan (4.5)
    is the first decision."""
    ed = edition if isinstance(edition, Edition) else Edition(edition)
    n = players if isinstance(players, int) else len(players)
    if not 2 <= n <= 5:
        raise InputError("error: players: Craftsmen takes 2-5 players")
    options = dict(options or {})
    rng = rng or random.Random(0)
    age = list(options.get("age_rank", range(n)))
    if sorted(age) != list(range(n)):
        raise InputError("error: age_rank: must be a permutation of 0..n-1")
    T = len(ed.types)
    money = list(ed.money_items)
    rng.shuffle(money)
    hands = [[0] * T for _ in range(n)]
    for s in range(n):  # 4.2.1
        for _ in range(ed.k["money_cards_dealt"]):
            hands[s][money.pop(0)] += 1
    display = [0] * T
    for _ in range(ed.k["money_display_size"]):
        display[money.pop(0)] += 1
    bhand = [[] for _ in range(n)]
    basic = list(ed.tier_ids["basic"])
    rng.shuffle(basic)
    for s in range(n):  # 4.2.2
        for _ in range(ed.k["basic_cards_dealt"]):
            bhand[s].append(basic.pop(0))
    fu = ed.k["faceup_per_building_deck"]
    faceup = {"basic": sorted(basic[:fu])}
    basic = basic[fu:]
    house = [i for i in ed.tier_ids["extended"] if ed.cards[i]["house"]]
    plain = [i for i in ed.tier_ids["extended"] if not ed.cards[i]["house"]]
    rng.shuffle(house)
    for s in range(n):  # 4.2.3
        for _ in range(ed.k["extended_house_cards_dealt"]):
            bhand[s].append(house.pop(0))
    faceup["extended"] = sorted(house[:fu])
    ext = _deck([house[fu:], plain])
    ahouse = [i for i in ed.tier_ids["advanced"] if ed.cards[i]["house"]]
    aplain = [i for i in ed.tier_ids["advanced"] if not ed.cards[i]["house"]]
    rng.shuffle(ahouse)  # 4.2.4
    faceup["advanced"] = sorted(ahouse[:fu])
    adv = _deck([ahouse[fu:], aplain])
    mills = list(ed.tier_ids["lumber_mill"])
    rng.shuffle(mills)  # 4.2.5
    rows = [[mills.pop(0)] for _ in range(n)]
    order, ap = initial_order(ed, hands, age)
    tok = str(n)
    g = {
        "ed": ed, "n": n, "age_rank": age, "year": 1, "season": 0,
        "turn_order": order, "order_change": [], "next_order": None,
        "ap": ap, "home": [ed.k["helpers_per_player"]] * n, "passed": [False] * n,
        "money": hands, "hand": [sorted(h) for h in bhand], "row": rows,
        "filled": [{} for _ in range(n)], "market": [0] * n,
        "priv_tokens": [0] * n, "work_tokens": [0] * n, "bonus": [[] for _ in range(n)],
        "contributed": [False] * n, "supply": [ed.k["cubes_per_player"]] * n,
        "guild": [[[None, None] for _ in range(_spaces(ed, n))] for _ in range(6)],
        "money_deck": _deck([money]), "display": display, "discard": [0] * T,
        "deck": {"basic": _deck([basic]), "extended": ext, "advanced": adv},
        "faceup": faceup, "box": sorted(mills),
        "warehouse": {w: [NEUTRAL] * ed.k["warehouse_slots_per_good"] for w in ed.warehouse_goods},
        "neutral_supply": ed.k["neutral_cubes"] - ed.k["warehouse_slots_per_good"] * len(ed.warehouse_goods),
        "ships": [[[None] * r["slots"] for r in sh["rows"]] for sh in ed.ships],
        "bank_priv": ed.k["privilege_tokens_by_players"][tok],
        "bank_work": ed.k["work_tokens_by_players"][tok],
        "bonus_unclaimed": list(ed.final),
        "stack": [], "act": None, "auction": None, "last_end": None, "terminal": False,
    }
    _push(g, [{"op": "mull_dec", "seat": s} for s in order] + [{"op": "round_begin"}])
    _run(g)
    return g


def initial_order(ed, hands, age_rank):
    """4.4 (A1): ascending printed sum, ties to the younger (lower age_rank); AP by position."""
    order = sorted(range(len(hands)), key=lambda s: (printed(ed, hands[s]), age_rank[s]))
    ap = [0] * len(hands)
    for pos, s in enumerate(order):
        ap[s] = ed.k["starting_ap_by_turn_position"][pos]
    return order, ap


def _spaces(ed, n):
    return ed.k["guild_spaces_2p"] if n == 2 else ed.k["guild_spaces"]


# ---------------------------------------------------------------- engine

def _push(g, frames):
    """Push frames so that frames[0] runs first."""
    g["stack"].extend(reversed(frames))


def _clone(g):
    """A deep copy (marshal is the fastest for plain data; the edition is shared)."""
    ed = g.pop("ed")
    try:
        h = marshal.loads(marshal.dumps(g))
    finally:
        g["ed"] = ed
    h["ed"] = ed
    return h


def phase(g) -> str:
    if not g["stack"]:
        return "terminal" if g["terminal"] else "idle"
    return "chance" if g["stack"][-1]["op"] == "draw" else "decision"


def current_seat(g):
    return g["stack"][-1].get("seat") if phase(g) == "decision" else None


def _run(g):
    """Run forced steps until a decision, a chance node or the end."""
    st = g["stack"]
    while st:
        f = st[-1]
        op = f["op"]
        if op in DECISIONS:
            return
        if op == "draw":
            if _draw_step(g, f):
                continue
            return
        st.pop()
        AUTO[op](g, f)


def legal_moves(g) -> list[tuple]:
    if phase(g) != "decision":
        return []
    f = g["stack"][-1]
    return _sort_moves(g["ed"], DECISIONS[f["op"]][0](g, f))


def legal_texts(g) -> list[str]:
    """The legal moves as notation (§18), canonical order."""
    return [move_to_string(m) for m in legal_moves(g)]


def apply(g, move, check=True, inplace=False) -> dict:
    """The successor after a decision (a new state unless ``inplace``)."""
    if isinstance(move, str):
        move = parse_move(g, move) if check else parse_text(g["ed"], move)
    elif check and move not in legal_moves(g):
        raise InputError(f"error: move: {move_to_string(move)} is not legal here")
    h = g if inplace else _clone(g)
    f = h["stack"].pop()
    h["last_end"] = None  # 7.5: a decision came; END handlers set it again
    DECISIONS[f["op"]][1](h, f, move)
    _run(h)
    return h


# ---------------------------------------------------------------- decks and chance (§6.4, §15, A3)

def _deck_of(g, name):
    return g["money_deck"] if name == "money" else g["deck"][name]


def _deck_size(d):
    return len(d["top"]) + sum(len(x) for x in d["seg"]) + len(d["bottom"])


def _money_available(g):
    return _deck_size(g["money_deck"]) > 0 or sum(g["discard"]) > 0


def _draw_step(g, f) -> bool:
    """A draw frame: known top, else a segment (chance: return False), else known bottom;
    an empty money deck first reshuffles the discard pile (A3). True when resolved."""
    d = _deck_of(g, f["deck"])
    d["seg"] = [x for x in d["seg"] if x]
    if d["top"]:
        g["stack"].pop()
        _deliver(g, f, d["top"].pop(0))
        return True
    if d["seg"]:
        return False
    if d["bottom"]:
        g["stack"].pop()
        _deliver(g, f, d["bottom"].pop(0))
        return True
    if f["deck"] == "money" and sum(g["discard"]):
        d["seg"] = [sorted(t for t, c in enumerate(g["discard"]) for _ in range(c))]
        g["discard"] = [0] * len(g["discard"])
        return False
    g["stack"].pop()  # nothing to draw (17.1, 17.2)
    return True


def chance_outcomes(g) -> list[tuple]:
    """[(("DRAW", item), Fraction)]: each item of the first non-empty segment, count/size."""
    if phase(g) != "chance":
        return []
    f = g["stack"][-1]
    seg = _deck_of(g, f["deck"])["seg"][0]
    ed = g["ed"]
    cnt = Counter(seg)
    name = (lambda x: ed.types[x]) if f["deck"] == "money" else (lambda x: x)
    out = [(("DRAW", name(x)), Fraction(c, len(seg))) for x, c in cnt.items()]
    return sorted(out, key=lambda o: o[0][1])


def apply_chance(g, outcome, check=True, inplace=False) -> dict:
    if isinstance(outcome, str):  # DRAW(type) or DRAW(card), any letter case (18.4)
        t = "".join(outcome.split())
        if not (t.upper().startswith("DRAW(") and t.endswith(")")):
            raise InputError(f"error: outcome: cannot read {outcome!r}")
        item = t[5:-1]
        outcome = ("DRAW", g["ed"].lower_id.get(item.lower(), item.upper()))
    if check and outcome not in [o for o, _ in chance_outcomes(g)]:
        raise InputError(f"error: outcome: {outcome_to_string(outcome)} is not possible here")
    h = g if inplace else _clone(g)
    f = h["stack"].pop()
    d = _deck_of(h, f["deck"])
    item = h["ed"].tindex[outcome[1]] if f["deck"] == "money" else outcome[1]
    d["seg"][0].remove(item)
    d["seg"] = [x for x in d["seg"] if x]
    h["last_end"] = None  # 7.5: a chance outcome came
    _deliver(h, f, item)
    _run(h)
    return h


def _deliver(g, f, item):
    kind = f["to"][0]
    if kind == "hand":
        g["money"][f["to"][1]][item] += 1
    elif kind == "display":
        g["display"][item] += 1
    elif kind == "mayor":
        g["auction"]["mayor_cards"][item] += 1
    elif kind == "faceup":
        g["faceup"][f["deck"]] = sorted(g["faceup"][f["deck"]] + [item])
    elif kind == "pool":
        g["act"]["look"]["drawn"].append(item)
    elif kind == "bhand":
        p = f["to"][1]
        g["hand"][p] = sorted(g["hand"][p] + [item])
    else:
        raise AssertionError(kind)


def _draw(deck, to):
    return {"op": "draw", "deck": deck, "to": to}


def _op_refill_display(g, f):
    """17.1: draw until the display holds 3 or deck and discard are both empty."""
    if sum(g["display"]) < g["ed"].k["money_display_size"] and _money_available(g):
        _push(g, [_draw("money", ["display"]), {"op": "refill_display"}])


def _op_refill_faceup(g, f):
    """17.2: fill every empty face-up space of the tier while its deck has cards."""
    tier = f["tier"]
    if len(g["faceup"][tier]) < g["ed"].k["faceup_per_building_deck"] and _deck_size(g["deck"][tier]):
        _push(g, [_draw(tier, ["faceup"]), {"op": "refill_faceup", "tier": tier}])


# ---------------------------------------------------------------- discards and hand limits (§7.2, §7.3)

def _count(g, s):
    return sum(g["money"][s])


def _op_discard_n(g, f):
    """7.2: min(d, h) successive DISCARD decisions."""
    k = min(f["n"], _count(g, f["seat"]))
    if k > 0:
        g["stack"].append({"op": "discard_dec", "seat": f["seat"], "left": k})


def _op_limit(g, f):
    """7.3: one seat down to a limit."""
    excess = _count(g, f["seat"]) - f["limit"]
    if excess > 0:
        g["stack"].append({"op": "discard_dec", "seat": f["seat"], "left": excess})


def _op_limit10(g, f):
    """7.3/A23: after an atomic step every seat above 10 discards at once (turn order)."""
    _push(g, [{"op": "limit", "seat": s, "limit": g["ed"].k["hand_limit"]} for s in g["turn_order"]])


def _moves_discard(g, f):
    return [("DISCARD", t) for t in _held_types(g["ed"], g["money"][f["seat"]])]


def _apply_discard(g, f, m):
    t = g["ed"].tindex[m[1]]
    g["money"][f["seat"]][t] -= 1
    g["discard"][t] += 1
    if f["left"] > 1:
        g["stack"].append({"op": "discard_dec", "seat": f["seat"], "left": f["left"] - 1})


def _moves_pay(g, f):
    return [("PAY", ms) for ms in minimal_payments(g["ed"], g["money"][f["seat"]], f["amount"], f.get("colours"))]


def _apply_pay(g, f, m):
    for x in m[1]:
        t = g["ed"].tindex[x]
        g["money"][f["seat"]][t] -= 1
        g["discard"][t] += 1


# ---------------------------------------------------------------- mulligan (§4.5)

def _box_options(g, p):
    """4.5/A2: a box mill of another (top, bottom) pair; identical data give one move (lowest id)."""
    ed = g["ed"]
    own = ed.cards[g["row"][p][0]]
    seen, out = set(), []
    for i in sorted(g["box"]):
        c = ed.cards[i]
        if (c["top"], c["bottom"]) == (own["top"], own["bottom"]):
            continue
        key = (c["top"], c["bottom"], c["ap"], c["output"])
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def _moves_mull(g, f):
    p, ed = f["seat"], g["ed"]
    out = [("KEEP",)]
    for i in g["hand"][p]:
        tier = ed.cards[i]["tier"]
        if tier == "basic":
            out.append(("SWAP_BASIC", i))
        elif tier == "extended":
            out.append(("SWAP_EXTENDED", i))
    out += [("SWAP_MILL", i) for i in _box_options(g, p)]
    return out


def _apply_mull(g, f, m):
    p = f["seat"]
    if m[0] in ("SWAP_BASIC", "SWAP_EXTENDED"):
        tier = "basic" if m[0] == "SWAP_BASIC" else "extended"
        g["hand"][p].remove(m[1])
        g["deck"][tier]["bottom"].append(m[1])  # under the deck first, then draw the top
        g["stack"].append(_draw(tier, ["bhand", p]))
    elif m[0] == "SWAP_MILL":
        g["box"] = sorted([x for x in g["box"] if x != m[1]] + [g["row"][p][0]])
        g["row"][p][0] = m[1]


# ---------------------------------------------------------------- rounds (§5, §11, §12, §13)

def _op_round_begin(g, f):
    g["passed"] = [False] * g["n"]
    if g["season"] < 3:
        _push(g, [{"op": "helper_phase", "next": 0}] + [{"op": "stage", "guild": k} for k in range(1, 7)]
              + [{"op": "final_phase"}, {"op": "end_of_round"}, {"op": "advance"}])
    else:  # §12, A18: guild phase II and IV, end of round, year end; no final phase
        _push(g, [{"op": "stage", "guild": 2}, {"op": "stage", "guild": 4}, {"op": "end_of_round"},
                  {"op": "year_end"}, {"op": "advance"}])


def _op_end_of_round(g, f):
    """11.4/§23: hand limit 8 in the turn order of the ending round."""
    _push(g, [{"op": "limit", "seat": s, "limit": g["ed"].k["hand_limit_end_of_round"]}
              for s in g["turn_order"]])


def _op_advance(g, f):
    """5.2.5: next season; 2 players swap positions at every new round (§16); the order change
    of 11.3 takes effect now (§23)."""
    if g["season"] == 3:
        if g["year"] == g["ed"].k["years"]:
            _game_end(g)
            return
        g["year"] += 1
        g["season"] = 0
    else:
        g["season"] += 1
    if g["n"] == 2:
        g["turn_order"] = g["turn_order"][::-1]
    elif g["next_order"] is not None:
        g["turn_order"] = g["next_order"]
    g["next_order"] = None
    g["stack"].append({"op": "round_begin"})


def _game_end(g):
    """14.1: bonus-token AP; terminal."""
    for s in range(g["n"]):
        g["ap"][s] += sum(g["ed"].bonus_ap[x] for x in g["bonus"][s])
    g["terminal"] = True


# ---------------------------------------------------------------- helper phase (§8)

def _discs(g, gi):
    return [d for sp in g["guild"][gi] for d in sp if d is not None]


def _stack_payable(g, p, space, q):
    """8.4: free on own disc, on space 3, or in 2 players; else a card or y AP (A7)."""
    if q == p or space == 3 or g["n"] == 2:
        return True
    return _count(g, p) > 0 or g["ap"][p] >= g["ed"].k["stack_payment_ap_by_year"][g["year"] - 1]


def _stack_options(g, p, gi):
    out = []
    for i, sp in enumerate(g["guild"][gi]):
        if sp[0] is not None and sp[1] is None and _stack_payable(g, p, i + 1, sp[0]["seat"]):
            out.append(i + 1)
    return out


def _place_ok(g, p, gi):
    """8.2: per-player cap, guild cap n+1, then an empty space or a payable stack option."""
    ed, n = g["ed"], g["n"]
    discs = _discs(g, gi)
    cap_p = ed.k["max_helpers_per_player_per_guild_2p" if n == 2 else "max_helpers_per_player_per_guild"]
    if sum(d["seat"] == p for d in discs) >= cap_p or len(discs) >= ed.k["guild_capacity_by_players"][str(n)]:
        return False
    if any(sp[0] is None for sp in g["guild"][gi]):
        return True
    return bool(_stack_options(g, p, gi))


def _op_helper_phase(g, f):
    """8.1: turn order, cyclically, skipping passed seats and seats with no helper home."""
    order, n = g["turn_order"], g["n"]
    for k in range(n):
        idx = (f["next"] + k) % n
        s = order[idx]
        if not g["passed"][s] and g["home"][s] > 0:
            _push(g, [{"op": "helper_dec", "seat": s}, {"op": "helper_phase", "next": (idx + 1) % n}])
            return
    pb = g["ed"].k["pass_bonus"]  # 8.5, A32
    for s in range(n):
        if g["home"][s] >= pb["min_unplaced_helpers"]:
            g["ap"][s] += pb["ap"]


def _moves_helper(g, f):
    p = f["seat"]
    return [("PASS",)] + [("PLACE", ROMAN[gi]) for gi in range(6) if _place_ok(g, p, gi)]


def _apply_helper(g, f, m):
    p = f["seat"]
    if m[0] == "PASS":
        g["passed"][p] = True
        return
    gi = ROMAN.index(m[1])
    for sp in g["guild"][gi]:  # 8.3: leftmost empty space
        if sp[0] is None:
            sp[0] = {"seat": p, "privileged": False}
            g["home"][p] -= 1
            return
    g["stack"].append({"op": "stack_dec", "seat": p, "guild": gi})


def _moves_stack(g, f):
    return [("STACK", sp) for sp in _stack_options(g, f["seat"], f["guild"])]


def _apply_stack(g, f, m):
    """8.4: the disc goes on at STACK; then the payment or the 2-player draw."""
    p, gi, space = f["seat"], f["guild"], m[1]
    sp = g["guild"][gi][space - 1]
    q = sp[0]["seat"]
    sp[1] = {"seat": p, "privileged": False}
    g["home"][p] -= 1
    if q == p or space == 3:
        return
    if g["n"] == 2:  # §16: the covered player draws the top money card
        _push(g, [_draw("money", ["hand", q]), {"op": "limit10"}])
        return
    g["stack"].append({"op": "stack_pay_dec", "seat": p, "to": q})


def _moves_stack_pay(g, f):
    p = f["seat"]
    out = [("PAY_CARD", t) for t in _held_types(g["ed"], g["money"][p])]
    if g["ap"][p] >= g["ed"].k["stack_payment_ap_by_year"][g["year"] - 1]:
        out.append(("PAY_AP",))
    return out


def _apply_stack_pay(g, f, m):
    p, q = f["seat"], f["to"]
    if m[0] == "PAY_AP":
        y = g["ed"].k["stack_payment_ap_by_year"][g["year"] - 1]
        g["ap"][p] -= y
        g["ap"][q] += y
    else:
        t = g["ed"].tindex[m[1]]
        g["money"][p][t] -= 1
        g["money"][q][t] += 1
        g["stack"].append({"op": "limit10"})


# ---------------------------------------------------------------- guild phase frame (§9.1, §7.4, §7.5)

def _op_stage(g, f):
    """9.1: helpers along the track (space 1..3, bottom then top); winter: one virtual helper
    per seat in turn order (§12); then the stage windows in turn order (7.5)."""
    gi = f["guild"]
    acts = []
    if g["season"] == 3:
        for s in g["turn_order"]:
            acts.append({"op": "action", "guild": gi, "seat": s, "space": None, "layer": None})
    else:
        for i, sp in enumerate(g["guild"][gi - 1]):
            for layer in (0, 1):
                if sp[layer] is not None:
                    acts.append({"op": "action", "guild": gi, "seat": sp[layer]["seat"],
                                 "space": i + 1, "layer": layer})
    _push(g, acts + [{"op": "window", "seat": s} for s in g["turn_order"]])


START = {1: "banker_dec", 2: "arch_dec", 3: "notary_dec", 5: "merch_dec", 6: "th_dec"}


def _op_action(g, f):
    p, gi = f["seat"], f["guild"]
    g["act"] = {"seat": p, "guild": gi, "space": f["space"], "layer": f["layer"],
                "virtual": f["space"] is None, "priv_used": False, "cost": 0, "builds": 0,
                "look": None, "looked_first": False}
    if gi == 4:  # 10.1: no start or end window
        _push(g, [{"op": "craft_check", "seat": p, "pool": g["ed"].k["work_points_by_year"][g["year"] - 1]},
                  {"op": "act_clear"}])
    else:
        _push(g, [{"op": "window", "seat": p}, {"op": START[gi], "seat": p, "second": False},
                  {"op": "window", "seat": p}, {"op": "act_clear"}])


def _op_act_clear(g, f):
    g["act"] = None


def _priv_free(g):
    a = g["act"]
    return not a["virtual"] and a["space"] == 1


def priv_available(g) -> bool:
    """7.4: free on space 1, else by a privilege token; once per helper action."""
    a = g["act"]
    if a is None or a["priv_used"]:
        return False
    return _priv_free(g) or g["priv_tokens"][a["seat"]] >= 1


def _use_privilege(g):
    a = g["act"]
    assert priv_available(g)
    if not _priv_free(g):
        g["priv_tokens"][a["seat"]] -= 1
        g["bank_priv"] += 1
    a["priv_used"] = True
    if not a["virtual"]:
        disc = g["guild"][a["guild"] - 1][a["space"] - 1][a["layer"]]
        if disc is not None:
            disc["privileged"] = True


def work_token_legal(g, p) -> bool:
    """7.5/§23: a token held and some WP use other than PRODUCE2 legal with 1 WP."""
    return g["work_tokens"][p] >= 1 and bool(_wp_uses(g, p, allow2=False))


def _op_window(g, f):
    """7.5: opens only when WORK_TOKEN is legal and the last decision was not p's own END."""
    p = f["seat"]
    if g["last_end"] != p and work_token_legal(g, p):
        g["stack"].append({"op": "window_dec", "seat": p})


def _moves_window(g, f):
    return [("WORK_TOKEN",), ("END",)]


def _spend_work_token(g, p):
    g["work_tokens"][p] -= 1
    g["bank_work"] += 1


def _apply_window(g, f, m):
    p = f["seat"]
    if m[0] == "END":
        g["last_end"] = p
        return
    _spend_work_token(g, p)
    _push(g, [{"op": "wp_token_dec", "seat": p}, {"op": "window", "seat": p}])


# ---------------------------------------------------------------- stage I Bankers (§9.2)

def _moves_banker(g, f):
    out = [("SKIP",)]
    held = _held_types(g["ed"], g["display"])
    out += [("TAKE_FACEUP", t) for t in held]
    if not held:
        out.append(("TAKE_DECK",))
    return out


def _take_display(g, p, t):
    i = g["ed"].tindex[t]
    g["display"][i] -= 1
    g["money"][p][i] += 1


def _banker_rest(g, p, k):
    """9.2 steps 3-6 with §23's order: draws, privilege, own discards, limit 10, refill."""
    _push(g, [_draw("money", ["hand", p]) for _ in range(g["ed"].k["banker_take"] - k)]
          + [{"op": "banker_priv", "seat": p}, {"op": "limit10"}, {"op": "refill_display"}])


def _apply_banker(g, f, m):
    p = f["seat"]
    if m[0] == "SKIP":
        return
    if m[0] == "TAKE_DECK":
        _banker_rest(g, p, 0)
        return
    _take_display(g, p, m[1])
    g["stack"].append({"op": "banker2_dec", "seat": p})


def _moves_banker2(g, f):
    return [("TAKE_FACEUP", t) for t in _held_types(g["ed"], g["display"])] + [("STOP",)]


def _apply_banker2(g, f, m):
    p = f["seat"]
    if m[0] == "STOP":
        _banker_rest(g, p, 1)
    else:
        _take_display(g, p, m[1])
        _banker_rest(g, p, 2)


def _op_banker_priv(g, f):
    if priv_available(g):
        g["stack"].append({"op": "banker_priv_dec", "seat": f["seat"]})
    else:
        g["stack"].append({"op": "discard_n", "seat": f["seat"], "n": g["ed"].k["banker_discard"]})


def _moves_banker_priv(g, f):
    return [("PRIVILEGE",), ("NO_PRIVILEGE",)]


def _apply_banker_priv(g, f, m):
    k = g["ed"].k
    n = k["banker_discard"]
    if m[0] == "PRIVILEGE":
        _use_privilege(g)
        n = k["banker_discard_privilege"]
    g["stack"].append({"op": "discard_n", "seat": f["seat"], "n": n})


# ---------------------------------------------------------------- stage II Architects (§9.3)

def _matches(ed, new, end):
    a, b = ed.cards[new], ed.cards[end]
    return a["top"] == b["top"] or a["bottom"] == b["bottom"]


def _moves_arch(g, f):
    p, ed, a = f["seat"], g["ed"], g["act"]
    out = [("DONE",) if f["second"] else ("SKIP",)]
    v = value(ed, g["money"][p])
    for i in g["hand"][p]:
        tier = ed.cards[i]["tier"]
        if a["cost"] + ed.k["build_cost"][tier] > v:
            continue
        for side, end in (("L", g["row"][p][0]), ("R", g["row"][p][-1])):
            if _matches(ed, i, end) or a["priv_used"] or priv_available(g):
                out.append(("BUILD", i, side))
    return out


def _apply_arch(g, f, m):
    p, ed, a = f["seat"], g["ed"], g["act"]
    if m[0] in ("SKIP",):
        return
    if m[0] == "DONE":
        g["stack"].append({"op": "pay_dec", "seat": p, "amount": a["cost"]})
        return
    i, side = m[1], m[2]
    end = g["row"][p][0] if side == "L" else g["row"][p][-1]
    if not _matches(ed, i, end) and not a["priv_used"]:  # A17: one privilege covers both builds
        _use_privilege(g)
    g["hand"][p].remove(i)
    if side == "L":
        g["row"][p].insert(0, i)
    else:
        g["row"][p].append(i)
    if ed.cards[i]["tier"] in ("extended", "advanced"):
        g["filled"][p][i] = [0] * len(ed.cards[i]["inputs"])
    a["cost"] += ed.k["build_cost"][ed.cards[i]["tier"]]
    a["builds"] += 1
    _bonus_check(g, p)
    if a["builds"] < ed.k["max_builds_per_action"]:
        g["stack"].append({"op": "arch_dec", "seat": p, "second": True})
    else:
        g["stack"].append({"op": "pay_dec", "seat": p, "amount": a["cost"]})


def complete_line(g, p, good) -> bool:
    """9.3 step 4 (A21): an advanced card making the good, each input produced in the row;
    a semi-finished input by an extended card whose raw input is produced in the row."""
    ed = g["ed"]
    cards = [ed.cards[i] for i in g["row"][p]]
    raws = {c["output"] for c in cards if c["tier"] in ("lumber_mill", "basic")}

    def has(product):
        if product in ed.raw:
            return product in raws
        return any(c["tier"] == "extended" and c["output"] == product and all(x in raws for x in c["inputs"])
                   for c in cards)

    return any(c["tier"] == "advanced" and c["output"] == good and all(has(x) for x in c["inputs"])
               for c in cards)


def _bonus_check(g, p):
    for good in list(g["bonus_unclaimed"]):
        if complete_line(g, p, good):
            g["bonus_unclaimed"].remove(good)
            g["bonus"][p].append(good)
            g["bonus"][p].sort(key=g["ed"].final.index)


# ---------------------------------------------------------------- stage III Notary (§9.4)

def _look_tiers(g):
    return [t for t in TIERS if _deck_size(g["deck"][t]) > 0] if priv_available(g) else []


def _buy_moves(g, p):
    ed, out = g["ed"], []
    for tier in TIERS:
        for i in g["faceup"][tier]:
            c = ed.cards[i]
            cols = {c["top"], c["bottom"]}
            sub = [x if ed.tcol[t] in cols else 0 for t, x in enumerate(g["money"][p])]
            if value(ed, sub) >= ed.k["notary_buy_price"][tier]:
                out.append(("BUY", i))
    return out


def _auction_moves(g, p):
    ed, out = g["ed"], []
    v = value(ed, g["money"][p])
    for tier in TIERS:
        for i in g["faceup"][tier]:
            out += [("AUCTION", i, b) for b in range(ed.k["notary_min_bid"], v + 1)]
    return out


def _moves_notary(g, f):
    p = f["seat"]
    out = [("SKIP",)] + _buy_moves(g, p) + _auction_moves(g, p)
    if not g["act"]["looked_first"]:
        out += [("LOOK", t) for t in _look_tiers(g)]
    return out


def _tier(g, i):
    return g["ed"].cards[i]["tier"]


def _apply_notary(g, f, m):
    p, ed = f["seat"], g["ed"]
    if m[0] == "SKIP":
        return
    if m[0] == "LOOK":
        g["act"]["looked_first"] = True
        _start_look(g, p, m[1], then={"op": "notary_dec", "seat": p, "second": True})
    elif m[0] == "BUY":
        i = m[1]
        tier = _tier(g, i)
        c = ed.cards[i]
        _push(g, [{"op": "pay_dec", "seat": p, "amount": ed.k["notary_buy_price"][tier],
                   "colours": sorted({c["top"], c["bottom"]})},
                  {"op": "take_faceup", "seat": p, "card": i},
                  {"op": "refill_faceup", "tier": tier}, {"op": "notary_after", "seat": p}])
    else:
        i, bid = m[1], m[2]
        g["auction"] = {"card": i, "tier": _tier(g, i), "initiator": p, "opening": bid, "high": bid,
                        "high_bidder": p, "dropped": [], "raised": False,
                        "bids": {p: bid}, "mayor_cards": [0] * len(ed.types), "mayor": None}
        g["stack"].append({"op": "auction_step", "next": (p + 1) % g["n"]})


def _op_take_faceup(g, f):
    i = f["card"]
    tier = _tier(g, i)
    g["faceup"][tier].remove(i)
    g["hand"][f["seat"]] = sorted(g["hand"][f["seat"]] + [i])
    g["auction"] = None


def _op_notary_after(g, f):
    """9.4: after a finished BUY or AUCTION, LOOK(tier) or DONE if the privilege is unused."""
    if not g["act"]["looked_first"] and _look_tiers(g):
        g["stack"].append({"op": "notary_look_dec", "seat": f["seat"]})


def _moves_notary_look(g, f):
    return [("DONE",)] + [("LOOK", t) for t in _look_tiers(g)]


def _apply_notary_look(g, f, m):
    if m[0] == "LOOK":
        _start_look(g, f["seat"], m[1], then=None)


def _start_look(g, p, tier, then):
    """9.4 LOOK (A27): privilege; up to 3 draws; KEEP; RETURNs."""
    _use_privilege(g)
    g["act"]["look"] = {"tier": tier, "drawn": [], "returning": []}
    frames = [_draw(tier, ["pool"]) for _ in range(g["ed"].k["notary_privilege"]["from_deck"])]
    frames.append({"op": "look_keep_dec", "seat": p})
    if then:
        frames.append(then)
    _push(g, frames)


def _look_pool(g):
    lk = g["act"]["look"]
    return sorted(lk["drawn"] + g["faceup"][lk["tier"]])


def _moves_look_keep(g, f):
    pool = _look_pool(g)
    keep = g["ed"].k["notary_privilege"]["keep_faceup"]
    if len(pool) <= keep:
        return [("KEEP",) + tuple(pool)]
    return [("KEEP",) + c for c in itertools.combinations(pool, keep)]


def _apply_look_keep(g, f, m):
    lk = g["act"]["look"]
    pool = _look_pool(g)
    kept = list(m[1:])
    g["faceup"][lk["tier"]] = sorted(kept)
    lk["drawn"] = []
    lk["returning"] = sorted(x for x in pool if x not in kept)
    if lk["returning"]:
        g["stack"].append({"op": "look_return_dec", "seat": f["seat"]})


def _moves_look_return(g, f):
    return [("RETURN", i, e) for i in g["act"]["look"]["returning"] for e in ("TOP", "BOTTOM")]


def _apply_look_return(g, f, m):
    lk = g["act"]["look"]
    d = g["deck"][lk["tier"]]
    lk["returning"].remove(m[1])
    if m[2] == "TOP":
        d["top"].insert(0, m[1])
    else:
        d["bottom"].append(m[1])
    if lk["returning"]:
        g["stack"].append({"op": "look_return_dec", "seat": f["seat"]})


def _op_auction_step(g, f):
    """9.4.1-2 (A6): clockwise by seat, skipping dropped players and the high bidder."""
    a, n = g["auction"], g["n"]
    for k in range(n):
        s = (f["next"] + k) % n
        if s != a["high_bidder"] and s not in a["dropped"]:
            _push(g, [{"op": "bid_dec", "seat": s}, {"op": "auction_step", "next": (s + 1) % n}])
            return
    if a["raised"]:
        _auction_won(g, a["high_bidder"], a["high"])
    else:  # 9.4.3: the mayor bids
        k = g["ed"].k["mayor_cards"][a["tier"]]
        _push(g, [_draw("money", ["mayor"]) for _ in range(k)] + [{"op": "mayor_resolve"}])


def _moves_bid(g, f):
    a = g["auction"]
    v = value(g["ed"], g["money"][f["seat"]])
    return [("BID", x) for x in range(a["high"] + 1, v + 1)] + [("DROP",)]


def _apply_bid(g, f, m):
    a, s = g["auction"], f["seat"]
    if m[0] == "DROP":
        a["dropped"].append(s)
    else:
        a["high"], a["high_bidder"], a["raised"] = m[1], s, True
        a["bids"][s] = m[1]


def _discard_mayor(g):
    a = g["auction"]
    for t, c in enumerate(a["mayor_cards"]):
        g["discard"][t] += c
    a["mayor_cards"] = [0] * len(a["mayor_cards"])


def _op_mayor_resolve(g, f):
    a = g["auction"]
    a["mayor"] = value(g["ed"], a["mayor_cards"])
    if a["mayor"] < a["opening"]:  # A5: bids are binding
        _discard_mayor(g)
        _auction_won(g, a["initiator"], a["opening"])
    else:
        g["stack"].append({"op": "mayor_dec", "seat": a["initiator"]})


def _moves_mayor(g, f):
    a = g["auction"]
    v = value(g["ed"], g["money"][f["seat"]])
    return [("BID", x) for x in range(a["mayor"] + 1, v + 1)] + [("DROP",)]


def _apply_mayor(g, f, m):
    a = g["auction"]
    _discard_mayor(g)
    if m[0] == "BID":
        a["bids"][f["seat"]] = m[1]
        _auction_won(g, f["seat"], m[1])
        return
    i, tier = a["card"], a["tier"]  # the card goes under its deck
    g["faceup"][tier].remove(i)
    g["deck"][tier]["bottom"].append(i)
    g["auction"] = None
    _push(g, [{"op": "refill_faceup", "tier": tier}, {"op": "notary_after", "seat": g["act"]["seat"]}])


def _auction_won(g, w, price):
    a = g["auction"]
    _push(g, [{"op": "pay_dec", "seat": w, "amount": price},
              {"op": "take_faceup", "seat": w, "card": a["card"]},
              {"op": "refill_faceup", "tier": a["tier"]}, {"op": "notary_after", "seat": g["act"]["seat"]}])


# ---------------------------------------------------------------- stage IV Craftsmen (§10)

def _wp_card(g, p, i):
    return g["ed"].cards[i]


def _empty_icon(g, p, i, product):
    """1.4: the first empty icon of card i for the product, or None."""
    ins = g["ed"].cards[i]["inputs"]
    bits = g["filled"][p].get(i)
    if bits is None:
        return None
    for k, x in enumerate(ins):
        if x == product and not bits[k]:
            return k
    return None


def _icon_targets(g, p, product, tiers=("extended", "advanced")):
    ed = g["ed"]
    return [i for i in g["row"][p] if ed.cards[i]["tier"] in tiers and _empty_icon(g, p, i, product) is not None]


def _room(g, p, raw):
    """Destinations for raws of this type: market places + empty icons (A9, 17.4)."""
    ed = g["ed"]
    n = max(0, ed.k["market_max_cubes"] - g["market"][p])
    for i in g["row"][p]:
        if ed.cards[i]["tier"] in ("extended", "advanced") and i in g["filled"][p]:
            n += sum(1 for k, x in enumerate(ed.cards[i]["inputs"]) if x == raw and not g["filled"][p][i][k])
    return n


def _wp_uses(g, p, allow2):
    """10.2-10.5: the WP uses legal with 1 WP."""
    ed = g["ed"]
    out = []
    for i in g["row"][p]:
        c = ed.cards[i]
        if c["tier"] in ("lumber_mill", "basic"):
            if g["supply"][p] >= 1 and _room(g, p, c["output"]) >= 1:
                out.append(("PRODUCE", i))
            if allow2 and g["supply"][p] >= 2 and _room(g, p, c["output"]) >= 2:
                out.append(("PRODUCE2", i))
        else:
            bits = g["filled"][p][i]
            if g["market"][p] >= 1:
                for x in sorted(set(c["inputs"])):
                    if x in ed.raw and _empty_icon(g, p, i, x) is not None:
                        out.append(("TRADE", i, x))
            if all(bits):
                out.append(("MAKE", i))
    return out


def _op_craft_check(g, f):
    """10.1: the action ends by itself when the pool is 0 and p holds no work token."""
    if f["pool"] == 0 and g["work_tokens"][f["seat"]] == 0:
        return
    g["stack"].append({"op": "craft_dec", "seat": f["seat"], "pool": f["pool"]})


def _moves_craft(g, f):
    p = f["seat"]
    out = []
    if f["pool"] >= 1:
        out += _wp_uses(g, p, allow2=priv_available(g))
    if work_token_legal(g, p):
        out.append(("WORK_TOKEN",))
    return out + [("END",)]


def _apply_craft(g, f, m):
    p = f["seat"]
    if m[0] == "END":
        g["last_end"] = p
        return
    if m[0] == "WORK_TOKEN":
        _spend_work_token(g, p)
        _push(g, [{"op": "wp_token_dec", "seat": p}, {"op": "craft_check", "seat": p, "pool": f["pool"]}])
        return
    g["stack"].append({"op": "craft_check", "seat": p, "pool": f["pool"] - 1})
    _wp_apply(g, p, m)


def _moves_wp_token(g, f):
    return _wp_uses(g, f["seat"], allow2=False)


def _apply_wp_token(g, f, m):
    _wp_apply(g, f["seat"], m)


def _wp_apply(g, p, m):
    ed = g["ed"]
    name, i = m[0], m[1]
    c = ed.cards[i]
    if name == "PRODUCE":
        g["supply"][p] -= 1
        g["ap"][p] += c["ap"]
        g["stack"].append({"op": "send_raw_dec", "seat": p, "raw": c["output"]})
    elif name == "PRODUCE2":
        _use_privilege(g)
        g["supply"][p] -= 2
        g["ap"][p] += 2 * c["ap"]
        _push(g, [{"op": "send_raw_dec", "seat": p, "raw": c["output"]}] * 2)
    elif name == "TRADE":
        g["market"][p] -= 1
        g["filled"][p][i][_empty_icon(g, p, i, m[2])] = 1
    elif name == "MAKE":
        k = len(c["inputs"])
        g["filled"][p][i] = [0] * k
        g["supply"][p] += k - 1  # one cube becomes the good, the others return (10.5)
        good = c["output"]
        if good in ed.shippable:  # final goods and meat: a ship (10.4, 10.5); AP when loaded (A11)
            g["stack"].append({"op": "load_dec", "seat": p, "good": good, "card": i})
        else:
            g["ap"][p] += c["ap"]
            g["stack"].append({"op": "send_semi_dec", "seat": p, "good": good})
    else:
        raise AssertionError(m)


def _moves_send_raw(g, f):
    p, raw = f["seat"], f["raw"]
    out = [("SEND", ("ICON", i, raw)) for i in _icon_targets(g, p, raw)]
    if g["market"][p] < g["ed"].k["market_max_cubes"]:
        out.append(("SEND", "MARKET"))
    return out


def _apply_send(g, f, m):
    p, d = f["seat"], m[1]
    if d == "MARKET":
        g["market"][p] += 1
    elif d == "WAREHOUSE":
        _to_warehouse(g, p, f["good"])
    else:
        g["filled"][p][d[1]][_empty_icon(g, p, d[1], d[2])] = 1


def _moves_send_semi(g, f):
    p, good = f["seat"], f["good"]
    out = [("SEND", ("ICON", i, good)) for i in _icon_targets(g, p, good, ("advanced",))]
    if good in g["ed"].warehouse_goods:
        out.append(("SEND", "WAREHOUSE"))
    return out


def _return_cube(g, owner):
    if owner == NEUTRAL:
        g["neutral_supply"] += 1
    else:
        g["supply"][owner] += 1


def _to_warehouse(g, p, good):
    """10.4 (A10): lowest free slot, else push the bottom out; then the reward (A31)."""
    row = g["warehouse"][good]
    if row[0] is None:
        row[0] = p
    elif row[1] is None:
        row[1] = p
    else:
        _return_cube(g, row[0])
        row[0], row[1] = row[1], p
    g["stack"].append({"op": "reward", "seat": p})


def _op_reward(g, f):
    """§23: REWARD_DECK only when a card can be drawn; nothing possible -> lost."""
    if sum(g["display"]) or _money_available(g):
        g["stack"].append({"op": "reward_dec", "seat": f["seat"]})


def _moves_reward(g, f):
    out = [("REWARD", t) for t in _held_types(g["ed"], g["display"])]
    if _money_available(g):
        out.append(("REWARD_DECK",))
    return out


def _apply_reward(g, f, m):
    """§23: reward, then the 10-card limit, then the display refill."""
    p = f["seat"]
    if m[0] == "REWARD":
        _take_display(g, p, m[1])
        _push(g, [{"op": "limit10"}, {"op": "refill_display"}])
    else:
        _push(g, [_draw("money", ["hand", p]), {"op": "limit10"}])


def _ship_row(g, k, good):
    for r, row in enumerate(g["ed"].ships[k]["rows"]):
        if row["product"] == good:
            return r
    return None


def _moves_load(g, f):
    p, good = f["seat"], f["good"]
    ed = g["ed"]
    out, free = [], False
    for k, sh in enumerate(ed.ships):
        r = _ship_row(g, k, good)
        if r is None:
            continue
        slots = g["ships"][k][r]
        if None in slots:
            out.append(("LOAD", sh["id"]))
            free = True
        elif slots[0] != p:
            out += [("LOAD_BRIBE", sh["id"], t) for t in _held_types(ed, g["money"][p])]
    if not free:
        out.append(("LOSE",))
    return out


def _apply_load(g, f, m):
    p, ed = f["seat"], g["ed"]
    if m[0] == "LOSE":
        g["supply"][p] += 1
        return
    k = [sh["id"] for sh in ed.ships].index(m[1])
    slots = g["ships"][k][_ship_row(g, k, f["good"])]
    if m[0] == "LOAD":
        slots[slots.index(None)] = p
    else:
        t = ed.tindex[m[2]]
        g["money"][p][t] -= 1
        g["discard"][t] += 1
        _return_cube(g, slots[0])
        slots[:] = slots[1:] + [p]
    g["ap"][p] += ed.cards[f["card"]]["ap"]


# ---------------------------------------------------------------- stage V Merchants (§9.5)

def _moves_merch(g, f):
    p, ed = f["seat"], g["ed"]
    out = [("SKIP",)]
    can_pay = _count(g, p) >= 1 or (priv_available(g) and g["market"][p] >= 1)
    if g["supply"][p] < 1 or not can_pay:
        return out
    for good in ed.warehouse_goods:
        bottom = g["warehouse"][good][0]
        if bottom is None or bottom == p:
            continue
        out += [("PURCHASE", good, i) for i in _icon_targets(g, p, good, ("advanced",))]
    return out


def _apply_merch(g, f, m):
    if m[0] == "PURCHASE":
        g["stack"].append({"op": "merch_pay_dec", "seat": f["seat"], "good": m[1], "card": m[2]})


def _moves_merch_pay(g, f):
    p = f["seat"]
    out = [("PAY_CARD", t) for t in _held_types(g["ed"], g["money"][p])]
    if priv_available(g) and g["market"][p] >= 1:
        out.append(("PAY_MARKET",))
    return out


def _apply_merch_pay(g, f, m):
    """9.5 (A12): the bought cube returns to its owner, p's own cube goes on the icon, the top
    cube slides down; then the payment."""
    p, ed, good, i = f["seat"], g["ed"], f["good"], f["card"]
    row = g["warehouse"][good]
    owner = row[0]
    _return_cube(g, owner)
    row[0], row[1] = row[1], None
    g["supply"][p] -= 1
    g["filled"][p][i][_empty_icon(g, p, i, good)] = 1
    if m[0] == "PAY_CARD":
        t = ed.tindex[m[1]]
        g["money"][p][t] -= 1
        if owner == NEUTRAL:
            g["discard"][t] += 1
        else:
            g["money"][owner][t] += 1
            g["stack"].append({"op": "limit10"})
    else:
        _use_privilege(g)
        g["market"][p] -= 1
        g["supply"][p] += 1
        if owner != NEUTRAL and g["market"][owner] == 0:
            g["stack"].append({"op": "comp_dec", "seat": owner})


def _moves_comp(g, f):
    return [("MARKET_PLACE",), ("DECLINE",)]


def _apply_comp(g, f, m):
    q = f["seat"]
    if m[0] == "MARKET_PLACE":
        g["supply"][q] -= 1
        g["market"][q] += 1


# ---------------------------------------------------------------- stage VI Town Hall (§9.6)

def _moves_th(g, f):
    p, k = f["seat"], g["ed"].k
    out = [("SKIP",)]
    if g["bank_priv"] > 0 and g["priv_tokens"][p] < k["max_privilege_tokens_held"]:
        out.append(("TAKE_PRIVILEGE",))
    if g["bank_work"] > 0 and g["work_tokens"][p] < k["max_work_tokens_held"]:
        out.append(("TAKE_WORK",))
    if g["n"] >= 3 and len(g["order_change"]) < k["order_change_spaces"] and p not in g["order_change"]:
        out.append(("ORDER_CHANGE",))
    return out


def _apply_th(g, f, m):
    p = f["seat"]
    if m[0] == "TAKE_PRIVILEGE":
        g["bank_priv"] -= 1
        g["priv_tokens"][p] += 1
    elif m[0] == "TAKE_WORK":
        g["bank_work"] -= 1
        g["work_tokens"][p] += 1
    elif m[0] == "ORDER_CHANGE":  # the helper leaves its space for the track
        a = g["act"]
        g["guild"][a["guild"] - 1][a["space"] - 1][a["layer"]] = None
        g["order_change"].append(p)


# ---------------------------------------------------------------- final phase (§11)

def _op_final_phase(g, f):
    n, k = g["n"], g["ed"].k
    for gd in g["guild"]:  # 11.1
        for sp in gd:
            for layer in (0, 1):
                if sp[layer] is not None and not sp[layer]["privileged"]:
                    sp[layer] = None
    counts = [0] * n  # 11.2 (R6, A15)
    for gd in g["guild"]:
        for sp in gd:
            for d in sp:
                if d is not None:
                    counts[d["seat"]] += 1
    if n == 2:
        cands = [] if counts[0] == counts[1] else [counts.index(min(counts))]
    else:
        cands = [s for s in range(n) if counts[s] == min(counts)]
    cands = [s for s in cands if g["priv_tokens"][s] < k["max_privilege_tokens_held"]]
    for s in reversed(g["turn_order"]):  # shortage: from the last position forward
        if s in cands and g["bank_priv"] > 0:
            g["priv_tokens"][s] += k["catch_up_tokens_per_seat"]
            g["bank_priv"] -= k["catch_up_tokens_per_seat"]
    g["guild"] = [[[None, None] for _ in gd] for gd in g["guild"]]  # 11.3
    g["home"] = [k["helpers_per_player"]] * n
    if n >= 3:
        track = g["order_change"]
        g["next_order"] = track + [s for s in g["turn_order"] if s not in track]
    g["order_change"] = []


# ---------------------------------------------------------------- year end (§13)

def ship_scores(g) -> list[int]:
    """13.1: row AP per cube, then the majority bonuses by cubes, ties by the best cube
    (higher row, then left slot)."""
    n, ed = g["n"], g["ed"]
    gain = [0] * n
    for k, sh in enumerate(ed.ships):
        cnt, best = Counter(), {}
        for r, slots in enumerate(g["ships"][k]):
            for i, s in enumerate(slots):
                if s is not None:
                    gain[s] += sh["rows"][r]["ap"]
                    cnt[s] += 1
                    best[s] = min(best.get(s, (r, i)), (r, i))
        for place, s in enumerate(sorted(cnt, key=lambda s: (-cnt[s], best[s]))):
            if place < len(sh["bonuses"]):
                gain[s] += sh["bonuses"][place]
    return gain


def town_sets(g, p) -> int:
    """13.2 (A22): min over the four colours of the halves in the row."""
    ed = g["ed"]
    c = Counter()
    for i in g["row"][p]:
        c[ed.cards[i]["top"]] += 1
        c[ed.cards[i]["bottom"]] += 1
    return min(c[x] for x in ed.colours)


def _op_year_end(g, f):
    n, ed = g["n"], g["ed"]
    for s, x in enumerate(ship_scores(g)):  # 13.1
        g["ap"][s] += x
    for rows in g["ships"]:
        for slots in rows:
            for i, s in enumerate(slots):
                if s is not None:
                    g["supply"][s] += 1
                    slots[i] = None
    for s in range(n):  # 13.2
        g["ap"][s] += ed.k["colour_set_ap"] * town_sets(g, s)
    for good, row in g["warehouse"].items():  # 13.3 (R9)
        for i, s in enumerate(row):
            if s is not None and s != NEUTRAL:
                g["ap"][s] += ed.k["warehouse_year_end_ap_per_cube"]
                g["supply"][s] += 1
            if s != NEUTRAL:
                row[i] = NEUTRAL
                g["neutral_supply"] -= 1
    g["contributed"] = [False] * n
    _push(g, [{"op": "contrib_dec", "seat": s} for s in g["turn_order"]])  # 13.4


def _moves_contrib(g, f):
    p, ed = f["seat"], g["ed"]
    out = [("DECLINE",)]
    if g["contributed"][p]:
        return out
    per = [[ed.types[t] for t in ts if g["money"][p][t]] for ts in ed.by_colour]
    out += [("CONTRIBUTE", combo) for combo in itertools.product(*per)]
    return out


def _apply_contrib(g, f, m):
    p, ed = f["seat"], g["ed"]
    if m[0] == "CONTRIBUTE":
        for x in m[1]:
            t = ed.tindex[x]
            g["money"][p][t] -= 1
            g["discard"][t] += 1
            g["ap"][p] += ed.tval[t]
        g["contributed"][p] = True


# ---------------------------------------------------------------- results (§14)

def scores(g) -> list[dict]:
    bonus = [sum(g["ed"].bonus_ap[x] for x in g["bonus"][s]) for s in range(g["n"])]
    return [{"total": g["ap"][s], "bonus": bonus[s], "money_cards": _count(g, s)} for s in range(g["n"])]


def ranking(g) -> list[int]:
    """14.2 (A19): AP, then money cards, then later in the final turn order."""
    pos = {s: i for i, s in enumerate(g["turn_order"])}
    return sorted(range(g["n"]), key=lambda s: (-g["ap"][s], -_count(g, s), -pos[s]))


# ---------------------------------------------------------------- fields (§6.1)

def cube_supply(g, p) -> int:
    """6.1 derived supply (a cube awaiting its destination counts as supply)."""
    k = g["ed"].k["cubes_per_player"]
    on_icons = sum(sum(b) for b in g["filled"][p].values())
    wh = sum(row.count(p) for row in g["warehouse"].values())
    sh = sum(slots.count(p) for rows in g["ships"] for slots in rows)
    return k - g["market"][p] - on_icons - wh - sh


def to_fields(g) -> dict:
    """The §6.1 fields, plain data (no edition object, no frame internals but the pending
    decision's kind and seat)."""
    ed = g["ed"]
    f = {k: v for k, v in g.items() if k not in ("ed", "stack", "act", "auction", "supply")}
    f = pickle.loads(pickle.dumps(f))
    f["supply"] = [cube_supply(g, p) for p in range(g["n"])]
    f["phase"] = phase(g)
    top = g["stack"][-1] if g["stack"] else None
    f["context"] = {"op": top["op"], "seat": top.get("seat")} if top else None
    f["money"] = [dict(zip(ed.types, h)) for h in g["money"]]
    return f


# ---------------------------------------------------------------- dispatch

DECISIONS = {
    "mull_dec": (_moves_mull, _apply_mull),
    "helper_dec": (_moves_helper, _apply_helper),
    "stack_dec": (_moves_stack, _apply_stack),
    "stack_pay_dec": (_moves_stack_pay, _apply_stack_pay),
    "window_dec": (_moves_window, _apply_window),
    "discard_dec": (_moves_discard, _apply_discard),
    "pay_dec": (_moves_pay, _apply_pay),
    "banker_dec": (_moves_banker, _apply_banker),
    "banker2_dec": (_moves_banker2, _apply_banker2),
    "banker_priv_dec": (_moves_banker_priv, _apply_banker_priv),
    "arch_dec": (_moves_arch, _apply_arch),
    "notary_dec": (_moves_notary, _apply_notary),
    "notary_look_dec": (_moves_notary_look, _apply_notary_look),
    "look_keep_dec": (_moves_look_keep, _apply_look_keep),
    "look_return_dec": (_moves_look_return, _apply_look_return),
    "bid_dec": (_moves_bid, _apply_bid),
    "mayor_dec": (_moves_mayor, _apply_mayor),
    "craft_dec": (_moves_craft, _apply_craft),
    "wp_token_dec": (_moves_wp_token, _apply_wp_token),
    "send_raw_dec": (_moves_send_raw, _apply_send),
    "send_semi_dec": (_moves_send_semi, _apply_send),
    "reward_dec": (_moves_reward, _apply_reward),
    "load_dec": (_moves_load, _apply_load),
    "merch_dec": (_moves_merch, _apply_merch),
    "merch_pay_dec": (_moves_merch_pay, _apply_merch_pay),
    "comp_dec": (_moves_comp, _apply_comp),
    "th_dec": (_moves_th, _apply_th),
    "contrib_dec": (_moves_contrib, _apply_contrib),
}

AUTO = {
    "round_begin": _op_round_begin, "end_of_round": _op_end_of_round, "advance": _op_advance,
    "helper_phase": _op_helper_phase, "stage": _op_stage, "action": _op_action,
    "act_clear": _op_act_clear, "window": _op_window, "banker_priv": _op_banker_priv,
    "discard_n": _op_discard_n, "limit": _op_limit, "limit10": _op_limit10,
    "refill_display": _op_refill_display, "refill_faceup": _op_refill_faceup,
    "take_faceup": _op_take_faceup, "notary_after": _op_notary_after,
    "auction_step": _op_auction_step, "mayor_resolve": _op_mayor_resolve,
    "craft_check": _op_craft_check, "reward": _op_reward, "final_phase": _op_final_phase,
    "year_end": _op_year_end,
}
