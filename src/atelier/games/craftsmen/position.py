"""Position JSON, format 1 (docs/positions-craftsmen.md), loading.

A full position (rules §6.1) names every card: hands, rows, each deck's known sequences and
segments. The document's keys are State.fields()' own, so most of it goes to the core as it is
(State.with_fields, which checks every value and then the core's validate, naming the field);
here are the checks that need the edition or several fields at once, with messages that say
what to fix: the 48 money cards, the 10-card hand limit, and the derived cube supplies.
"""
from __future__ import annotations

import json

from ...errors import InputError
from ...fieldcheck import fail as _fail, whole as _int, obj as _obj, listed as _list, known_keys as _keys
from .edition import edition_from_data, edition_of, hand_limit, load_edition, money_counts
from .position_dump import FORMAT, TIERS, position_dict  # noqa: F401  (re-exported: load and dump in one place)

REQUIRED = ("year", "season", "phase", "flow", "actor", "turn_order", "seats", "display", "money_deck",
            "discard", "decks", "box", "guilds", "warehouse", "ships", "bank_priv", "bank_work",
            "bonus_unclaimed")
OPTIONAL = ("order_track", "mayor", "neutral_supply", "context", "knowledge")
TOP_KEYS = ("game", "format", "players", "age_rank", "viewpoint", "edition") + REQUIRED + OPTIONAL
SEAT_REQUIRED = ("ap", "home", "money", "hand", "row")
SEAT_DEFAULTS = {"passed": False, "market": 0, "priv_tokens": 0, "work_tokens": 0, "contributed": False,
                 "mulliganed": False, "bonus": [], "filled": {}}
SEAT_KEYS = ("seat",) + SEAT_REQUIRED + tuple(SEAT_DEFAULTS) + ("supply",)
MONEY_PLACES = ("display", "money_deck", "discard", "mayor")
MONEY_TYPES = tuple(f"{c}{v}" for c in "PGBR" for v in (1, 2, 3))
CUBES, NEUTRAL_CUBES = 20, 14
DECK_KEYS = ("faceup", "top", "segments", "bottom", "pool", "top_slots", "next_top", "bottom_slots", "next_bottom")


def _need(d: dict, key: str, field: str):
    if key not in d:
        _fail(f"{field}.{key}" if field else key, "missing")
    return d[key]


def _money(v, field: str) -> dict:
    out = {}
    for key, c in _obj(v, field).items():
        if key not in MONEY_TYPES:
            _fail(f"{field}.{key}", "not a money type (P1..P3, G1..G3, B1..B3, R1..R3)")
        out[key] = _int(c, f"{field}.{key}", 0, 48)
    return out


def game_for(doc: dict, edition=None):
    """The core Game a position document describes."""
    from . import open_game

    n = _int(_need(doc, "players", ""), "players", 2, 5)
    if "edition" in doc:
        try:
            own = edition_from_data(_obj(doc["edition"], "edition"))
        except InputError as exc:
            raise InputError("edition." + str(exc)[len("edition: "):]) from None
        if edition is not None and dict(edition) != dict(own):
            _fail("edition", "the position carries its own edition, which differs from the one "
                             "given (--edition); drop one of the two")
        edition = own
    return open_game(players=n, edition=load_edition(edition), age_rank=doc.get("age_rank"))


def _check_money(f: dict, ed, n: int) -> None:
    """Rules §2: the 48 money cards, each type as often as the edition prints it, are somewhere."""
    want = money_counts(ed)
    places = [f["seats"][p]["money"] for p in range(n)] + [f[k] for k in MONEY_PLACES]
    for t in MONEY_TYPES:
        have = sum(place.get(t, 0) for place in places)
        if have != want.get(t, 0):
            _fail("money", f"{have} {t} cards in the hands, display, money_deck, discard and mayor; "
                           f"the edition has {want.get(t, 0)} (every money card is in exactly one place)")


def _may_exceed_limit(f: dict, p: int) -> bool:
    """Above the hand limit only while it is being dealt with (rules §7.3, A23): the seat
    discarding down, the Banker mid-action, or the seat a draw is dealing to."""
    ctx, phase = f["context"], f["phase"]
    return ((phase == "DISCARD" and ctx.get("discard_seat") == p) or
            (phase == "LIMIT" and ctx.get("limit_seat") == p) or
            (phase in ("BANK1", "BANK2", "BANK_PRIV") and f["actor"] == p) or
            (phase == "CHANCE" and ctx.get("chance_seat") == p))


def _check_hand_limit(f: dict, limit: int, n: int) -> None:
    for p in range(n):
        size = sum(f["seats"][p]["money"].values())
        if size > limit and not _may_exceed_limit(f, p):
            _fail(f"seats[{p}].money", f"{size} cards, above the hand limit of {limit} (rules §7.3); "
                                       f"only a seat discarding down to it (phase DISCARD or LIMIT) holds more")


def _derived_supply(f: dict, p: int) -> int:
    """Rules §6.1: 20 cubes less those on the market, the row's icons, the warehouse, the ships and
    the one (or two raws) awaiting a destination."""
    s = f["seats"][p]
    used = s["market"] + sum(len(icons) for icons in s["filled"].values() if isinstance(icons, list))
    used += sum(slot == p for slots in f["warehouse"].values() if isinstance(slots, list) for slot in slots
                if not isinstance(slot, bool))
    used += sum(slot == p for ship in f["ships"] if isinstance(ship, dict) for slots in ship.values()
                if isinstance(slots, list) for slot in slots if not isinstance(slot, bool))
    ctx = f["context"]
    phase, actor = f["phase"], f["actor"]
    if phase == "LIMIT":
        phase, actor = ctx.get("limit_saved"), ctx.get("limit_actor")
    raws = ctx.get("raws_left")
    if actor == p and phase == "SEND":
        used += raws if isinstance(raws, int) and not isinstance(raws, bool) and raws > 0 else 1
    if actor == p and phase == "LOAD":
        used += 1
    return CUBES - used


def _derived_neutral(f: dict) -> int:
    return NEUTRAL_CUBES - sum(slot == "neutral" for slots in f["warehouse"].values()
                               if isinstance(slots, list) for slot in slots)


def _decks(v) -> dict:
    """Every tier named, so that no card of the loader's base state stays where it was."""
    decks = _obj(v, "decks")
    _keys(decks, TIERS, "decks")
    out = {}
    for t in TIERS:
        field = f"decks.{t}"
        d = dict(_obj(_need(decks, t, "decks"), field))
        _keys(d, DECK_KEYS, field)
        for k in ("faceup", "segments"):
            _need(d, k, field)
        for k in ("top", "bottom", "pool"):
            d.setdefault(k, [])
        out[t] = d
    return out


def _fields(doc: dict, game) -> dict:
    n = game.players
    f = {k: _need(doc, k, "") for k in REQUIRED}
    f["order_track"] = doc.get("order_track", [])
    f["mayor"] = doc.get("mayor", {})
    f["context"] = _obj(doc.get("context", {}), "context")   # left out: the start's (no decision under way)
    if "knowledge" in doc:   # left out: only what the places say (a hand known to its holder)
        f["knowledge"] = _obj(doc["knowledge"], "knowledge")
    seats = _list(f["seats"], "seats")
    if len(seats) != n:
        _fail("seats", f"expected {n} entries, one per seat")
    out = []
    for p, s in enumerate(seats):
        field = f"seats[{p}]"
        s = _obj(s, field)
        _keys(s, SEAT_KEYS, field)
        if "seat" in s and s["seat"] != p:
            _fail(field + ".seat", f"expected {p} (seats are listed in order)")
        seat = {k: _need(s, k, field) for k in SEAT_REQUIRED}
        seat.update({k: s.get(k, d) for k, d in SEAT_DEFAULTS.items()})
        seat["money"] = _money(seat["money"], field + ".money")
        _int(seat["market"], field + ".market", 0, 3)
        _obj(seat["filled"], field + ".filled")
        if "supply" in s:
            seat["supply"] = s["supply"]
        out.append(seat)
    f["seats"] = out
    for k in MONEY_PLACES:
        f[k] = _money(f[k], k)
    f["decks"] = _decks(f["decks"])
    _obj(f["warehouse"], "warehouse")
    _list(f["ships"], "ships")
    for p, seat in enumerate(f["seats"]):
        want = _derived_supply(f, p)
        if "supply" not in seat:
            seat["supply"] = max(0, want)   # out of range: the core's cube check names it
        elif _int(seat["supply"], f"seats[{p}].supply", 0, CUBES) != want and want >= 0:
            _fail(f"seats[{p}].supply", f"{seat['supply']}, but the market, the filled icons, the warehouse "
                                        f"and the ships leave {want} of the seat's {CUBES} cubes (or leave it out)")
    f["neutral_supply"] = doc["neutral_supply"] if "neutral_supply" in doc else max(0, _derived_neutral(f))
    return f


def position_from_dict(doc, edition=None, seed=0):
    """A core State from a format-1 position document; InputError names the bad field. A
    viewpoint's hidden parts are one deal from `seed` (its `viewpoint` is then set)."""
    doc = _obj(doc, "position")
    if doc.get("game") != "craftsmen":
        _fail("game", f"expected \"craftsmen\", got {json.dumps(doc.get('game'))}")
    _keys(doc, TOP_KEYS, "")
    fmt = doc.get("format", FORMAT)
    if type(fmt) is not int or fmt != FORMAT:
        _fail("format", f"unsupported format {json.dumps(doc.get('format'))} (this version reads {FORMAT})")
    game = game_for(doc, edition)
    if doc.get("viewpoint") is not None:   # one seat's view (rules §6.2, view.py)
        from .view import full_from_view

        full, seat = full_from_view(doc, game, money_counts(edition_of(game)), seed)
        return _load(full, game, (seat, seed))
    return _load(doc, game)


def _load(doc: dict, game, view=None):
    """The state of a full document; `view` (seat, seed): the placeholders it holds are dealt
    afresh for that seat before the core's checks (view.py)."""
    f = _fields(doc, game)
    ed = edition_of(game)
    _check_money(f, ed, game.players)
    _check_hand_limit(f, hand_limit(ed), game.players)
    try:
        if view is not None:
            return game.start(0).with_view_fields(f, view[0], view[1])
        return game.start(0).with_fields(f)
    except ValueError as exc:   # the core names its fields, which are the document's
        raise InputError(str(exc)) from None
