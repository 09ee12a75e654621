"""Craftsmen viewpoints (rules §6.2): what one seat knows, written as a position, and read back.

A viewpoint is the full position format (docs/positions-craftsmen.md) with `"viewpoint": S` and
every card S has not seen written as a placeholder: `"?"` and its pool (`?basic`,
`?extended-house`, `?extended-plain`, `?advanced-house`, `?advanced-plain`), or `?<tier>-returns`
for a slot of a Notary look's returns (A26; the tier's `returns` lists the face-up ids known to be
among them and the pools of the rest). Another seat's money is the cards S knows it holds plus
`money_unseen`, the money deck `{"cards": N}`.

Reading a viewpoint fills the placeholders with unseen cards (the claimants of a running auction,
a payment or a first build first, with the highest cards: a start for the deal), then the core
deals what S cannot see afresh from `seed` (Game::determinize, within the claims, from what S
knows only: the start's choices do not reach the sample) before every check of the full format
(State.with_view_fields): the state's hidden parts are one sample, and `state.viewpoint` says so.
Every field the fill reads is checked first (its type, and a count's range before any count is
expanded into cards), with the full loader's messages: the fill never meets a value it cannot use.
"""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

from ...errors import InputError
from ...fieldcheck import fail as _fail, listed as _list, obj as _obj, whole as _int
from .position import _money

POOLS = ("basic", "extended-house", "extended-plain", "advanced-house", "advanced-plain")
RETURNS = "-returns"   # ?basic-returns, ?extended-returns, ?advanced-returns
TIERS = ("basic", "extended", "advanced")
HIDDEN_LISTS = ("top", "bottom", "pool")


def _knowers(f: dict, n: int):
    """(known money per (observer, holder), knowers per building id) of a full state's fields."""
    money = {(e["seat"], e["of"]): Counter(e["cards"]) for e in f["knowledge"]["money"]}
    special = {b: e for b, e in f["knowledge"]["buildings"].items()}
    return money, special


# ---------------------------------------------------------------------------------------------
# Writing

def view_dict(full: dict, f: dict, seat: int, pools: dict) -> dict:
    """Seat `seat`'s view of the full position document `full` (fields `f`, pools by card id)."""
    n = len(f["seats"])
    money, special = _knowers(f, n)
    doc = {}
    for k, v in copy.deepcopy(full).items():   # the seat right after the table's size
        doc[k] = v
        if k == "age_rank":
            doc["viewpoint"] = seat

    def seen(card, holder=None):
        e = special.get(card)
        if e is None:   # the place's default: a hand its holder, a deck nobody, a look pool the looker
            return holder == seat
        return seat in e["known_to"]

    def mark(card, holder=None):
        if seen(card, holder):
            return card
        e = special.get(card)
        return "?" + pools[card].split("-")[0] + RETURNS if e is not None and "returns" in e else "?" + pools[card]

    returns = {t: {"face_up": [], "unseen": Counter()} for t in TIERS}
    for t in TIERS:
        tier_ids = [b for b, p in pools.items() if p.startswith(t)]
        for b in tier_ids:
            e = special.get(b)
            if e is not None and "returns" in e and seat not in e["known_to"]:
                if e["returns"] == "face_up":
                    returns[t]["face_up"].append(b)
                else:
                    returns[t]["unseen"][pools[b]] += 1
    for q, s in enumerate(doc["seats"]):
        if q == seat:
            continue
        known = money.get((seat, q), Counter())
        s["money_unseen"] = sum(s["money"].values()) - sum(known.values())
        s["money"] = dict(sorted(known.items()))
        s["hand"] = sorted((mark(b, q) for b in s["hand"]), key=lambda x: (x.startswith("?"), x))
    doc["money_deck"] = {"cards": sum(full["money_deck"].values())}
    looker = f["context"].get("helper_seat")
    for t in TIERS:
        d = doc["decks"][t]
        d["segments"] = [["?" + pools[b] for b in seg] for seg in d["segments"]]
        for k in HIDDEN_LISTS:
            d[k] = [mark(b, looker if k == "pool" else None) for b in d.get(k, [])]
        # A look pool is unordered: its known ids first, so no placeholder's place hints at its id.
        d["pool"] = sorted(d["pool"], key=lambda x: (x.startswith("?"), x))
        if returns[t]["face_up"] or returns[t]["unseen"]:
            d["returns"] = {"face_up": sorted(returns[t]["face_up"]), "unseen": dict(sorted(returns[t]["unseen"].items()))}
    know = {"money": [e for e in f["knowledge"]["money"] if e["of"] == seat], "buildings": {}}
    if know["money"]:
        doc["knowledge"] = know
    else:
        doc.pop("knowledge", None)
    return doc


# ---------------------------------------------------------------------------------------------
# Reading

def _cards(v, field: str) -> list:
    """A list of card ids or placeholders (text); anything else is named before it is used."""
    for i, b in enumerate(_list(v, field)):
        if not isinstance(b, str):
            _fail(f"{field}[{i}]", f"expected a card id or a placeholder (text), got {json.dumps(b)}")
    return v


def _checked(full: dict, n: int, cards: int) -> None:
    """The view's own fields (hands, rows, decks, money, looks' returns), their types and counts,
    before full_from_view reads them."""
    for k in ("display", "discard", "mayor"):
        if k in full:
            full[k] = _money(full[k], k)
    for q, s in enumerate(_list(full.get("seats"), "seats")):
        s = _obj(s, f"seats[{q}]")
        if "money" in s:
            s["money"] = _money(s["money"], f"seats[{q}].money")
        for k in ("hand", "row"):
            if k in s:
                _cards(s[k], f"seats[{q}].{k}")
    if "box" in full:
        _cards(full["box"], "box")
    decks = _obj(full.get("decks"), "decks")
    for t in TIERS:
        d = _obj(decks.get(t), f"decks.{t}")
        for k in ("faceup",) + HIDDEN_LISTS:
            if k in d:
                _cards(d[k], f"decks.{t}.{k}")
        for j, seg in enumerate(_list(d.get("segments", []), f"decks.{t}.segments")):
            _cards(seg, f"decks.{t}.segments[{j}]")
        r = _obj(d.get("returns", {}), f"decks.{t}.returns")
        _cards(r.get("face_up", []), f"decks.{t}.returns.face_up")
        for p, c in _obj(r.get("unseen", {}), f"decks.{t}.returns.unseen").items():
            _int(c, f"decks.{t}.returns.unseen.{p}", 0, cards)
    if "context" in full:
        _obj(full["context"], "context")
    if full.get("knowledge") is not None:
        know = _obj(full["knowledge"], "knowledge")
        for i, e in enumerate(_list(know.get("money", []), "knowledge.money")):
            _obj(e, f"knowledge.money[{i}]")


def full_from_view(doc: dict, game, money_counts: dict, seed: int) -> dict:
    """The full position document of a viewpoint with its placeholders filled (the fill that the
    loader then redeals), and the seat. InputError names the field of an impossible view."""
    n = game.players
    seat = _int(doc["viewpoint"], "viewpoint", 0, n - 1)
    ids, pools = list(game.building_ids), dict(zip(game.building_ids, game.building_pools))
    full = copy.deepcopy(doc)
    del full["viewpoint"]
    seats = _list(full.get("seats"), "seats")
    if len(seats) != n:
        _fail("seats", f"expected {n} entries, one per seat")
    _checked(full, n, len(ids))
    rnd = random.Random(seed)

    # ---- money: the cards seat has not seen, into the unseen places
    shown = Counter()
    for k in ("display", "discard", "mayor"):
        shown.update(_obj(full.get(k, {}), k))
    places = {}
    known_of = {}
    for q, s in enumerate(seats):
        s = _obj(s, f"seats[{q}]")
        cards = Counter(_obj(s.get("money", {}), f"seats[{q}].money"))
        shown.update(cards)
        if q != seat:
            places[q] = _int(s.get("money_unseen", 0), f"seats[{q}].money_unseen", 0, 48)
            known_of[q] = cards
        elif "money_unseen" in s:
            _fail(f"seats[{q}].money_unseen", "the viewpoint seat sees its own hand (list its cards in money)")
    deck = _obj(full.get("money_deck", {}), "money_deck")
    if set(deck) != {"cards"}:
        _fail("money_deck", 'a viewpoint writes the money deck as {"cards": N} (the seat does not see it)')
    places["deck"] = _int(deck["cards"], "money_deck.cards", 0, 48)
    unseen = Counter(money_counts)
    unseen.subtract(shown)
    for t, c in unseen.items():
        if c < 0:
            _fail("money", f"the view shows {shown[t]} {t} cards; the edition has {money_counts.get(t, 0)}")
    pool = sorted(unseen.elements(), key=lambda t: (-int(t[1]), t))
    if len(pool) != sum(places.values()):
        _fail("money", f"{len(pool)} cards are unseen by seat {seat} but the view has {sum(places.values())} places "
                       f"for them (the other seats' money_unseen and money_deck.cards)")
    claims = _claims(full, seat, n)
    rest, fill = pool[:], {}
    for q in sorted((q for q in places if q in claims), key=lambda q: -claims[q]):
        fill[q], rest = rest[:places[q]], rest[places[q]:]   # the claimants first, the best cards
    rnd.shuffle(rest)
    for q in places:
        if q not in fill:
            fill[q], rest = rest[:places[q]], rest[places[q]:]
    for q, s in enumerate(seats):
        if q != seat:
            s = full["seats"][q]
            s.pop("money_unseen", None)
            s["money"] = dict(known_of[q] + Counter(fill[q]))
    full["money_deck"] = dict(Counter(fill["deck"]))

    # ---- buildings: the ids seat has not seen, into the placeholders of their pool
    named = set()
    slots = []   # (container, index, pool or RETURNS, tier)
    for q, s in enumerate(full["seats"]):
        for i, b in enumerate(_list(s.get("hand", []), f"seats[{q}].hand")):
            (slots.append((s["hand"], i, b, None)) if isinstance(b, str) and b.startswith("?") else named.add(b))
        named.update(s.get("row", []))
    named.update(full.get("box", []))
    decks = _obj(full.get("decks"), "decks")
    face_up_returns = {}
    for t in TIERS:
        d = _obj(decks.get(t), f"decks.{t}")
        named.update(d.get("faceup", []))
        for k in HIDDEN_LISTS:
            for i, b in enumerate(_list(d.get(k, []), f"decks.{t}.{k}")):
                (slots.append((d[k], i, b, t)) if isinstance(b, str) and b.startswith("?") else named.add(b))
        for j, seg in enumerate(_list(d.get("segments", []), f"decks.{t}.segments")):
            for i, b in enumerate(_list(seg, f"decks.{t}.segments[{j}]")):
                (slots.append((seg, i, b, t)) if isinstance(b, str) and b.startswith("?") else named.add(b))
        r = _obj(d.pop("returns", {}), f"decks.{t}.returns")
        face_up_returns[t] = list(_list(r.get("face_up", []), f"decks.{t}.returns.face_up"))
        named.update(face_up_returns[t])
        face_up_returns[t + ":unseen"] = Counter(_obj(r.get("unseen", {}), f"decks.{t}.returns.unseen"))
    for b in named:
        if b not in pools:
            _fail("buildings", f"unknown card {b!r}")
    free = {p: [b for b in ids if pools[b] == p and b not in named] for p in POOLS}
    for p in POOLS:
        rnd.shuffle(free[p])
    special = {}
    group_slots = {t: [] for t in TIERS}
    for cont, i, mark, t in slots:
        if mark.endswith(RETURNS) and mark[1:-len(RETURNS)] in TIERS:
            group_slots[mark[1:-len(RETURNS)]].append((cont, i))
            continue
        p = mark[1:]
        if p not in POOLS:
            _fail("buildings", f"unknown placeholder {mark!r} (one of ?{', ?'.join(POOLS)}, "
                               f"or ?<tier>{RETURNS} for a Notary look's returns)")
        if not free[p]:
            _fail("buildings", f"more {mark} places than unseen {p} cards")
        cont[i] = free[p].pop()
    for t in TIERS:
        members = list(face_up_returns[t])
        special.update({b: {"known_to": [], "returns": "face_up"} for b in members})
        for p, c in face_up_returns[t + ":unseen"].items():
            if p not in POOLS or not p.startswith(t):
                _fail(f"decks.{t}.returns.unseen", f"{p!r} is not a {t} pool")
            for _ in range(c):
                if not free[p]:
                    _fail(f"decks.{t}.returns.unseen", f"more unseen {p} returns than unseen {p} cards")
                b = free[p].pop()
                special[b] = {"known_to": [], "returns": "drawn"}
                members.append(b)
        if len(members) != len(group_slots[t]):
            _fail(f"decks.{t}.returns", f"{len(members)} returns ({len(face_up_returns[t])} face up, the rest unseen) "
                                        f"but {len(group_slots[t])} ?{t}{RETURNS} places")
        for (cont, i), b in zip(group_slots[t], members):
            cont[i] = b
    left = [p for p in POOLS if free[p]]
    if left:
        _fail("buildings", f"{len(free[left[0]])} unseen {left[0]} cards but no ?{left[0]} place for them")
    # ---- what seat knows, for the full position: its known cards where others do not see them
    know_money = [e for e in (full.get("knowledge") or {}).get("money", []) if e.get("of") == seat]
    for q, cards in known_of.items():
        if cards:
            know_money.append({"seat": seat, "of": q, "cards": dict(cards)})
    looker = (full.get("context") or {}).get("helper_seat")
    for q, s in enumerate(full["seats"]):
        for b in s.get("hand", []):
            if b in special:
                special[b]["known_to"] = [q]
            elif q != seat and b in named:
                special[b] = {"known_to": sorted({q, seat})}
    for t in TIERS:
        d = decks[t]
        for k in HIDDEN_LISTS:
            for b in d.get(k, []):
                base = [looker] if k == "pool" and isinstance(looker, int) else []
                if b in special:
                    special[b]["known_to"] = base
                elif b in named:
                    special[b] = {"known_to": sorted(set(base) | {seat})}
    full["knowledge"] = {"money": know_money, "buildings": special}
    return full, seat


def _claims(full: dict, seat: int, n: int) -> dict:
    """Seats whose hand the public has a lower bound on (rules §6.2, cext/craftsmen/claims.hpp):
    each bid of a running auction, a payment under way (a build, a buy, a won auction), and a
    first build at BUILD2. Only the start of the fill: the core's deal keeps them exactly."""
    out = {}
    ctx = full.get("context")
    if not isinstance(ctx, dict):
        return out
    if ctx.get("auction_card") is not None:
        bids = ctx.get("auction_max_bids")
        for q, b in enumerate(bids if isinstance(bids, list) else []):   # the core checks its type
            if isinstance(b, int) and b > 0 and q != seat and q < n:
                out[q] = b
    paying = full.get("phase") == "PAY" or (full.get("phase") == "LIMIT" and ctx.get("limit_saved") == "PAY")
    q = ctx.get("pay_seat")
    if paying and isinstance(q, int) and q != seat and isinstance(ctx.get("pay_amount"), int):
        out[q] = max(out.get(q, 0), ctx["pay_amount"])
    building = full.get("phase") == "BUILD2" or (full.get("phase") == "LIMIT" and ctx.get("limit_saved") == "BUILD2")
    q = ctx.get("limit_actor") if full.get("phase") == "LIMIT" else full.get("actor")
    if building and isinstance(q, int) and q != seat and isinstance(ctx.get("build_cost"), int):
        out[q] = max(out.get(q, 0), ctx["build_cost"])
    return out
