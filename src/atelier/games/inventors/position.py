"""Position JSON, format 1 (docs/positions.md), loading: names and card ids a person can read and edit.

Loading turns names into the core's indices with one-line errors (`display[I04].filled.P: 3
exceeds the card's cost 2`), then the C++ side range-checks and runs the spec 4.1 validation.
A position carries the data of the cards and inventors it shows; on load those override the
base edition, so a position from a real box is right where the default edition is not.
"""
from __future__ import annotations

import json

from ..._core import inventors as core
from ...errors import InputError
from ...fieldcheck import fail as _fail, is_int as _is_int, whole as _int, obj as _obj, known_keys as _keys
from .edition import TOKEN_KINDS, edition_data, edition_from_data, load_edition
from .position_dump import position_dict  # noqa: F401  (re-exported: load and dump in one place)

FORMAT = 1
DISC = tuple(core.DISCIPLINES)  # "P", "C", "M", "Ma"
PHASES = ("CHANCE_REVEAL", "MAIN", "REWARD", "TERMINAL")
TOP_KEYS = ("game", "format", "players", "teams", "age", "phase", "active", "statuette", "seats",
            "display", "bag", "reward", "cards", "inventors", "edition")


def _need(obj: dict, key: str, field: str):
    if key not in obj:
        _fail(field + key, "missing")
    return obj[key]


class _Names:
    """Name -> index lookups for one edition (ids are case-insensitive, like the notation)."""

    def __init__(self, ed: dict):
        self.ed = ed
        self.card = {c.lower(): i for i, c in enumerate(ed["card_ids"])}
        self.team = {t.lower(): i for i, t in enumerate(ed["team_ids"])}
        self.inventor = {iid.lower(): (t, i) for t, ids in enumerate(ed["inventor_ids"])
                         for i, iid in enumerate(ids)}

    def card_index(self, v, field: str) -> int:
        if not isinstance(v, str) or v.lower() not in self.card:
            _fail(field, f"unknown card {json.dumps(v)}")
        return self.card[v.lower()]

    def card_ids(self, cards: list[int]) -> list[str]:
        return [self.ed["card_ids"][c] for c in cards]


def _kind(v, field: str) -> int:
    names = {k.lower(): i for i, k in enumerate(TOKEN_KINDS)}
    if not isinstance(v, str) or v.lower() not in names:
        _fail(field, f"unknown token kind {json.dumps(v)} (kinds: {', '.join(TOKEN_KINDS)})")
    return names[v.lower()]


def _kind_counts(v, field: str) -> list[int]:
    counts = [0] * len(TOKEN_KINDS)
    for key, c in _obj(v, field).items():
        counts[_kind(key, f"{field}.{key}")] = _int(c, f"{field}.{key}", 0, 15)
    return counts


def _disc_vec(v, field: str, hi: int) -> list[int]:
    """A per-discipline vector: {"P": 1, "C": 0, ...} (missing = 0) or a list of 4."""
    if isinstance(v, list):
        if len(v) != 4:
            _fail(field, "expected 4 values (P, C, M, Ma)")
        return [_int(x, f"{field}.{d}", 0, hi) for d, x in zip(DISC, v)]
    names = {d.lower(): i for i, d in enumerate(DISC)}
    out = [0] * 4
    for key, x in _obj(v, field).items():
        if key.lower() not in names:
            _fail(f"{field}.{key}", "unknown discipline (use P, C, M, Ma)")
        out[names[key.lower()]] = _int(x, f"{field}.{key}", 0, hi)
    return out


def _override(doc: dict, ed: dict, names: _Names) -> bool:
    """Apply the position's own card and inventor data to the edition dict; True if changed."""
    changed = False
    for key, card in _obj(doc.get("cards", {}), "cards").items():
        field = f"cards.{key}"
        c = names.card_index(key, field)
        card = _obj(card, field)
        row = ed["cards"][c]
        if "age" in card and _int(card["age"], field + ".age", 1, 3) != row["age"]:
            _fail(field + ".age", f"a card cannot change age (it is in age {row['age']})")
        new = {"age": row["age"],
               "type": _int(card.get("type", row["type"]), field + ".type", 0, 5),
               "cost": _disc_vec(card.get("cost", row["cost"]), field + ".cost", 7)}
        if not 1 <= sum(new["cost"]) <= 28:
            _fail(field + ".cost", f"total {sum(new['cost'])} is outside 1..28")
        changed |= new != row
        ed["cards"][c] = new
    for key, inv in _obj(doc.get("inventors", {}), "inventors").items():
        field = f"inventors.{key}"
        if not isinstance(key, str) or key.lower() not in names.inventor:
            _fail(field, "unknown inventor")
        t, i = names.inventor[key.lower()]
        inv, row = _obj(inv, field), ed["inventors"][t][i]
        new = {"start": _disc_vec(inv.get("start", row["start"]), field + ".start", 4),
               "goal": _disc_vec(inv.get("goal", row["goal"]), field + ".goal", 4),
               "goal_vp": _int(inv.get("goal_vp", row["goal_vp"]), field + ".goal_vp", 0, 63)}
        changed |= new != row
        ed["inventors"][t][i] = new
    return changed


def _seat(doc: dict, p: int, team: int, names: _Names, out: dict) -> None:
    field = f"seats[{p}]"
    s = _obj(doc, field)
    _keys(s, ("seat", "team", "inventors", "hand", "won"), field)
    if "seat" in s and s["seat"] != p:
        _fail(field + ".seat", f"expected {p} (seats are listed in order)")
    team_id = names.ed["team_ids"][team]
    if "team" in s and str(s["team"]).lower() != team_id.lower():
        _fail(field + ".team", f"'{s['team']}' differs from teams[{p}] = '{team_id}'")
    ids = [i.lower() for i in names.ed["inventor_ids"][team]]
    invs = _obj(_need(s, "inventors", field + "."), field + ".inventors")
    levels, busy = [None] * 4, [False] * 4
    for key, inv in invs.items():
        f = f"{field}.inventors.{key}"
        if key.lower() not in ids:
            _fail(f, f"not an inventor of team {team_id} ({', '.join(names.ed['inventor_ids'][team])})")
        i = ids.index(key.lower())
        inv = _obj(inv, f)
        _keys(inv, ("levels", "busy"), f)
        levels[i] = _disc_vec(_need(inv, "levels", f + "."), f + ".levels", 4)
        b = inv.get("busy", False)
        if not isinstance(b, bool):
            _fail(f + ".busy", "expected true or false")
        busy[i] = b
    for i, lv in enumerate(levels):
        if lv is None:
            _fail(field + ".inventors", f"missing {names.ed['inventor_ids'][team][i]}")
    won = s.get("won", [])
    if not isinstance(won, list):
        _fail(field + ".won", "expected a list of card ids")
    out["levels"].append(levels)
    out["busy"].append(busy)
    out["hand"].append(_kind_counts(s.get("hand", {}), field + ".hand"))
    cards = [names.card_index(c, f"{field}.won[{j}]") for j, c in enumerate(won)]
    for j, c in enumerate(cards):
        if c in cards[:j]:
            _fail(f"{field}.won[{j}]", f"{names.ed['card_ids'][c]} is listed twice")
    out["won"].append(cards)


def _cubes(v, field: str, n: int) -> list[int]:
    if not isinstance(v, list) or len(v) != n:
        _fail(field, f"expected {n} counts, one per seat")
    return [_int(x, f"{field}[{s}]", 0, 28) for s, x in enumerate(v)]


def _display_card(d, j: int, n: int, names: _Names, ed: dict) -> dict:
    d = _obj(d, f"display[{j}]")
    _keys(d, ("card", "tokens", "filled", "cubes", "placed"), f"display[{j}]")
    cid = _need(d, "card", f"display[{j}].")
    c = names.card_index(cid, f"display[{cid}].card" if isinstance(cid, str) else f"display[{j}].card")
    field = f"display[{ed['card_ids'][c]}]"
    cost = ed["cards"][c]["cost"]
    tokens = d.get("tokens")
    if not isinstance(tokens, list) or len(tokens) != 2:
        _fail(field + ".tokens", "expected 2 token kinds")
    filled = cubes = None
    if "placed" in d:
        # Per-seat, per-discipline detail for a person's convenience (spec §4 notes).
        filled, cubes = [0] * 4, [0] * n
        for seat, vec in _obj(d["placed"], field + ".placed").items():
            digits = isinstance(seat, str) and seat.isascii() and seat.isdigit()  # not "²"
            s = _int(int(seat) if digits else seat, f"{field}.placed.{seat}", 0, n - 1)
            vec = _disc_vec(vec, f"{field}.placed.{seat}", 7)
            filled = [a + b for a, b in zip(filled, vec)]
            cubes[s] += sum(vec)
    if "filled" in d:
        f = _disc_vec(d["filled"], field + ".filled", 7)
        if filled is not None and f != filled:
            _fail(field, f"'filled' {f} disagrees with 'placed', which sums to {filled}")
        filled = f
    if "cubes" in d:
        cb = _cubes(d["cubes"], field + ".cubes", n)
        if cubes is not None and cb != cubes:
            _fail(field, f"'cubes' {cb} disagrees with 'placed', which gives {cubes}")
        cubes = cb
    if filled is None or cubes is None:
        _fail(field, "give 'filled' and 'cubes', or 'placed'")
    for k, (x, cap) in enumerate(zip(filled, cost)):
        if x > cap:
            _fail(f"{field}.filled.{DISC[k]}", f"{x} exceeds the card's cost {cap}")
    if sum(cubes) != sum(filled):
        _fail(field + ".cubes", f"{sum(cubes)} cubes but {sum(filled)} spaces filled")
    return {"card": c, "tokens": [_kind(t, f"{field}.tokens") for t in tokens],
            "filled": filled, "cubes": cubes}


def _reward(r, n: int, names: _Names, ed: dict) -> dict:
    r = _obj(r, "reward")
    _keys(r, ("card", "tokens", "left", "cubes", "seats", "index"), "reward")
    c = names.card_index(_need(r, "card", "reward."), "reward.card")
    tokens = r.get("tokens")
    if not isinstance(tokens, list) or len(tokens) != 2:
        _fail("reward.tokens", "expected 2 token kinds")
    left = r.get("left")
    if not isinstance(left, list):
        _fail("reward.left", "expected a list such as [\"card\", \"P2\"]")
    left_card = any(isinstance(x, str) and x.lower() == "card" for x in left)
    left_tokens = [_kind(x, "reward.left") for x in left if not (isinstance(x, str) and x.lower() == "card")]
    on_card = [_kind(t, "reward.tokens") for t in tokens]
    for k in left_tokens:  # what is left must be on the card, each token once
        if k not in on_card:
            _fail("reward.left", f"{TOKEN_KINDS[k]} is not one of the card's tokens {tokens}")
        on_card.remove(k)
    cubes = _cubes(_need(r, "cubes", "reward."), "reward.cubes", n)
    seats = r.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 3:
        _fail("reward.seats", "expected a list of 1 to 3 seats")
    for j, s in enumerate(seats):
        _int(s, f"reward.seats[{j}]", 0, n - 1)
        if cubes[s] == 0:
            _fail(f"reward.seats[{j}]", f"seat {s} has no cubes on {ed['card_ids'][c]}, so it gets no reward")
    return {"card": c, "tokens": [_kind(t, "reward.tokens") for t in tokens],
            "left": {"card": left_card, "tokens": left_tokens}, "cubes": cubes, "seats": seats,
            "index": _int(r.get("index", 0), "reward.index", 0, len(seats) - 1)}


def _embedded_edition(doc: dict, edition):
    """The base edition: the one the position carries (written by atelier when its edition is not
    the bundled one), else `edition`, else the bundled one. A position that carries an edition
    and an explicitly given, different one is an error: one of them would be silently ignored."""
    if "edition" not in doc:
        return edition if edition is not None else load_edition()
    try:
        own = edition_from_data(edition_data(doc["edition"]))
    except InputError as exc:  # "edition inventions[I05].cost: ..." -> the field in this file
        raise InputError("edition." + str(exc)[len("edition "):]) from None
    if edition is not None and edition.to_dict() != own.to_dict():
        _fail("edition", "the position carries its own edition, which differs from the one given "
                         "(--edition); drop one of the two")
    return own


def game_for(doc: dict, edition=None):
    """The core Game a position document describes (its card data overriding `edition`)."""
    base = _embedded_edition(doc, edition)
    ed = base.to_dict()
    names = _Names(ed)
    n = _int(_need(doc, "players", ""), "players", 2, 5)
    teams = doc.get("teams")
    if not isinstance(teams, list) or len(teams) != n:
        _fail("teams", f"expected {n} team ids, one per seat")
    idx = []
    for p, t in enumerate(teams):
        if not isinstance(t, str) or t.lower() not in names.team:
            _fail(f"teams[{p}]", f"unknown team {json.dumps(t)} (teams: {', '.join(ed['team_ids'])})")
        if names.team[t.lower()] in idx:
            _fail(f"teams[{p}]", f"team '{t}' is already seated")
        idx.append(names.team[t.lower()])
    if _override(doc, ed, names):
        base = edition_from_data(ed)
    try:
        return core.Game(base, n, idx), names
    except ValueError as exc:
        raise InputError(str(exc)) from None


def position_from_dict(doc, edition=None):
    """A core State from a format-1 position document; InputError names the bad field."""
    doc = _obj(doc, "position")
    if "game" not in doc:
        _fail("game", "missing (a position starts with \"game\": \"inventors\")")
    if doc.get("game") != "inventors":
        _fail("game", f"expected \"inventors\", got {json.dumps(doc.get('game'))}")
    _keys(doc, TOP_KEYS, "")
    fmt = doc.get("format", FORMAT)
    # true == 1 and 1.0 == 1 in Python: only the integer itself names format 1.
    if type(fmt) is not int or fmt != FORMAT:
        _fail("format", f"unsupported format {json.dumps(doc.get('format'))} (this version reads {FORMAT})")
    game, names = game_for(doc, edition)
    ed, n = names.ed, game.players
    phase = doc.get("phase")
    if not isinstance(phase, str) or phase.upper() not in PHASES:
        _fail("phase", f"expected one of {', '.join(PHASES)}, got {json.dumps(phase)}")
    fields = {"age": _int(_need(doc, "age", ""), "age", 1, 3), "phase": phase.upper(),
              "active": _int(_need(doc, "active", ""), "active", 0, n - 1),
              "statuette": _int(_need(doc, "statuette", ""), "statuette", 0, n - 1),
              "levels": [], "busy": [], "hand": [], "won": []}
    seats = _need(doc, "seats", "")
    if not isinstance(seats, list) or len(seats) != n:
        _fail("seats", f"expected {n} entries, one per seat")
    for p, s in enumerate(seats):
        _seat(s, p, game.teams[p], names, fields)
    display = doc.get("display", [])
    if not isinstance(display, list):
        _fail("display", "expected a list of cards")
    fields["display"] = sorted((_display_card(d, j, n, names, ed) for j, d in enumerate(display)),
                               key=lambda d: d["card"])
    for a, b in zip(fields["display"], fields["display"][1:]):
        if a["card"] == b["card"]:
            _fail(f"display[{ed['card_ids'][a['card']]}]", "listed twice")
    fields["bag"] = _kind_counts(_need(doc, "bag", ""), "bag")
    reward = doc.get("reward")
    fields["reward"] = None if reward is None else _reward(reward, n, names, ed)
    try:
        return core.State.from_fields(game, fields)
    except ValueError as exc:  # the core names fields as this file does (docs/positions.md)
        raise InputError(str(exc)) from None
