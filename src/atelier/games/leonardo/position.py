"""Position JSON, format 1 (docs/positions.md, Leonardo section), loading.

A full position (§3.1) names every hidden part; a viewpoint (`"viewpoint": seat`, §3.3) holds
only what that seat knows, and loading it fills the rest with one determinization (§3.5) drawn
from a seed, marking the state as that seat's view. Names become the core's fields here, with
one-line errors naming the field; the core then checks every bound, the conservation laws and
the §3.1 records (cand, snapshots, deck history).
"""
from __future__ import annotations

import itertools
import json

from ..._core import leonardo as core
from ...errors import InputError
from ...fieldcheck import fail as _fail, whole as _int, boolean as _bool, obj as _obj, listed as _list, known_keys as _keys
from .edition import edition_from_data, load_edition
from .position_dump import (AREAS, COLOURS, FAVOURS, FORMAT, LABS, PLACES, entered_bidders,
                            position_dict)  # noqa: F401  (re-exported: load and dump in one place)

PHASES = ("FAVOUR", "LAB", "PLACE", "CLAIM", "GIFT", "CMOVE", "REORDER", "MATERIAL", "AREA", "BID",
          "DRAW", "GAME_OVER")
TOP_KEYS = ("game", "format", "players", "setup", "codex", "notes", "viewpoint", "turn", "phase",
            "actor", "leonardo", "pot", "shops", "academy", "mechanical_men_supply", "row", "deck",
            "piles", "box", "discards", "completed_any", "history", "city", "progress", "seats",
            "edition")
SEAT_KEYS = ("seat", "colour", "money", "hand", "materials", "apprentices", "apprentices_free",
             "master_free", "passed", "favours", "placed", "owned", "completed", "snap", "labs")
LAB_KEYS = ("side", "mechanical_men", "apprentices", "master", "card", "materials", "counter",
            "start_turn", "continuing", "revealed", "cand")
PROGRESS_KEYS = ("step", "index", "area", "price", "area_passed", "council_order", "claimed",
                 "gift_done", "pending", "pending_index", "bids")


def _need(obj: dict, key: str, field: str):
    if key not in obj:
        _fail(f"{field}.{key}" if field else key, "missing")
    return obj[key]


def _card(v, field: str) -> int:
    return _int(v, field, 1, 25)


def _cards(v, field: str, unique=True) -> list[int]:
    out = [_card(c, f"{field}[{i}]") for i, c in enumerate(_list(v, field))]
    if unique:
        for i, c in enumerate(out):
            if c in out[:i]:
                _fail(f"{field}[{i}]", f"card {c} is listed twice")
    return out


def _seat_no(v, field: str, n: int) -> int:
    return _int(v, field, 0, n - 1)


def _kinds(v, field: str, names, hi=12) -> list[int]:
    """Per-kind counts by material name ({"iron": 2, ...}; a kind left out is 0)."""
    out = [0] * len(names)
    for key, c in _obj(v, field).items():
        if key not in names:
            _fail(f"{field}.{key}", f"unknown material (materials: {', '.join(names)})")
        out[names.index(key)] = _int(c, f"{field}.{key}", 0, hi)
    return out


def _perm_index(saw: list[int], order: list[int], field: str) -> int:
    """The lexicographic index of the reorder that turned `saw` into `order` (both top first)."""
    if sorted(saw) != sorted(order):
        _fail(field + ".order", "must hold the cards in 'saw', reordered")
    for index, seq in enumerate(itertools.permutations(range(len(saw)))):
        if all(order[i] == saw[seq[i]] for i in range(len(saw))):
            return index
    raise AssertionError("unreachable")


def game_for(doc: dict, edition=None):
    """The core Game a position document describes."""
    from . import open_game

    n = _int(_need(doc, "players", ""), "players", 2, 5)
    setup = doc.get("setup", "expert")
    if setup not in ("expert", "basic"):
        _fail("setup", f"expected \"expert\" or \"basic\", got {json.dumps(setup)}")
    codex = _bool(doc.get("codex", False), "codex")
    if "edition" in doc:
        try:
            own = edition_from_data(_obj(doc["edition"], "edition"))
        except InputError as exc:
            raise InputError("edition." + str(exc)[len("edition: "):]) from None
        if edition is not None and dict(edition) != dict(own):
            _fail("edition", "the position carries its own edition, which differs from the one "
                             "given (--edition); drop one of the two")
        edition = own
    return open_game(players=n, edition=load_edition(edition), setup=setup, codex=codex)


class _Reader:
    """One document's fields, read into the core's field dict."""

    def __init__(self, doc: dict, game, viewpoint):
        self.doc, self.game, self.n, self.vp = doc, game, game.players, viewpoint
        self.names = list(game.kinds)
        self.totals = {}       # opponent seat -> public per-kind totals (viewpoint)
        self.hidden = {}       # opponent seat -> [lab index of each hidden lab]

    def private(self, p: int) -> bool:
        return self.vp is None or p == self.vp

    # --- board -------------------------------------------------------------------------
    def board(self, f: dict) -> None:
        d, n = self.doc, self.n
        f["turn"] = _int(_need(d, "turn", ""), "turn", 0, 9)
        phase = _need(d, "phase", "")
        if phase not in PHASES:
            _fail("phase", f"expected one of {', '.join(PHASES)}, got {json.dumps(phase)}")
        f["phase"] = phase
        f["actor"] = _seat_no(_need(d, "actor", ""), "actor", n)
        f["leonardo"] = _seat_no(_need(d, "leonardo", ""), "leonardo", n)
        f["pot"] = _int(_need(d, "pot", ""), "pot", 0, 65535)
        f["shops"] = _kinds(_need(d, "shops", ""), "shops", self.names)
        academy = _list(_need(d, "academy", ""), "academy")
        if len(academy) != n:
            _fail("academy", f"expected {n} counts, one per seat")
        f["academy"] = [_int(x, f"academy[{i}]", 0, 9) for i, x in enumerate(academy)]
        f["mech_supply"] = _int(_need(d, "mechanical_men_supply", ""), "mechanical_men_supply", 0, 15)
        f["row"] = _cards(_need(d, "row", ""), "row")
        if len(f["row"]) > self.game.row_size:
            _fail("row", f"{len(f['row'])} cards, the row holds at most {self.game.row_size}")
        f["box"] = _cards(d.get("box", []), "box")
        f["discards"] = _cards(d.get("discards", []), "discards")
        f["completed_any"] = _cards(d.get("completed_any", []), "completed_any")
        piles = _obj(_need(d, "piles", ""), "piles")
        _keys(piles, ("top", "middle", "bottom", "middle_lower"), "piles")
        f["pile_sizes"] = [_int(_need(piles, k, "piles"), f"piles.{k}", 0, 25) for k in ("top", "middle", "bottom")]
        if "middle_lower" in piles:
            if self.vp is not None:
                _fail("piles.middle_lower", f"which lower-tier cards went into the middle pile is "
                                            f"hidden (§3.2); a viewpoint of seat {self.vp} cannot hold it")
            f["mid_lower"] = _cards(piles["middle_lower"], "piles.middle_lower")
        elif self.vp is None:
            _fail("piles.middle_lower", "missing (a full position names the lower-tier cards built into the middle pile)")

    def history(self, f: dict) -> None:
        events, looks, known = [], [], 0
        for i, e in enumerate(_list(self.doc.get("history", []), "history")):
            field = f"history[{i}]"
            if not isinstance(e, dict):
                events.append(_card(e, field))
                known = max(known - 1, 0)
                continue
            _keys(e, ("look", "m", "saw", "order"), field)
            q = _seat_no(_need(e, "look", field), field + ".look", self.n)
            m = _int(_need(e, "m", field), field + ".m", 1, 4)
            events.append(("look", q, m))
            known = max(known, m)
            if self.private(q):
                saw = _cards(_need(e, "saw", field), field + ".saw")
                order = _cards(_need(e, "order", field), field + ".order")
                if len(saw) != m or len(order) != m:
                    _fail(field, f"'saw' and 'order' must each hold the {m} cards looked at")
                looks.append((order, _perm_index(saw, order, field)))
            else:
                for k in ("saw", "order"):
                    if k in e:
                        _fail(f"{field}.{k}", f"seat {q}'s look is private to it (§3.4); a viewpoint "
                                              f"of seat {self.vp} cannot hold what it saw")
                looks.append(None)   # filled with a placeholder once the deck is known
        f["history"], f["look_cards"] = events, looks
        f["known_prefix"] = min(known, 4)

    def city(self, f: dict) -> None:
        city = _obj(_need(self.doc, "city", ""), "city")
        _keys(city, tuple(AREAS), "city")
        out = [[(0, False, 0)] * self.n for _ in AREAS]
        for a, letter in enumerate(AREAS):
            groups = _list(city.get(letter, []), f"city.{letter}")
            for pos, g in enumerate(groups, start=1):
                field = f"city.{letter}[{pos - 1}]"
                g = _obj(g, field)
                _keys(g, ("seat", "apprentices", "master"), field)
                p = _seat_no(_need(g, "seat", field), field + ".seat", self.n)
                if out[a][p][2]:
                    _fail(field + ".seat", f"seat {p} already has a group in area {letter}")
                app = _int(g.get("apprentices", 0), field + ".apprentices", 0, 9)
                master = _bool(g.get("master", False), field + ".master")
                if not app and not master:
                    _fail(field, "an empty group (no apprentices, no master)")
                out[a][p] = (app, master, pos)
        f["city"] = out

    def progress(self, f: dict) -> None:
        pr = _obj(self.doc.get("progress", {}), "progress")
        _keys(pr, PROGRESS_KEYS, "progress")
        n = self.n
        f["step"] = _int(pr.get("step", 0), "progress.step", 0, 4)
        f["idx"] = _int(pr.get("index", 0), "progress.index", 0, 5)
        area = pr.get("area")
        if area is None:
            f["area"] = 0
        elif isinstance(area, str) and len(area) == 1 and area in AREAS[1:]:
            if self.doc.get("phase") != "AREA":
                _fail("progress.area", f"an area is resolved only in phase AREA (this is "
                                       f"{json.dumps(self.doc.get('phase'))}): give null")
            f["area"] = AREAS.index(area)
        else:
            _fail("progress.area", f"expected an area letter B..H or null, got {json.dumps(area)}")
        f["price"] = _int(pr.get("price", 0), "progress.price", 0, 3)
        removed = 0
        for i, p in enumerate(_list(pr.get("area_passed", []), "progress.area_passed")):
            removed |= 1 << _seat_no(p, f"progress.area_passed[{i}]", n)
        f["removed"] = removed
        f["council_order"] = [_seat_no(p, f"progress.council_order[{i}]", n)
                              for i, p in enumerate(_list(pr.get("council_order", []), "progress.council_order"))]
        claimed = _obj(pr.get("claimed", {}), "progress.claimed")
        _keys(claimed, ("1", "2", "3", "4"), "progress.claimed")
        f["claimed"] = [None if claimed.get(str(a)) is None else
                        _seat_no(claimed[str(a)], f"progress.claimed.{a}", n) for a in range(1, 5)]
        f["gift_done"] = _bool(pr.get("gift_done", False), "progress.gift_done")
        pending = []
        for i, e in enumerate(_list(pr.get("pending", []), "progress.pending")):
            field = f"progress.pending[{i}]"
            e = _obj(e, field)
            _keys(e, ("card", "seats"), field)
            seats = [_seat_no(p, f"{field}.seats[{j}]", n) for j, p in enumerate(_list(_need(e, "seats", field), field + ".seats"))]
            pending.append((_card(_need(e, "card", field), field + ".card"), seats))
        f["pending"] = pending
        f["pending_index"] = _int(pr.get("pending_index", 0), "progress.pending_index", 0, 5)
        self.bids = _obj(pr.get("bids", {}), "progress.bids")

    def bids_field(self, f: dict) -> None:
        """Entered sealed bids (§5.5 D5): every entered bid in a full position, the seat's own
        in a viewpoint (the others' are hidden, §3.3); none before they are entered."""
        n = self.n
        if f["phase"] == "BID" and not (f["pending_index"] < len(f["pending"])):
            _fail("progress.pending_index", "no pending card for the running auction")
        entered = entered_bidders(f, n) if f["phase"] == "BID" else []
        bids = [0] * n
        for key, v in self.bids.items():
            field = f"progress.bids.{key}"
            if not (isinstance(key, str) and key.isdigit() and int(key) < n):
                _fail(field, f"expected a seat 0..{n - 1}")
            q = int(key)
            if q not in entered:
                _fail(field, f"seat {q} has not entered a bid in the running auction")
            if not self.private(q):
                _fail(field, f"seat {q}'s bid is sealed (§3.2); a viewpoint of seat {self.vp} cannot hold it")
            bids[q] = _int(v, field, 0, 65535)
        for q in entered:
            if self.private(q) and str(q) not in self.bids:
                _fail(f"progress.bids.{q}", f"missing (seat {q} has entered its bid)")
        f["bids"] = bids

    # --- seats -------------------------------------------------------------------------
    def seats(self, f: dict) -> None:
        seats = _list(_need(self.doc, "seats", ""), "seats")
        if len(seats) != self.n:
            _fail("seats", f"expected {self.n} entries, one per seat")
        f["players"] = [self.seat(p, s) for p, s in enumerate(seats)]

    def seat(self, p: int, s) -> dict:
        field = f"seats[{p}]"
        s = _obj(s, field)
        _keys(s, SEAT_KEYS, field)
        if "seat" in s and s["seat"] != p:
            _fail(field + ".seat", f"expected {p} (seats are listed in order)")
        if "colour" in s and s["colour"] != COLOURS[p]:
            _fail(field + ".colour", f"seat {p} is {COLOURS[p]}, got {json.dumps(s['colour'])}")
        P = {"money": _int(_need(s, "money", field), field + ".money", 0, 65535),
             "apprentices": _int(_need(s, "apprentices", field), field + ".apprentices", 0, 9),
             "app_supply": _int(_need(s, "apprentices_free", field), field + ".apprentices_free", 0, 9),
             "master_in_supply": _bool(_need(s, "master_free", field), field + ".master_free"),
             "passed": _bool(s.get("passed", False), field + ".passed")}
        fav = _obj(s.get("favours", {}), field + ".favours")
        _keys(fav, tuple(FAVOURS), field + ".favours")
        P["letters"] = sum(_int(fav.get(c, 0), f"{field}.favours.{c}", 0, 3) << (2 * i) for i, c in enumerate(FAVOURS))
        placed = 0
        for i, pl in enumerate(_list(s.get("placed", []), field + ".placed")):
            if pl not in PLACES:
                _fail(f"{field}.placed[{i}]", f"expected an area letter A..H, small or large, got {json.dumps(pl)}")
            placed |= 1 << PLACES.index(pl)
        P["placed"] = placed
        P["owned"] = _cards(s.get("owned", []), field + ".owned")
        P["completed"] = _cards(s.get("completed", []), field + ".completed")
        snap = s.get("snap")
        if snap is None:
            P["snap_turn"], P["snap_budget"] = 0, [0] * len(self.names)
        else:
            snap = _obj(snap, field + ".snap")
            _keys(snap, ("turn", "budget"), field + ".snap")
            P["snap_turn"] = _int(_need(snap, "turn", field + ".snap"), field + ".snap.turn", 1, 9)
            P["snap_budget"] = _kinds(_need(snap, "budget", field + ".snap"), field + ".snap.budget", self.names, 15)
        labs = _obj(_need(s, "labs", field), field + ".labs")
        _keys(labs, LABS, field + ".labs")
        P["labs"] = [self.lab(p, l, labs.get(LABS[l]), f"{field}.labs.{LABS[l]}") for l in range(2)]
        P["mech_count"] = sum(lab["mech"] for lab in P["labs"])
        if self.private(p):
            if "materials" in s:
                _fail(field + ".materials", "give the hand (\"hand\"); totals are for an opponent in a viewpoint")
            P["hand"] = _kinds(_need(s, "hand", field), field + ".hand", self.names)
        else:
            if "hand" in s:
                _fail(field + ".hand", f"seat {p}'s hand is hidden (§3.2); a viewpoint of seat {self.vp} "
                                       f"gives its public totals as \"materials\" instead")
            self.totals[p] = _kinds(_need(s, "materials", field), field + ".materials", self.names)
            P["hand"] = None   # totals minus labs, once the hidden labs have a placeholder
        return P

    def lab(self, p: int, l: int, d, field: str) -> dict:
        blank = {"side": 0, "mech": 0, "apprentices": 0, "master": False, "card": None, "counter": 0,
                 "start_turn": 0, "continuing": False, "revealed": False, "cand": [],
                 "materials": [0] * len(self.names)}
        if d is None:
            if l == 0:
                _fail(field, "missing (every seat has a small lab)")
            return blank
        d = _obj(d, field)
        _keys(d, LAB_KEYS, field)
        lab = dict(blank)
        lab["side"] = _int(_need(d, "side", field), field + ".side", 3, 6)
        if lab["side"] not in ((3, 5) if l == 0 else (4, 6)):
            _fail(field + ".side", f"the {LABS[l]} lab's sides are {'3 and 5' if l == 0 else '4 and 6'}")
        lab["mech"] = _int(d.get("mechanical_men", 0), field + ".mechanical_men", 0, 2)
        lab["apprentices"] = _int(d.get("apprentices", 0), field + ".apprentices", 0, 6)
        lab["master"] = _bool(d.get("master", False), field + ".master")
        card = d.get("card")
        if card is None:
            for k in ("materials", "counter", "start_turn", "continuing", "revealed", "cand"):
                if k in d and d[k] not in (None, 0, False, [], {}):
                    _fail(f"{field}.{k}", "an idle lab (card null) has no work on it")
            return lab
        lab["counter"] = _int(d.get("counter", 0), field + ".counter", 0, 15)
        lab["start_turn"] = _int(d.get("start_turn", 0), field + ".start_turn", 0, 9)
        lab["continuing"] = _bool(d.get("continuing", False), field + ".continuing")
        lab["revealed"] = _bool(d.get("revealed", False), field + ".revealed")
        hidden = not lab["revealed"]
        if hidden:
            lab["cand"] = _cards(_need(d, "cand", field), field + ".cand")
            if not lab["cand"]:
                _fail(field + ".cand", "empty: a hidden lab works on one of its candidate cards (§3.5.2)")
        elif "cand" in d and d["cand"]:
            _fail(field + ".cand", "only a hidden lab keeps candidates (this one is revealed)")
        if card == "hidden":
            if self.private(p) or not hidden:
                who = "its own" if self.private(p) and self.vp is not None else "a full position's"
                _fail(field + ".card", f"\"hidden\" is only for an opponent's hidden lab in a viewpoint "
                                       f"(this is {who if hidden else 'a revealed'} lab): give the card number")
            if "materials" in d:
                _fail(field + ".materials", f"seat {p}'s hidden lab materials are hidden (§3.2)")
            self.hidden.setdefault(p, []).append(l)
            lab["card"] = "hidden"
            return lab
        lab["card"] = _card(card, field + ".card")
        if hidden and not self.private(p):
            _fail(field + ".card", f"seat {p}'s lab is hidden (§3.2); a viewpoint of seat {self.vp} "
                                   f"writes \"hidden\" and its cand")
        if hidden and lab["card"] not in lab["cand"]:
            _fail(field + ".cand", f"does not hold the lab's card {lab['card']}")
        mats = _kinds(_need(d, "materials", field), field + ".materials", self.names, 15)
        need = self.game.card(lab["card"])["materials"]
        if mats != list(need):
            _fail(field + ".materials", f"card {lab['card']} needs "
                                        f"{', '.join(f'{c} {k}' for k, c in zip(self.names, need) if c)}")
        lab["materials"] = mats
        return lab


def _placeholder_labs(r: _Reader, f: dict) -> None:
    """Give each opponent's hidden labs a card that fits its public records (§3.5.2), and its
    hand as totals minus labs; the determinization that follows resamples them."""
    for p, P in enumerate(f["players"]):
        if P["hand"] is not None:
            continue
        tot = r.totals[p]
        labs = P["labs"]
        revealed = [sum(lab["materials"][k] for lab in labs if lab["card"] != "hidden") for k in range(len(tot))]
        room = [t - v for t, v in zip(tot, revealed)]
        if min(room) < 0:
            _fail(f"seats[{p}].materials", "less than the materials under its revealed labs")
        hidden = r.hidden.get(p, [])
        mats = {c: r.game.card(c)["materials"] for lab in labs for c in lab["cand"]}
        budget = P["snap_budget"] if P["snap_turn"] else [15] * len(tot)
        choice = None
        if len(hidden) == 1:
            other = labs[1 - hidden[0]]["card"]
            choice = next(((c,) for c in labs[hidden[0]]["cand"]
                           if c != other and all(m <= x for m, x in zip(mats[c], room))), None)
        elif len(hidden) == 2:
            choice = next(((a, b) for a in labs[0]["cand"] for b in labs[1]["cand"]
                           if a != b and all(ma + mb <= min(x, y) for ma, mb, x, y in
                                             zip(mats[a], mats[b], room, budget))), None)
        if hidden and choice is None:
            _fail(f"seats[{p}].labs", f"no card in the hidden labs' cand fits seat {p}'s materials"
                                      f"{' and snapshot' if len(hidden) == 2 else ''} (§3.5.2)")
        for l, c in zip(hidden, choice or ()):
            labs[l]["card"], labs[l]["materials"] = c, list(mats[c])
        P["hand"] = [t - sum(lab["materials"][k] for lab in labs) for k, t in enumerate(tot)]


def _deck(r: _Reader, f: dict) -> None:
    """The deck: as listed (full position), else a placeholder order of the cards the public
    record leaves in it, with the looker's own view of the top at its Council action 3."""
    d = _need(r.doc, "deck", "")
    if r.vp is None:
        f["deck"] = _cards(d, "deck")
        return
    if isinstance(d, list):
        _fail("deck", f"the deck order is hidden (§3.2); a viewpoint of seat {r.vp} gives "
                      f"{{\"cards\": N}} (and \"top\" while it reorders)")
    d = _obj(d, "deck")
    _keys(d, ("cards", "top"), "deck")
    size = _int(_need(d, "cards", "deck"), "deck.cards", 0, 25)
    out = set(range(1, 26)) - set(f["row"]) - set(f["box"])
    for P in f["players"]:
        out -= set(P["owned"])
    if f["phase"] == "BID" and f["pending_index"] < len(f["pending"]):
        out.discard(f["pending"][f["pending_index"]][0])
    top = []
    if "top" in d:
        if not (f["phase"] == "REORDER" and f["actor"] == r.vp):
            _fail("deck.top", f"seat {r.vp} sees the top of the deck only during its own Council action 3")
        top = _cards(d["top"], "deck.top")
        if len(top) != min(4, size):
            _fail("deck.top", f"expected the top {min(4, size)} cards seat {r.vp} is looking at")
        for i, c in enumerate(top):
            if c not in out:
                _fail(f"deck.top[{i}]", f"card {c} is not in the deck (it is in the row, owned or boxed)")
    elif f["phase"] == "REORDER" and f["actor"] == r.vp:
        _fail("deck.top", f"missing (seat {r.vp} is looking at the top cards for its Council action 3)")
    if len(out) != size:
        _fail("deck.cards", f"{size}, but the row, the owned and boxed cards leave {len(out)} of the 25")
    f["deck"] = top + sorted(out - set(top))


def position_from_dict(doc, edition=None, seed=0):
    """A core State from a format-1 position document; InputError names the bad field. A
    viewpoint's hidden parts are one determinization from `seed` (its `viewpoint` is set)."""
    doc = _obj(doc, "position")
    if doc.get("game") != "leonardo":
        _fail("game", f"expected \"leonardo\", got {json.dumps(doc.get('game'))}")
    _keys(doc, TOP_KEYS, "")
    fmt = doc.get("format", FORMAT)
    if type(fmt) is not int or fmt != FORMAT:
        _fail("format", f"unsupported format {json.dumps(doc.get('format'))} (this version reads {FORMAT})")
    game = game_for(doc, edition)
    vp = doc.get("viewpoint")
    if vp is not None:
        vp = _seat_no(vp, "viewpoint", game.players)
    r = _Reader(doc, game, vp)
    f: dict = {}
    r.board(f)
    r.history(f)
    r.city(f)
    r.progress(f)
    r.bids_field(f)
    r.seats(f)
    _placeholder_labs(r, f)
    _deck(r, f)
    if vp is not None:
        f["mid_lower"] = []    # resampled with the deck by the determinization
        f["look_cards"] = [lk if lk is not None else ([1], 0) for lk in f["look_cards"]]
    else:
        f["look_cards"] = [lk for lk in f["look_cards"]]
    for P in f["players"]:
        for lab in P["labs"]:
            if lab["card"] == "hidden":
                raise AssertionError("placeholder missing")
    try:
        # A viewpoint's hidden parts are a placeholder: resample them before anything is played
        # from them (a placeholder hand can make an opponent's real decision look forced).
        state = game.start(0).with_fields(f, placeholder=vp is not None)
    except ValueError as exc:   # the core names its fields (docs/positions.md)
        raise InputError(str(exc)) from None
    if vp is not None:
        if state.deck_hypotheses(vp) == 0:
            _fail("history", f"no deck fits seat {vp}'s own looks and the draws (§3.5.1)")
        try:
            state.determinize(vp, seed)
        except ValueError:
            who = f"seat {f['actor']}" if f["actor"] != vp else "the seats"
            _fail("seats", f"no sample of what seat {vp} cannot see fits the records: the hidden labs' "
                           f"cand and the materials (§3.5.2){' leave ' + who + ' no lab start to decide' if f['phase'] == 'LAB' and f['step'] >= 2 and f['actor'] != vp else ''}")
        try:
            state = state.with_fields({})   # checked as a full state, forced moves played (§11.4)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        state.viewpoint = vp
    return state
