"""An independent, plain-Python reading of the Leonardo da Vinci rules, written from the spec
(shared/rules/leonardo.md, §11.4 overriding anything earlier) and the edition data alone, never
from the C++ core. The tests compare the core with it move list by move list and successor by
successor; tests/test_leonardo_model.py runs the spec's worked scenarios (§10) through it.

State: one plain dict (deep-copyable, comparable), fields named as the spec names them (§3.1).
Moves: small tuples; ``move_text`` / ``parse_text`` give the notation.

* ``load_edition``                the edition JSON reduced to plain values (§1.9 data).
* ``setup``                       §2 (expert with favour picks by default, basic, Codex option).
* ``legal_moves`` / ``apply``     §5, every decision, canonical order (§11.4).
* ``chance_outcomes`` / ``apply_chance``   refill draws (§5.6, §6.2, exact Fractions).
* ``scores`` / ``winners`` / ``utilities``  §7 with the whole R7 tie-break chain.
* ``deck_hypotheses`` / ``draw_distribution``  §3.5.1 / §6.2 for a viewpoint.
* ``deck_order_count`` / ``sample_deck``  §3.5.1 counting and the sampler (steps 4-6).
* ``deck_knowledge`` / ``viewpoint``  §3.4 / §3.3 what one seat knows.
* ``hidden_pairs``                §3.5.2 valid pairs for two hidden labs.
* ``perft``                       leaf counts (forced moves and draws are no plies).
* ``to_fields``                   the state without the edition, plus actor, price marker, auction.

Forced decisions (§11.4): when a decision's only option is PASS, DECLINE or NONE the model plays
it itself; ``legal_moves`` never returns such a singleton.
"""
from __future__ import annotations

import copy
import itertools
import json
import math
import pathlib
import pickle
import random
from fractions import Fraction

AREAS = "ABCDEFGH"
LABS = ("small", "large")
FORCED = ("pass", "decline", "none")

_HERE = pathlib.Path(__file__).resolve()
EDITION_PATHS = [_HERE.parents[1] / "src" / "atelier" / "data" / "editions" / "leonardo.json"]


# ---------------------------------------------------------------- edition (§1, §1.9 data)

def _v(x):
    """Edition entries carry provenance inline as {"value": ..., "provenance": ...}."""
    return x["value"] if isinstance(x, dict) and "value" in x else x


def load_edition(path=None) -> dict:
    if path is None:
        path = next(p for p in EDITION_PATHS if p.exists())
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    return edition_from_json(raw)


def edition_from_json(raw: dict) -> dict:
    c = {k: _v(v) for k, v in raw["constants"].items()}
    s = raw["setup"]
    kinds = list(c["material_kinds"])
    cards = {}
    for inv in raw["inventions"]:
        cards[inv["number"]] = {
            "tier": inv["tier"], "weeks": inv["weeks"], "type": inv["type"],
            "materials": {k: inv["materials"].get(k, 0) for k in kinds},
            "reward_first": inv["reward_first"], "reward_later": inv["reward_later"]}
    piles = _v(s["deck_building"]["piles"])
    basic, expert = s["basic"], s["expert"]
    return {
        "kinds": kinds,
        "shop_of": {a: k for a, k in c["shops"].items()},  # area letter -> kind
        "per_kind": c["material_cards_per_kind"],
        "prices": list(c["area_prices"]),
        "pot_start": c["council_pot_start"],
        "pot_income": c["council_income_per_turn"],
        "apprentices_per_colour": c["apprentices_per_colour"],
        "removed": {int(n): v for n, v in c["apprentices_removed_per_player"].items()},
        "master_strength": c["master_strength"],
        "weeks_by": c["research_weeks"],
        "mech_per_player": c["mechanical_men_per_player"],
        "lab_sides": {lab: {int(side): d for side, d in c["labs"][lab]["sides"].items()}
                      for lab in LABS},
        "lab_start_side": {lab: c["labs"][lab]["start_side"] for lab in LABS},
        "track_max": c["lab_track_max"],
        "discount": c["same_type_discount_weeks"],
        "row_size": {int(n): v for n, v in c["requested_row_size"].items()},
        "bonus": {int(n): v for n, v in c["end_bonus_by_distinct_types"].items()},
        "turns": c["turns"], "normal_turns": c["normal_turns"],
        "tiers": list(raw["tiers"].keys()),  # bronze, copper, silver, gold
        "cards": cards,
        "bottom": list(piles["bottom"]["cards"]),
        "middle": list(piles["middle"]["cards"]),
        "plus_lower": dict(piles["middle"]["plus_lower_tier"]),
        "basic_row": {int(n): list(v) for n, v in _v(basic["initial_requested"]).items()},
        "kits": {k: v for k, v in basic["seats"].items()},
        "base_kit": _v(expert["base_kit"]),
        "favours_per_player": {int(n): v for n, v in _v(expert["favours_per_player"]).items()},
        "cap": {int(n): v for n, v in _v(expert["same_letter_cap"]).items()},
        "discard_2p": dict(_v(expert["two_player_discard"])),
    }


# ---------------------------------------------------------------- small helpers

def zero(ed):
    return {k: 0 for k in ed["kinds"]}


def fits(need: dict, have: dict) -> bool:
    return all(have.get(k, 0) >= v for k, v in need.items())


def add(a: dict, b: dict, sign=1) -> dict:
    return {k: a.get(k, 0) + sign * b.get(k, 0) for k in set(a) | set(b)}


def order_from(L, n):
    """§1.8: L, L+1, ..., L+N-1 (mod N)."""
    return [(L + i) % n for i in range(n)]


def new_lab(side):
    return {"side": side, "mech": 0, "app": 0, "master": False, "card": None, "under": None,
            "counter": 0, "start_turn": None, "continuing": False, "cand": None}


def spaces(ed, lab_name, lab):
    return ed["lab_sides"][lab_name][lab["side"]]["spaces"]


def mech_slots(ed, lab_name, lab):
    return ed["lab_sides"][lab_name][lab["side"]]["mech_slots"]


def free(ed, lab_name, lab):
    """§5.3: free(l) = spaces(side) - mechanical men - workers already placed."""
    return spaces(ed, lab_name, lab) - lab["mech"] - lab["app"] - (1 if lab["master"] else 0)


def working(lab):
    return lab is not None and lab["card"] is not None


def hidden(lab):
    """§3.5.2: working and not revealed (a revealed lab is 'continuing')."""
    return working(lab) and not lab["continuing"]


def totals(s, p):
    """§3.2: public per-kind totals = hand + under labs."""
    pl = s["players"][p]
    t = dict(pl["hand"])
    for lab in pl["labs"].values():
        if working(lab):
            t = add(t, lab["under"])
    return t


def revealed_materials(s, p):
    pl = s["players"][p]
    t = zero(s["ed"])
    for lab in pl["labs"].values():
        if working(lab) and lab["continuing"]:
            t = add(t, lab["under"])
    return t


def strength(ed, g):
    """§5.4.1: apprentices + 2 x master."""
    return g[1] + ed["master_strength"] * (1 if g[2] else 0)


def ranking(ed, line):
    """§5.4.1: strength descending; ties to the group nearer the arrow (earlier in the line)."""
    idx = sorted(range(len(line)), key=lambda i: (-strength(ed, line[i]), i))
    return [line[i][0] for i in idx]


def group_of(line, p):
    for g in line:
        if g[0] == p:
            return g
    return None


def threshold(s, p, X, owned):
    """§5.5 D2: weeks(X) - 2 x |{Y in owned : type(Y) = type(X)}| (may be <= 0)."""
    cards = s["ed"]["cards"]
    same = sum(1 for Y in owned if cards[Y]["type"] == cards[X]["type"])
    return cards[X]["weeks"] - s["ed"]["discount"] * same


def owned_cards(s, p):
    return [c for c, _t in s["players"][p]["owned"]]


def in_play_cards(s):
    """Row and deck: the cards a START may name (§5.2, R5)."""
    return set(s["row"]) | set(s["deck"])


# ---------------------------------------------------------------- setup (§2)

def build_deck(ed, n, expert, rng):
    """§2.2 / §6.1: returns (deck as built, top first; 2p discards; pile sizes)."""
    cards = ed["cards"]
    lower = list(ed["plus_lower"].keys())
    row = [] if expert else list(ed["basic_row"][n])
    middle = list(ed["middle"])
    discards = []
    for tier in lower:
        pool = sorted(c for c in cards if cards[c]["tier"] == tier and c not in row)
        pick = rng.sample(pool, ed["plus_lower"][tier])
        middle += pick
    if expert and n == 2:
        for tier in lower:
            rest = sorted(c for c in cards if cards[c]["tier"] == tier and c not in middle)
            discards += rng.sample(rest, ed["discard_2p"][tier])
    bottom = list(ed["bottom"])
    top = sorted(c for c in cards if c not in row and c not in middle and c not in bottom
                 and c not in discards)
    rng.shuffle(top)
    rng.shuffle(middle)
    rng.shuffle(bottom)
    return top + middle + bottom, sorted(discards), {"T": len(top), "M": len(middle), "B": len(bottom)}


def setup(ed, n, options=None, rng_or_deck=None) -> dict:
    """§2. options: {"setup": "expert"|"basic", "codex": bool}. rng_or_deck: a random.Random
    (or an int seed), or {"deck": [...as built, top first...], "discards": [...]} to fix the
    deck (expert: the row is then dealt from its top)."""
    options = dict(options or {})
    expert = options.get("setup", "expert") == "expert"
    codex = bool(options.get("codex", False))
    if rng_or_deck is None or isinstance(rng_or_deck, int):
        rng_or_deck = random.Random(rng_or_deck or 0)
    if isinstance(rng_or_deck, dict):
        deck, discards = list(rng_or_deck["deck"]), sorted(rng_or_deck.get("discards", []))
        nb, nm = len(ed["bottom"]), len(ed["middle"]) + sum(ed["plus_lower"].values())
        sizes = {"T": len(deck) - nm - nb, "M": nm, "B": nb}
    else:
        deck, discards, sizes = build_deck(ed, n, expert, rng_or_deck)
    kinds = ed["kinds"]
    s = {
        "ed": ed, "n": n, "expert": expert, "codex": codex,
        "turn": 0 if expert else 1, "phase": "favour" if expert else "A", "step": {},
        "L": 0, "pot": ed["pot_start"],
        "shops": {k: ed["per_kind"] for k in kinds},
        "academy": [ed["apprentices_per_colour"] - ed["removed"][n]] * n,  # §2.1 [A]
        "mech_supply": ed["mech_per_player"] * n,
        "row": [] if expert else list(ed["basic_row"][n]),
        "deck": deck, "box": [], "discards": discards,
        "completed_any": [], "owner": {},
        "auctions": [],
        "history": [("piles", dict(sizes))] + [("discard", c) for c in discards],
        "areas": {a: [] for a in AREAS},
        "players": [],
        "reconstructed_kit": False,
    }
    for p in range(n):
        s["players"].append({
            "money": 0, "hand": zero(ed), "apprentices": 0, "app_home": 0, "master_home": True,
            "mech_count": 0, "favours": [], "passed": False, "placed": [],
            "owned": [], "completed": [], "snap": None,
            "labs": {"small": new_lab(ed["lab_start_side"]["small"]), "large": None}})
    if expert:
        kit = ed["base_kit"]
        for p, pl in enumerate(s["players"]):
            pl["money"] = kit["money"]
            pl["apprentices"] = pl["app_home"] = kit["apprentices"]
            pl["labs"]["small"]["side"] = kit["small_lab_side"]
            s["academy"][p] -= kit["apprentices"]
        # §2.2 expert 4: deal R(N) from the deck top (these are history draws)
        for _ in range(ed["row_size"][n]):
            c = s["deck"].pop(0)
            s["row"].append(c)
            s["history"].append(("draw", c))
        s["step"] = {"round": 0, "seat": 0}
    else:
        for p, pl in enumerate(s["players"]):
            letter = "abcde"[p]
            kit = ed["kits"][letter]
            if letter == "c":
                s["reconstructed_kit"] = True
            pl["money"] = _v(kit["money"])
            pl["apprentices"] = pl["app_home"] = _v(kit["apprentices"])
            s["academy"][p] -= pl["apprentices"]
            for labd in _v(kit["labs"]):
                name, side = labd["lab"], labd["side"]
                if pl["labs"][name] is None:
                    pl["labs"][name] = new_lab(side)
                pl["labs"][name]["side"] = side
            for k, v in _v(kit["materials"]).items():
                pl["hand"][k] += v
                s["shops"][k] -= v
            for m in _v(kit["mechanical_men"]):
                pl["labs"][m["lab"]]["mech"] += 1
                pl["mech_count"] += 1
                s["mech_supply"] -= 1
        _start_turn(s)
    settle(s)
    return s


# ---------------------------------------------------------------- the flow (§4)

def _start_turn(s):
    """Phase A of turn t (§5.2): players in order from L."""
    for pl in s["players"]:
        pl["passed"] = False
        pl["placed"] = []
    s["phase"] = "A"
    s["step"] = {"order": order_from(s["L"], s["n"]), "idx": 0, "sub": 0}


def pure_research(s):
    """§4: turns 8-9 (after the normal turns)."""
    return s["turn"] > s["ed"]["normal_turns"]


def settle(s):
    """Run automatic steps and forced single-option PASS/DECLINE/NONE decisions (§11.4) until
    a real decision, a chance node or the end of the game."""
    while True:
        ph = s["phase"]
        if ph == "over":
            return
        if ph == "refill":
            if len(s["row"]) < s["ed"]["row_size"][s["n"]] and s["deck"]:
                return  # a chance node (§5.6)
            s["turn"] += 1
            _start_turn(s)
            continue
        moves = _pointer_moves(s)
        if moves is None:
            _auto_step(s)
            continue
        if len(moves) == 1 and moves[0][0] in FORCED:
            _do(s, moves[0])
            continue
        assert moves, ("a decision without options", s["phase"], s["step"])
        return


def actor(s):
    """The seat to decide, or None at a chance node / game over."""
    ph, st = s["phase"], s["step"]
    if ph in ("over", "refill"):
        return None
    if ph == "favour":
        return st["seat"]
    if ph == "A":
        return st["order"][st["idx"]]
    if ph == "B":
        return st["actor"]
    if ph == "C":
        return st.get("actor")
    if ph == "D":
        return st.get("actor")
    return None


def is_chance(s):
    return s["phase"] == "refill" and len(s["row"]) < s["ed"]["row_size"][s["n"]] and bool(s["deck"])


def is_terminal(s):
    return s["phase"] == "over"


def legal_moves(s):
    if s["phase"] in ("over", "refill"):
        return []
    m = _pointer_moves(s)
    return list(m or [])


def apply(s, move):
    """The position after a decision (a tuple from legal_moves, or its text)."""
    if isinstance(move, str):
        move = parse_text(move)
    legal = legal_moves(s)
    if move not in legal:
        raise ValueError(f"illegal move {move!r}")
    g = clone(s)
    _do(g, move)
    settle(g)
    return g


def clone(s):
    """A deep copy that shares the (read-only) edition."""
    g = pickle.loads(pickle.dumps({k: v for k, v in s.items() if k != "ed"}, -1))
    g["ed"] = s["ed"]
    return g


# Phase pointers --------------------------------------------------------

def _pointer_moves(s):
    """Legal options at the current pointer, or None if the pointer is an automatic step."""
    ph = s["phase"]
    if ph == "favour":
        return favour_moves(s, s["step"]["seat"])
    if ph == "A":
        return _phase_a_moves(s)
    if ph == "B":
        return placement_moves(s, s["step"]["actor"])
    if ph == "C":
        return _phase_c_moves(s)
    if ph == "D":
        st = s["step"]
        if st.get("bidders") is None:
            return None
        p = st["bidders"][len(st["bids"])]
        return [("bid", b) for b in range(s["players"][p]["money"] + 1)]
    raise AssertionError(ph)


def _auto_step(s):
    ph = s["phase"]
    if ph == "A":
        _phase_a_advance(s)
    elif ph == "C":
        _phase_c_auto(s)
    elif ph == "D":
        _phase_d_auto(s)
    else:
        raise AssertionError(ph)


def _do(s, m):
    ph, kind = s["phase"], m[0]
    if ph == "favour":
        apply_favour(s, s["step"]["seat"], m)
        _favour_advance(s)
    elif ph == "A":
        _phase_a_do(s, m)
    elif ph == "B":
        apply_placement(s, s["step"]["actor"], m)
        _phase_b_advance(s)
    elif ph == "C":
        _phase_c_do(s, m)
    elif ph == "D":
        assert kind == "bid"
        _bid_do(s, m[1])
    else:
        raise AssertionError(ph)


# ---------------------------------------------------------------- §5.1 favours

def favour_moves(s, p):
    ed, pl, n = s["ed"], s["players"][p], s["n"]
    cap = ed["cap"].get(n)
    used = [f[0] for f in pl["favours"]]  # letter a/b/c/d

    def ok(letter):
        return cap is None or used.count(letter) < cap

    kinds = ed["kinds"]
    stock = [k for k in kinds if s["shops"][k] > 0]
    any_stock = bool(stock)
    mat_opts = stock if any_stock else [None]  # §5.1 [A]: all shops empty -> no material
    out = []
    if ok("a"):
        out.append(("favour", "a"))
    if ok("b"):
        for combo in itertools.combinations_with_replacement(range(len(kinds)), 4):
            cnt = {kinds[i]: combo.count(i) for i in set(combo)}
            if all(v <= 2 and s["shops"][k] >= v for k, v in cnt.items()):
                out.append(("favour", "b", tuple(kinds[i] for i in combo)))
    if ok("c") and s["academy"][p] > 0:
        out.append(("favour", "c"))
    if ok("d"):
        small, large = pl["labs"]["small"], pl["labs"]["large"]
        if small["side"] == 3:
            out += [("favour", "d1", k) for k in mat_opts]
        if large is None:
            out += [("favour", "d2", k) for k in mat_opts]
        if large is not None and large["side"] == 4:
            out += [("favour", "d3", k) for k in mat_opts]
        if pl["mech_count"] < ed["mech_per_player"] and s["mech_supply"] > 0:
            for name in LABS:
                lab = pl["labs"][name]
                if lab is not None and lab["mech"] < mech_slots(ed, name, lab):
                    out.append(("favour", "d4", name))
    return out


def _take_material(s, p, k, count=1):
    if k is None:
        return
    assert s["shops"][k] >= count
    s["shops"][k] -= count
    s["players"][p]["hand"][k] += count


def apply_favour(s, p, m):
    pl = s["players"][p]
    code = m[1]
    pl["favours"].append(code)
    if code == "a":
        pl["money"] += 5
    elif code == "b":
        for k in m[2]:
            _take_material(s, p, k)
    elif code == "c":
        s["academy"][p] -= 1
        pl["apprentices"] += 1
        pl["app_home"] += 1
    elif code == "d1":
        pl["labs"]["small"]["side"] = 5
        _take_material(s, p, m[2])
    elif code == "d2":
        pl["labs"]["large"] = new_lab(s["ed"]["lab_start_side"]["large"])
        _take_material(s, p, m[2])
    elif code == "d3":
        pl["labs"]["large"]["side"] = 6
        _take_material(s, p, m[2])
    elif code == "d4":
        _place_mech(s, p, m[2])


def _place_mech(s, p, name):
    pl = s["players"][p]
    pl["labs"][name]["mech"] += 1
    pl["mech_count"] += 1
    s["mech_supply"] -= 1


def _favour_advance(s):
    """§2.4: one pick at a time, clockwise from seat 0, F(N) rounds."""
    st = s["step"]
    st["seat"] += 1
    if st["seat"] == s["n"]:
        st["seat"] = 0
        st["round"] += 1
    if st["round"] == s["ed"]["favours_per_player"][s["n"]]:
        s["turn"] = 1
        _start_turn(s)


# ---------------------------------------------------------------- §5.2 Phase A

SUBS = (("keep", "small"), ("keep", "large"), ("start", "small"), ("start", "large"))


def _phase_a_moves(s):
    st = s["step"]
    if st["idx"] >= s["n"]:
        return None
    p = st["order"][st["idx"]]
    if st["sub"] >= len(SUBS):
        return None
    what, name = SUBS[st["sub"]]
    lab = s["players"][p]["labs"][name]
    if what == "keep":
        if not working(lab):
            return None
        return [("keep", name), ("cancel", name)]
    if lab is None or working(lab):
        return None
    return start_moves(s, p, name)


def start_moves(s, p, name):
    """§5.2 LAB_START: NONE, or START(X) for X in row u deck (turns 8-9: row, §11.4), X not the
    other lab's card, materials(X) within hand(p)."""
    pl = s["players"][p]
    other = pl["labs"]["large" if name == "small" else "small"]
    pool = set(s["row"]) if pure_research(s) else in_play_cards(s)
    out = [("none", name)]
    for X in sorted(pool):
        if working(other) and other["card"] == X:
            continue
        if fits(s["ed"]["cards"][X]["materials"], pl["hand"]):
            out.append(("start", name, X))
    return out


def _phase_a_advance(s):
    st = s["step"]
    if st["idx"] >= s["n"]:
        s["phase"] = "B"
        s["step"] = {"actor": s["L"]}
        return
    st["sub"] += 1
    if st["sub"] >= len(SUBS):
        st["sub"] = 0
        st["idx"] += 1


def _phase_a_do(s, m):
    st = s["step"]
    p = st["order"][st["idx"]]
    if m[0] == "cancel":
        cancel_lab(s, p, m[1])
    elif m[0] == "start":
        start_lab(s, p, m[1], m[2])
    _phase_a_advance(s)


def cancel_lab(s, p, name):
    """§5.2 CANCEL: weeks lost, materials back to the hand, continuing cleared, idle. A hidden
    lab's cancel folds a live snapshot into the other lab's cand (§3.5.2)."""
    pl = s["players"][p]
    lab = pl["labs"][name]
    was_hidden = hidden(lab)
    pl["hand"] = add(pl["hand"], lab["under"])
    cand = lab["cand"]
    _make_idle(lab)
    if was_hidden and pl["snap"] is not None:
        other = pl["labs"]["large" if name == "small" else "small"]
        B = pl["snap"][1]
        mats = s["ed"]["cards"]
        if hidden(other):
            other["cand"] = sorted(
                X for X in other["cand"]
                if any(Y != X and fits(add(mats[X]["materials"], mats[Y]["materials"]), B)
                       for Y in cand))
        pl["snap"] = None


def _make_idle(lab):
    lab.update(card=None, under=None, counter=0, start_turn=None, continuing=False, cand=None)


def start_lab(s, p, name, X):
    """§5.2 START effect; records cand and snap (§3.5.2)."""
    ed = s["ed"]
    pl = s["players"][p]
    other = pl["labs"]["large" if name == "small" else "small"]
    need = ed["cards"][X]["materials"]
    budget = add(totals(s, p), revealed_materials(s, p), -1)
    pl["hand"] = add(pl["hand"], need, -1)
    lab = pl["labs"][name]
    lab.update(card=X, under={k: need[k] for k in ed["kinds"]}, counter=0, start_turn=s["turn"],
               continuing=False)
    pool = set(s["row"]) if pure_research(s) else in_play_cards(s)
    lab["cand"] = sorted(Y for Y in pool if fits(ed["cards"][Y]["materials"], budget))
    if hidden(other):
        pl["snap"] = (s["turn"], {k: budget[k] for k in ed["kinds"]})


# ---------------------------------------------------------------- §5.3 Phase B

def places(s, p):
    pl = s["players"][p]
    labs = [n for n in LABS if working(pl["labs"][n])]
    return labs if pure_research(s) else list(AREAS) + labs


def placement_moves(s, p):
    ed, pl = s["ed"], s["players"][p]
    out = []
    ps = places(s, p)
    for place in ps:
        if place in pl["placed"]:
            continue
        top = pl["app_home"]
        if place in LABS:
            top = min(top, free(ed, place, pl["labs"][place]))
        out += [("place", place, k) for k in range(1, top + 1)]
    if pl["master_home"]:
        for place in ps:
            if place in LABS and free(ed, place, pl["labs"][place]) < 1:
                continue
            out.append(("master", place))
    out.append(("pass",))
    return out


def apply_placement(s, p, m):
    pl = s["players"][p]
    if m[0] == "pass":
        pl["passed"] = True
        return
    place = m[1]
    k, master = (m[2], False) if m[0] == "place" else (0, True)
    if m[0] == "place":
        pl["placed"].append(place)
        pl["app_home"] -= k
    else:
        pl["master_home"] = False
    if place in LABS:
        lab = pl["labs"][place]
        lab["app"] += k
        lab["master"] = lab["master"] or master
    else:
        line = s["areas"][place]
        g = group_of(line, p)
        if g is None:
            line.append([p, k, master])
        else:
            g[1] += k
            g[2] = g[2] or master


def _phase_b_advance(s):
    """§5.3: clockwise, skipping passed players, until everybody passed."""
    n = s["n"]
    p = s["step"]["actor"]
    for i in range(1, n + 1):
        q = (p + i) % n
        if not s["players"][q]["passed"]:
            s["step"] = {"actor": q}
            return
    s["phase"] = "C"
    s["step"] = {"stage": "council_start"} if not pure_research(s) else {"stage": "labs"}


# ---------------------------------------------------------------- §5.4 Phase C

def _send_home(s, p, g):
    pl = s["players"][p]
    pl["app_home"] += g[1]
    if g[2]:
        pl["master_home"] = True


def _remove_group(s, area, p):
    line = s["areas"][area]
    g = group_of(line, p)
    if g is not None:
        line.remove(g)
        _send_home(s, p, g)


def claim_moves(s, p):
    """§5.4.2 step 3: an unclaimed action k whose prerequisite holds [A], or DECLINE
    (docs/notation.md order: claims ascending, then decline)."""
    st = s["step"]
    out = []
    g = group_of(s["areas"]["A"], p)
    for k in (1, 2, 3, 4):
        if k in st["claims"]:
            continue
        if k == 1:
            ok = bool(codex_moves(s, p)) if s["codex"] else g[1] >= 1
        elif k == 2:
            ok = True
        elif k == 3:
            ok = bool(s["deck"])
        else:
            ok = s["players"][p]["money"] >= 1 and any(v > 0 for v in s["shops"].values())
        if ok:
            out.append(("claim", k))
    return out + [("decline",)]


def codex_moves(s, owner):
    """§8 CODEX_MOVE(owner, victim, source, target): one apprentice of any player between two
    different areas of B..H; another player's apprentice may not go where that player already
    ranks first (arrow tie-break included, judged before the move)."""
    out = []
    for victim in range(s["n"]):
        for src in AREAS[1:]:
            g = group_of(s["areas"][src], victim)
            if g is None or g[1] < 1:
                continue
            for tgt in AREAS[1:]:
                if tgt == src:
                    continue
                if victim != owner:
                    r = ranking(s["ed"], s["areas"][tgt])
                    if r and r[0] == victim:
                        continue
                out.append(("codex", victim, src, tgt))
    return out


def council_move(s, owner, target):
    """§5.4.2 action 1: one apprentice of the owner from A to the target (joins its group or
    becomes a new last group)."""
    ga = group_of(s["areas"]["A"], owner)
    ga[1] -= 1
    _join(s, target, owner)
    if ga[1] == 0 and not ga[2]:
        s["areas"]["A"].remove(ga)


def _join(s, area, p):
    line = s["areas"][area]
    g = group_of(line, p)
    if g is None:
        line.append([p, 1, False])
    else:
        g[1] += 1


def apply_codex(s, victim, src, tgt):
    line = s["areas"][src]
    g = group_of(line, victim)
    g[1] -= 1
    if g[1] == 0 and not g[2]:
        line.remove(g)
    _join(s, tgt, victim)


def benefit_moves(s, p, area):
    """§5.4.3 benefits for p in an area (before the price check)."""
    ed, pl = s["ed"], s["players"][p]
    small, large = pl["labs"]["small"], pl["labs"]["large"]
    out = []
    if area == "B":
        if small["side"] == 3 and not working(small):
            out.append(("buy", "flip", "small"))
        if large is None:
            out.append(("buy", "take", "large"))
        if large is not None and large["side"] == 4 and not working(large):
            out.append(("buy", "flip", "large"))
        if pl["mech_count"] < ed["mech_per_player"] and s["mech_supply"] > 0:
            for name in LABS:
                lab = pl["labs"][name]
                if lab is not None and not working(lab) and lab["mech"] < mech_slots(ed, name, lab):
                    out.append(("buy", "mech", name))
    elif area == "C":
        if s["academy"][p] > 0:
            out.append(("buy", "recruit"))
    else:
        k = ed["shop_of"][area]
        if s["shops"][k] > 0:
            out.append(("buy", k))
    return out


def area_moves(s, p, area, i):
    price = s["ed"]["prices"][i]
    out = benefit_moves(s, p, area) if s["players"][p]["money"] >= price else []
    return out + [("pass",)]


def apply_benefit(s, p, m):
    pl = s["players"][p]
    what = m[1]
    if what == "flip" and m[2] == "small":
        pl["labs"]["small"]["side"] = 5
    elif what == "take":
        pl["labs"]["large"] = new_lab(s["ed"]["lab_start_side"]["large"])
    elif what == "flip":
        pl["labs"]["large"]["side"] = 6
    elif what == "mech":
        _place_mech(s, p, m[2])
    elif what == "recruit":
        s["academy"][p] -= 1
        pl["apprentices"] += 1
        pl["app_home"] += 1  # usable from the next turn: placements are over
    else:
        _take_material(s, p, what)


def _phase_c_moves(s):
    st = s["step"]
    stage = st["stage"]
    if stage == "claim":
        if st["idx"] >= len(st["claimers"]):
            return None
        return claim_moves(s, st["claimers"][st["idx"]])
    if stage == "give":
        return [("give", q) for q in range(s["n"])]
    if stage == "exec":
        k = st["exec"]
        if k not in st["claims"]:
            return None
        owner = st["claims"][k]
        if k == 1:
            if s["codex"]:
                return codex_moves(s, owner)
            return [("move", a) for a in AREAS[1:]]
        if k == 3:
            m = min(4, len(s["deck"]))
            top = s["deck"][:m]
            return [("reorder", tuple(top[i] for i in perm))
                    for perm in itertools.permutations(range(m))]
        if k == 4:
            return [("material", kk) for kk in s["ed"]["kinds"] if s["shops"][kk] > 0]
        return None  # action 2 is automatic
    if stage == "area":
        if not st["present"]:
            return None
        return area_moves(s, st["present"][st["pos"]], st["area"], st["i"])
    return None


def _phase_c_auto(s):
    st = s["step"]
    stage = st["stage"]
    n = s["n"]
    if stage == "council_start":
        line = s["areas"]["A"]
        if not line:
            _begin_area(s, "B")
            return
        rank = ranking(s["ed"], line)
        excluded = None
        if n >= 3 and len(rank) == n:  # §5.4.2 step 2
            excluded = rank[-1]
            _remove_group(s, "A", excluded)
            rank = rank[:-1]
        s["step"] = {"stage": "claim", "claimers": rank, "idx": 0, "claims": {},
                     "excluded": excluded, "gave": False, "actor": rank[0] if rank else None}
        if not rank:
            _council_end(s)
    elif stage == "claim":  # every claimer has acted
        st["stage"], st["exec"] = "exec", 1
        st["actor"] = st["claims"].get(1)
    elif stage == "exec":
        k = st["exec"]
        if k == 2 and 2 in st["claims"]:  # action 2: take the pot
            s["players"][st["claims"][2]]["money"] += s["pot"]
            s["pot"] = 0
        _exec_next(s)
    elif stage == "area":  # area over
        for g in list(s["areas"][st["area"]]):
            _send_home(s, g[0], g)
        s["areas"][st["area"]] = []
        nxt = AREAS.index(st["area"]) + 1
        if nxt < len(AREAS):
            _begin_area(s, AREAS[nxt])
        else:
            s["step"] = {"stage": "labs"}
    elif stage == "labs":
        research_labs(s)
        _begin_phase_d(s)


def _exec_next(s):
    st = s["step"]
    st["exec"] += 1
    if st["exec"] > 4:
        _council_end(s)
    else:
        st["actor"] = st["claims"].get(st["exec"])


def _council_end(s):
    """§5.4.2 step 6: workers still in A go home."""
    for g in list(s["areas"]["A"]):
        _send_home(s, g[0], g)
    s["areas"]["A"] = []
    _begin_area(s, "B")


def _begin_area(s, area):
    line = s["areas"][area]
    s["step"] = {"stage": "area", "area": area, "present": ranking(s["ed"], line), "pos": 0,
                 "i": 0}
    s["step"]["actor"] = s["step"]["present"][0] if s["step"]["present"] else None


def _phase_c_do(s, m):
    st = s["step"]
    stage = st["stage"]
    if stage == "claim":
        p = st["claimers"][st["idx"]]
        if m[0] == "decline":
            _remove_group(s, "A", p)
            _claim_next(s)
        else:
            st["claims"][m[1]] = p
            if not st["gave"]:
                st["gave"] = True
                st["stage"] = "give"
                st["actor"] = p
            else:
                _claim_next(s)
    elif stage == "give":
        s["L"] = m[1]
        st["stage"] = "claim"
        _claim_next(s)
    elif stage == "exec":
        owner = st["claims"][st["exec"]]
        if m[0] == "move":
            council_move(s, owner, m[1])
        elif m[0] == "codex":
            apply_codex(s, m[1], m[2], m[3])
        elif m[0] == "reorder":
            mm = len(m[1])
            seen = tuple(s["deck"][:mm])
            s["deck"][:mm] = list(m[1])
            s["history"].append(("look", owner, seen, tuple(m[1])))
        elif m[0] == "material":
            s["players"][owner]["money"] -= 1
            _take_material(s, owner, m[1])
        _exec_next(s)
    elif stage == "area":
        p = st["present"][st["pos"]]
        if m[0] == "pass":
            _remove_group(s, st["area"], p)
            st["present"].pop(st["pos"])
        else:
            s["players"][p]["money"] -= s["ed"]["prices"][st["i"]]
            apply_benefit(s, p, m)
            st["i"] += 1
            if st["i"] == len(s["ed"]["prices"]):
                st["present"] = []  # the 4th sale ends the area
            else:
                st["pos"] += 1
        if st["present"] and st["pos"] >= len(st["present"]):
            st["pos"] = 0  # a new sweep from the highest-ranked still present
        st["actor"] = st["present"][st["pos"]] if st["present"] else None


def _claim_next(s):
    st = s["step"]
    st["idx"] += 1
    st["actor"] = st["claimers"][st["idx"]] if st["idx"] < len(st["claimers"]) else None


def research_labs(s):
    """§5.4.4: counter = min(15, counter + apprentices + 2 x master + 2 x mechanical men);
    then the workers go home."""
    ed = s["ed"]
    w = ed["weeks_by"]
    for p, pl in enumerate(s["players"]):
        for name in LABS:
            lab = pl["labs"][name]
            if lab is None:
                continue
            if working(lab):
                gain = lab["app"] * w["apprentice"] + (w["master"] if lab["master"] else 0) \
                    + lab["mech"] * w["mechanical_man"]
                lab["counter"] = min(ed["track_max"], lab["counter"] + gain)
            pl["app_home"] += lab["app"]
            if lab["master"]:
                pl["master_home"] = True
            lab["app"], lab["master"] = 0, False


# ---------------------------------------------------------------- §5.5 Phase D

def _begin_phase_d(s):
    """D1-D4, then D5 card by card (auctions are decisions)."""
    n, ed = s["n"], s["ed"]
    owned_before = {p: owned_cards(s, p) for p in range(n)}
    row_before = list(s["row"])
    # D2 completion test (automatic)
    done = []  # (p, lab name, X, first)
    for p in order_from(s["L"], n):
        for name in LABS:
            lab = s["players"][p]["labs"][name]
            if not working(lab):
                continue
            X = lab["card"]
            first = X in row_before
            if (first or lab["continuing"]) and lab["counter"] >= threshold(s, p, X, owned_before[p]):
                done.append((p, name, X, first))
    # D3 payment, in order from L, small before large
    first_done = {}
    for p, name, X, first in done:
        pl = s["players"][p]
        lab = pl["labs"][name]
        card = ed["cards"][X]
        pl["money"] += card["reward_first"] if first else card["reward_later"]
        for k, v in lab["under"].items():
            s["shops"][k] += v
        was_hidden = hidden(lab)
        _make_idle(lab)
        if was_hidden:
            _fold_reveal(s, p, name, card["materials"])
        if X not in pl["completed"]:
            pl["completed"].append(X)
            pl["completed"].sort()
        if X not in s["completed_any"]:
            s["completed_any"].append(X)
            s["completed_any"].sort()
        if first:
            first_done.setdefault(X, []).append(p)
    # D4 reveal, ascending card number, in order from L
    for X in sorted(first_done):
        for p in order_from(s["L"], n):
            for name in LABS:
                lab = s["players"][p]["labs"][name]
                if working(lab) and lab["card"] == X and not lab["continuing"]:
                    lab["continuing"] = True
                    _fold_reveal(s, p, name, lab["under"])
    s["phase"] = "D"
    s["step"] = {"queue": sorted(first_done), "completers": first_done, "bidders": None,
                 "bids": [], "owned_before": owned_before, "row_before": row_before,
                 "actor": None}


def _fold_reveal(s, p, name, M):
    """§3.5.2: a revealed lab drops its cand; a live snapshot folds into the other lab."""
    pl = s["players"][p]
    pl["labs"][name]["cand"] = None
    if pl["snap"] is None:
        return
    other = pl["labs"]["large" if name == "small" else "small"]
    B = pl["snap"][1]
    mats = s["ed"]["cards"]
    if hidden(other):
        rest = add(B, M, -1)
        other["cand"] = sorted(X for X in other["cand"] if fits(mats[X]["materials"], rest))
    pl["snap"] = None


def _phase_d_auto(s):
    """D5: the next card of the queue (ascending), or the end of Phase D."""
    st = s["step"]
    if not st["queue"]:
        _end_phase_d(s)
        return
    X = st["queue"][0]
    s["row"].remove(X)
    ps = st["completers"][X]
    if len(ps) == 1:
        _take_card(s, ps[0], X)
        st["queue"].pop(0)
        return
    bidders = [p for p in order_from(s["L"], s["n"]) if p in ps]
    st["bidders"], st["bids"], st["card"] = bidders, [], X
    st["actor"] = bidders[0]
    st["row_removed"] = True


def _take_card(s, p, X):
    s["players"][p]["owned"].append((X, s["turn"]))
    s["players"][p]["owned"].sort()
    s["owner"][X] = p


def _bid_do(s, b):
    """BID(p, X): sealed, modelled as sequential hidden bids; resolved after the last one."""
    st = s["step"]
    st["bids"].append(b)
    if len(st["bids"]) < len(st["bidders"]):
        st["actor"] = st["bidders"][len(st["bids"])]
        return
    X = st["card"]
    top = max(st["bids"])
    if top == 0:
        s["box"].append(X)
        s["box"].sort()
    else:
        w = st["bidders"][st["bids"].index(top)]
        s["players"][w]["money"] -= top
        _take_card(s, w, X)
    st["queue"].pop(0)
    s["auctions"].append((X, tuple(st["bidders"]), tuple(st["bids"])))  # public once complete
    st["bidders"], st["bids"], st["card"], st["actor"] = None, [], None, None


def _end_phase_d(s):
    """Records after D5 (§3.5.2), then the end of the turn (§5.6)."""
    st = s["step"]
    firsts = set(st["completers"])
    for p, pl in enumerate(s["players"]):
        for name in LABS:
            lab = pl["labs"][name]
            if lab is None or lab["cand"] is None:
                continue
            if not hidden(lab):
                lab["cand"] = None
                continue
            lab["cand"] = sorted(
                X for X in lab["cand"] if X not in firsts and not (
                    X in st["row_before"] and
                    lab["counter"] >= threshold(s, p, X, st["owned_before"][p])))
    if pure_research(s):
        if s["turn"] >= s["ed"]["turns"]:
            s["phase"], s["step"] = "over", {}
            return
        s["turn"] += 1
        _start_turn(s)
        return
    s["pot"] += s["ed"]["pot_income"]
    s["phase"], s["step"] = "refill", {}


# ---------------------------------------------------------------- chance (§5.6, §6)

def chance_outcomes(s, viewpoint=None, full=False):
    """The next refill draw. full=True: the full state's deck order decides (deck[0], 1).
    Otherwise §6.2 lazy mode: P(next = c) from the public deck history seen by `viewpoint`
    (None: an observer with no Council look of its own)."""
    if not is_chance(s):
        return []
    if full:
        return [(s["deck"][0], Fraction(1))]
    dist = draw_distribution(s, viewpoint)
    return [(c, dist[c]) for c in sorted(dist) if dist[c] > 0]


def apply_chance(s, card):
    """Move `card` from the deck to the end of the row (§5.6). In lazy mode the card drawn need
    not be deck[0]: the deck order below the top is then only a sample."""
    assert is_chance(s) and card in s["deck"]
    g = clone(s)
    g["deck"].remove(card)
    g["row"].append(card)
    g["history"].append(("draw", card))
    settle(g)
    return g


def play_chance_full(s):
    return apply_chance(s, s["deck"][0])


# ---------------------------------------------------------------- §3.5.1 deck hypotheses

def _pools(s):
    """pool_tau: lower-tier cards that can lie in T or M; t_tau = |pool| - plus_lower_tier."""
    ed = s["ed"]
    basic_row = [] if s["expert"] else ed["basic_row"][s["n"]]
    pools = {}
    for tier in ed["plus_lower"]:
        pools[tier] = sorted(c for c, d in ed["cards"].items() if d["tier"] == tier
                             and c not in basic_row and c not in s["discards"])
    return pools


def deck_hypotheses(s, viewpoint=None):
    """§3.5.1 step 2-3: [(entries, identified, weight)], weight = replay weight x counting factor
    (a Fraction; with no opponent look it is the number of deck orders consistent with the
    history). entries: a tuple over current deck positions, each "T"/"M"/"B" or a known card.
    identified: a sorted tuple of (card, label)."""
    ed = s["ed"]
    hist = s["history"]
    assert hist[0][0] == "piles"
    sizes = hist[0][1]
    entries = ["T"] * sizes["T"] + ["M"] * sizes["M"] + ["B"] * sizes["B"]
    hyps = {(tuple(entries), ()): Fraction(1)}
    for ev in hist[1:]:
        new = {}
        if ev[0] == "discard":
            continue
        if ev[0] == "draw":
            c = ev[1]
            for (ent, ident), w in hyps.items():
                e = ent[0]
                idd = dict(ident)
                if isinstance(e, int):
                    if e != c:
                        continue
                else:
                    if c in idd:
                        continue  # known to lie elsewhere
                    idd[c] = e
                key = (ent[1:], tuple(sorted(idd.items())))
                new[key] = new.get(key, 0) + w
        elif ev[0] == "look":
            _, who, seen, chosen = ev
            m = len(seen)
            for (ent, ident), w in hyps.items():
                if who == viewpoint:
                    idd = dict(ident)
                    ok = True
                    for i in range(m):
                        e = ent[i]
                        if isinstance(e, int):
                            ok = ok and e == seen[i]
                        elif seen[i] in idd:
                            ok = False
                        else:
                            idd[seen[i]] = e
                    if not ok:
                        continue
                    key = (tuple(chosen) + ent[m:], tuple(sorted(idd.items())))
                    new[key] = new.get(key, 0) + w
                else:
                    block = ent[:m]
                    arrs = set(itertools.permutations(block))
                    for arr in arrs:
                        cnt = math.prod(math.factorial(block.count(x)) for x in set(block))
                        key = (tuple(arr) + ent[m:], ident)
                        new[key] = new.get(key, 0) + w * Fraction(cnt, math.factorial(m))
        else:
            continue
        hyps = new
    out = []
    for (ent, ident), w in hyps.items():
        f = _count_factor(s, ident, sizes)
        if f:
            out.append((ent, ident, w * f))
    return out


def _count_factor(s, ident, sizes):
    """prod_tau C(u_tau, t_tau - a_tau) x prod_l (s_l - k_l)!, or 0 if impossible."""
    ed = s["ed"]
    pools = _pools(s)
    idd = dict(ident)
    for c, lab in idd.items():
        tier = ed["cards"][c]["tier"]
        if c in ed["middle"] and lab != "M":
            return 0
        if c in ed["bottom"] and lab != "B":
            return 0
        if tier in pools and (lab == "B" or c not in pools[tier]):
            return 0
    f = 1
    for tier, pool in pools.items():
        t = len(pool) - ed["plus_lower"][tier]
        u = sum(1 for c in pool if c not in idd)
        a = sum(1 for c in pool if idd.get(c) == "T")
        if not 0 <= t - a <= u:
            return 0
        f *= math.comb(u, t - a)
    for lab in "TMB":
        k = sum(1 for v in idd.values() if v == lab)
        if k > sizes[lab]:
            return 0
        f *= math.factorial(sizes[lab] - k)
    return f


def deck_order_count(s, viewpoint=None):
    """Sum of the hypothesis weights (with no opponent look: the number of consistent orders)."""
    return sum(w for _e, _i, w in deck_hypotheses(s, viewpoint))


def draw_distribution(s, viewpoint=None, hyps=None):
    """§6.2: P(next = c) = sum_h w(h) P(c | h) / sum_h w(h). hyps: deck_hypotheses(s, viewpoint)
    if already computed."""
    ed = s["ed"]
    hist = s["history"]
    sizes = hist[0][1]
    pools = _pools(s)
    if hyps is None:
        hyps = deck_hypotheses(s, viewpoint)
    total = sum(w for _e, _i, w in hyps)
    dist = {}
    for ent, ident, w in hyps:
        idd = dict(ident)
        e = ent[0]
        if isinstance(e, int):
            dist[e] = dist.get(e, 0) + w
            continue
        k = {lab: sum(1 for v in idd.values() if v == lab) for lab in "TMB"}
        for c in s["deck"]:
            if c in idd:
                continue
            tier = ed["cards"][c]["tier"]
            pc = Fraction(0)
            if tier in pools and c in pools[tier]:
                t = len(pools[tier]) - ed["plus_lower"][tier]
                u = sum(1 for x in pools[tier] if x not in idd)
                a = sum(1 for x in pools[tier] if idd.get(x) == "T")
                if e == "T":
                    pc = Fraction(t - a, u) / (sizes["T"] - k["T"])
                elif e == "M":
                    pc = Fraction(u - t + a, u) / (sizes["M"] - k["M"])
            elif c in ed["middle"] and e == "M":
                pc = Fraction(1, sizes["M"] - k["M"])
            elif c in ed["bottom"] and e == "B":
                pc = Fraction(1, sizes["B"] - k["B"])
            if pc:
                dist[c] = dist.get(c, 0) + w * pc
    return {c: Fraction(v) / total for c, v in dist.items()}


def sample_deck(s, viewpoint, rng, hyps=None):
    """§3.5.1 steps 4-6: a deck order (top first) consistent with what `viewpoint` saw."""
    ed = s["ed"]
    if hyps is None:
        hyps = deck_hypotheses(s, viewpoint)
    total = sum(w for _e, _i, w in hyps)
    x = Fraction(rng.random()) * total
    for ent, ident, w in hyps:  # step 4
        x -= w
        if x < 0:
            break
    idd = dict(ident)
    pools = _pools(s)
    unknown = {"T": [], "M": [], "B": []}
    for tier, pool in pools.items():  # step 5
        free_cards = [c for c in pool if c not in idd]
        t = len(pool) - ed["plus_lower"][tier]
        a = sum(1 for c in pool if idd.get(c) == "T")
        to_top = rng.sample(free_cards, t - a)
        unknown["T"] += to_top
        unknown["M"] += [c for c in free_cards if c not in to_top]
    unknown["M"] += [c for c in ed["middle"] if c not in idd]
    unknown["B"] += [c for c in ed["bottom"] if c not in idd]
    for lab in unknown:  # step 6
        rng.shuffle(unknown[lab])
    deck = []
    for e in ent:
        deck.append(e if isinstance(e, int) else unknown[e].pop())
    assert sorted(deck) == sorted(s["deck"]), (deck, s["deck"])
    return deck


def deck_knowledge(s, p):
    """§3.4 deck knowledge of p: (exact, blocks). exact[i] is the card p knows at deck position
    i, or None; blocks = [(end, cards)]: p knows these cards lie somewhere in positions < end
    (what is left of its own look after an opponent reordered the block)."""
    exact, blocks = [], []
    for ev in s["history"]:
        if ev[0] == "piles":
            exact = [None] * sum(ev[1].values())
        elif ev[0] == "draw":
            exact.pop(0)
            blocks = [(e - 1, cs - {ev[1]}) for e, cs in blocks]
        elif ev[0] == "look":
            _, who, seen, chosen = ev
            m = len(seen)
            if who == p:
                exact[:m] = list(chosen)
                blocks = [(e, cs - set(chosen)) for e, cs in blocks]
            else:
                moved = {c for c in exact[:m] if c is not None}
                exact[:m] = [None] * m
                keep = []
                for e, cs in blocks:
                    if e <= m:
                        moved |= cs
                    else:
                        keep.append((e, cs))
                blocks = keep + ([(m, moved)] if moved else [])
        blocks = [(e, cs) for e, cs in blocks if cs and e > 0]
    return exact, [(e, sorted(cs)) for e, cs in sorted(blocks, key=lambda b: b[0])]


def viewpoint(s, p):
    """§3.3: what seat p knows. Opponents' hands become their public totals, opponents' hidden
    labs lose card and materials (cand stays), the deck becomes its multiset plus p's knowledge,
    the opponents' pending bids are hidden."""
    f = to_fields(s)
    for q, pl in enumerate(f["players"]):
        if q == p:
            continue
        pl["hand"] = None
        pl["totals"] = totals(s, q)
        for lab in pl["labs"].values():
            if lab is not None and working(lab) and not lab["continuing"]:
                lab["card"], lab["under"] = None, None
    f["deck"] = sorted(s["deck"])
    f["deck_known"], f["deck_blocks"] = deck_knowledge(s, p)
    f["history"] = [ev if ev[0] != "look" or ev[1] == p else ("look", ev[1], len(ev[2]))
                    for ev in s["history"]]
    if f["auction"] is not None:
        f["auction"]["bids"] = [b if f["auction"]["bidders"][i] == p else None
                                for i, b in enumerate(f["auction"]["bids"])]
    f["step"] = {k: v for k, v in f["step"].items() if k != "bids"}
    return f


# ---------------------------------------------------------------- §3.5.2 hidden labs

def hidden_pairs(s, q):
    """Valid (small card, large card) pairs for q's two hidden labs: cand x cand, different
    cards, fitting snap[q] (materials(X1) + materials(X2) <= B)."""
    pl = s["players"][q]
    a, b = pl["labs"]["small"], pl["labs"]["large"]
    assert hidden(a) and hidden(b) and pl["snap"] is not None
    mats = s["ed"]["cards"]
    B = pl["snap"][1]
    return [(x, y) for x in a["cand"] for y in b["cand"]
            if x != y and fits(add(mats[x]["materials"], mats[y]["materials"]), B)]


# ---------------------------------------------------------------- §7 scoring

def type_bonus(s, p):
    types = {s["ed"]["cards"][c]["type"] for c in owned_cards(s, p)}
    return s["ed"]["bonus"].get(len(types), 0)


def scores(s):
    return [s["players"][p]["money"] + type_bonus(s, p) for p in range(s["n"])]


def tie_key(s, p):
    """§7 / R7: score, then cards owned, then gold, silver, copper, bronze."""
    cards = [s["ed"]["cards"][c]["tier"] for c in owned_cards(s, p)]
    tiers = list(reversed(s["ed"]["tiers"]))  # gold first
    return (scores(s)[p], len(cards)) + tuple(cards.count(t) for t in tiers)


def winners(s):
    keys = [tie_key(s, p) for p in range(s["n"])]
    best = max(keys)
    return [p for p in range(s["n"]) if keys[p] == best]


def utilities(s):
    w = winners(s)
    return [Fraction(1, len(w)) if p in w else Fraction(0) for p in range(s["n"])]


# ---------------------------------------------------------------- notation

def move_text(m) -> str:
    k = m[0]
    if k == "favour":
        if m[1] == "b":
            return "favour:b:" + "+".join(m[2])
        if len(m) == 3:
            return f"favour:{m[1]}" + (f":{m[2]}" if m[2] is not None else "")
        return f"favour:{m[1]}"
    if k in ("keep", "cancel"):
        return f"{k}:{m[1]}"
    if k == "none":
        return f"start:{m[1]}:none"
    if k == "start":
        return f"start:{m[1]}:{m[2]}"
    if k == "place":
        return f"place:{m[1].lower()}:{m[2]}"
    if k == "master":
        return f"master:{m[1].lower()}"
    if k in ("pass", "decline"):
        return k
    if k in ("claim", "bid"):
        return f"{k}:{m[1]}"
    if k == "give":
        return f"leonardo:{m[1]}"
    if k == "draw":
        return f"draw:{m[1]}"
    if k == "move":
        return f"move:{m[1].lower()}"
    if k == "codex":
        return f"codex:{m[1]}:{m[2].lower()}:{m[3].lower()}"
    if k == "reorder":
        return "reorder:" + ":".join(str(c) for c in m[1])
    if k == "material":
        return f"material:{m[1]}"
    if k == "buy":
        return "buy:" + ":".join(str(x) for x in m[1:])
    raise ValueError(m)


def parse_text(t: str):
    t = t.strip().lower()
    parts = t.split(":")
    k = parts[0]

    def place(x):
        return x if x in LABS else x.upper()

    if k == "favour":
        if parts[1] == "b":
            return ("favour", "b", tuple(parts[2].split("+")))
        if len(parts) == 3:
            return ("favour", parts[1], parts[2])
        if parts[1] in ("d1", "d2", "d3"):
            return ("favour", parts[1], None)
        return ("favour", parts[1])
    if k in ("keep", "cancel"):
        return (k, parts[1])
    if k == "start":
        return ("none", parts[1]) if parts[2] == "none" else ("start", parts[1], int(parts[2]))
    if k == "place":
        return ("place", place(parts[1]), int(parts[2]))
    if k == "master":
        return ("master", place(parts[1]))
    if k in ("pass", "decline"):
        return (k,)
    if k in ("claim", "bid", "draw"):
        return (k, int(parts[1]))
    if k == "leonardo":
        return ("give", int(parts[1]))
    if k == "move":
        return ("move", parts[1].upper())
    if k == "codex":
        return ("codex", int(parts[1]), parts[2].upper(), parts[3].upper())
    if k == "reorder":
        return ("reorder", tuple(int(x) for x in parts[1:]))
    if k == "material":
        return ("material", parts[1])
    if k == "buy":
        return ("buy",) + tuple(parts[1:])
    raise ValueError(t)


# ---------------------------------------------------------------- fields (for comparisons)

def to_fields(s) -> dict:
    """The state without the edition, as plain JSON-like values (the spec's §3.1 names)."""
    out = {k: copy.deepcopy(v) for k, v in s.items() if k != "ed"}
    st = s["step"]
    out["actor"] = actor(s)
    out["chance"] = is_chance(s)
    # the price marker (index into PRICE) while an area resolves, else 0 (§5.4.3)
    out["price_index"] = st.get("i", 0) if st.get("stage") == "area" else 0
    out["current_area"] = st.get("area") if st.get("stage") == "area" else None
    # the running auction: card, bidders in order from L, bids entered so far (hidden, R3)
    out["auction"] = ({"card": st["card"], "bidders": list(st["bidders"]),
                       "bids": list(st["bids"])}
                      if s["phase"] == "D" and st.get("bidders") else None)
    return out


def random_game(ed, n, seed, options=None, on_state=None):
    """Play one game with uniform random decisions and full-state draws; returns the final
    state. on_state(state) is called at every state."""
    rng = random.Random(seed)
    s = setup(ed, n, options, random.Random(rng.getrandbits(32)))
    while True:
        if on_state:
            on_state(s)
        if is_terminal(s):
            return s
        if is_chance(s):
            s = play_chance_full(s)
            continue
        moves = legal_moves(s)
        s = apply(s, moves[rng.randrange(len(moves))])


def perft(s, depth):
    """Leaves of the decision tree `depth` plies deep. Forced PASS/DECLINE/NONE decisions are no
    plies (§11.4); refill draws follow the full state's deck order and are no plies either."""
    while is_chance(s):
        s = play_chance_full(s)
    if depth == 0 or is_terminal(s):
        return 1
    return sum(perft(apply(s, m), depth - 1) for m in legal_moves(s))
