"""Position JSON, format 1 (docs/positions.md, Leonardo section), writing: a core State as card
numbers, material names, area letters and seat colours — either the full state (§3.1) or what
one seat knows (a viewpoint, §3.3: opponents' hands become public totals, their hidden labs
show only the public records, the deck only its size, other seats' looks and bids drop out)."""
from __future__ import annotations

import json

from ...errors import InputError
from .edition import is_default_json

FORMAT = 1
AREAS = "ABCDEFGH"                       # §1.7, resolution order
PLACES = tuple(AREAS) + ("small", "large")  # the `placed` bits: areas, then the two labs
LABS = ("small", "large")
FAVOURS = "abcd"                         # §5.1 letters, 2 bits each in `letters`
# Seats are numbers everywhere (notation, JSON); the colour is a label for people. The edition
# names no colours, so these are atelier's (docs/positions.md).
COLOURS = ("red", "blue", "green", "yellow", "purple")
BASIC_NOTE = ("basic setup: the beginner kits (setup.basic.seats) are reconstructed in the "
              "edition file, not read from the rulebook")


def kinds_dict(names, counts, keep_zero=True) -> dict:
    return {k: c for k, c in zip(names, counts) if c or keep_zero}


def entered_bidders(f, n) -> list[int]:
    """The seats whose sealed bid is already in (§5.5 D5): the first `idx` bidders from L."""
    if f["phase"] != "BID":
        return []
    seats = f["pending"][f["pending_index"]][1]
    order = [(f["leonardo"] + j) % n for j in range(n)]
    return [q for q in order if q in seats][:f["idx"]]


def _lab(lab, names, hide: bool) -> dict | None:
    if lab["side"] == 0:
        return None    # the large lab not owned
    out = {"side": lab["side"], "mechanical_men": lab["mech"], "apprentices": lab["apprentices"],
           "master": lab["master"]}
    working = lab["card"] is not None
    hidden = working and not lab["revealed"]
    if not working:
        out["card"] = None
        return out
    out["card"] = "hidden" if hide and hidden else lab["card"]
    if not (hide and hidden):
        out["materials"] = kinds_dict(names, lab["materials"], keep_zero=False)
    out.update({"counter": lab["counter"], "start_turn": lab["start_turn"],
                "continuing": lab["continuing"], "revealed": lab["revealed"]})
    if hidden:
        out["cand"] = lab["cand"]
    return out


def _seat(p, P, names, private: bool) -> dict:
    letters = P["letters"]
    seat = {"seat": p, "colour": COLOURS[p], "money": P["money"]}
    if private:
        seat["hand"] = kinds_dict(names, P["hand"])
    else:
        totals = [h + sum(lab["materials"][k] for lab in P["labs"]) for k, h in enumerate(P["hand"])]
        seat["materials"] = kinds_dict(names, totals)
    seat.update({
        "apprentices": P["apprentices"], "apprentices_free": P["app_supply"],
        "master_free": P["master_in_supply"], "passed": P["passed"],
        "favours": {FAVOURS[i]: (letters >> (2 * i)) & 3 for i in range(4)},
        "placed": [PLACES[i] for i in range(10) if (P["placed"] >> i) & 1],
        "owned": P["owned"], "completed": P["completed"],
        "snap": None if not P["snap_turn"] else {"turn": P["snap_turn"],
                                                 "budget": kinds_dict(names, P["snap_budget"])},
        "labs": {LABS[l]: _lab(P["labs"][l], names, hide=not private) for l in range(2)},
    })
    return seat


def _history(f, viewpoint) -> list:
    out, looks = [], iter(f["look_cards"])
    for e in f["history"]:
        if not isinstance(e, tuple):
            out.append(e)
            continue
        _, q, m = e
        order, perm = next(looks)
        ev = {"look": q, "m": m}
        if viewpoint is None or q == viewpoint:
            seq = _perm_seq(m, perm)
            saw = [0] * m
            for i in range(m):
                saw[seq[i]] = order[i]
            ev.update({"saw": saw, "order": list(order[:m])})
        out.append(ev)
    return out


def _perm_seq(m: int, index: int) -> tuple:
    import itertools

    return list(itertools.permutations(range(m)))[index]


def _city(f, n) -> dict:
    city = {}
    for a, letter in enumerate(AREAS):
        groups = [(pos, p, app, master) for p, (app, master, pos) in enumerate(f["city"][a][:n]) if pos]
        city[letter] = [{"seat": p, "apprentices": app, "master": bool(master)}
                        for pos, p, app, master in sorted(groups)]
    return city


def position_dict(state, viewpoint=None) -> dict:
    """The format-1 position of a core State as a plain dict; `viewpoint` a seat writes only
    what that seat knows (§3.3). A state loaded from a viewpoint is always written as that
    viewpoint: its hidden parts are a placeholder sample, not knowledge."""
    game, f = state.game, state.fields()
    n = game.players
    own = getattr(state, "viewpoint", None)
    if viewpoint is None:
        viewpoint = own
    elif isinstance(viewpoint, bool) or not isinstance(viewpoint, int) or not 0 <= viewpoint < n:
        raise InputError(f"viewpoint: expected a seat 0..{n - 1}, got {viewpoint!r}")
    elif own is not None and viewpoint != own:
        raise InputError(f"viewpoint: this position is seat {own}'s view; it cannot show "
                         f"seat {viewpoint}'s (its hidden parts are a sample)")
    names = game.kinds
    doc = {"game": "leonardo", "format": FORMAT, "players": n,
           "setup": "basic" if game.basic else "expert", "codex": game.codex}
    if game.basic:
        doc["notes"] = [BASIC_NOTE]
    if viewpoint is not None:
        doc["viewpoint"] = viewpoint
    doc.update({"turn": f["turn"], "phase": f["phase"], "actor": f["actor"],
                "leonardo": f["leonardo"], "pot": f["pot"],
                "shops": kinds_dict(names, f["shops"]), "academy": f["academy"],
                "mechanical_men_supply": f["mech_supply"], "row": f["row"]})
    if viewpoint is None:
        doc["deck"] = f["deck"]
    else:
        deck = {"cards": len(f["deck"])}
        if f["phase"] == "REORDER" and f["actor"] == viewpoint:
            deck["top"] = f["deck"][:min(4, len(f["deck"]))]   # what the looker is looking at
        doc["deck"] = deck
    piles = dict(zip(("top", "middle", "bottom"), f["pile_sizes"]))
    if viewpoint is None:
        piles["middle_lower"] = f["mid_lower"]
    doc.update({"piles": piles, "box": f["box"], "discards": f["discards"],
                "completed_any": f["completed_any"], "history": _history(f, viewpoint),
                "city": _city(f, n)})
    progress = {"step": f["step"], "index": f["idx"],
                "area": AREAS[f["area"]] if f["phase"] == "AREA" else None,
                "price": f["price"],
                "area_passed": [p for p in range(n) if (f["removed"] >> p) & 1],
                "council_order": f["council_order"],
                "claimed": {str(a + 1): f["claimed"][a] for a in range(4)},
                "gift_done": f["gift_done"],
                "pending": [{"card": c, "seats": seats} for c, seats in f["pending"]],
                "pending_index": f["pending_index"]}
    entered = entered_bidders(f, n)
    progress["bids"] = {str(q): f["bids"][q] for q in entered if viewpoint is None or q == viewpoint}
    doc["progress"] = progress
    doc["seats"] = [_seat(p, P, names, private=viewpoint is None or p == viewpoint)
                    for p, P in enumerate(f["players"][:n])]
    if not is_default_json(game.edition_json):
        doc["edition"] = json.loads(game.edition_json)
    return doc
