"""Edition files (rules spec §2.6, §10): JSON component data -> the core's Edition.

Every check names the field in one line, because an edition is typically typed in by a person
who owns the game and wants the real card values: `edition inventions[I05].cost: expected 4
integers 0..7`. The C++ Edition re-checks the same bounds; this layer makes the messages useful.
"""
from __future__ import annotations

import functools
import json
import re
from importlib import resources
from pathlib import Path

from ..._core import inventors as core
from ...errors import InputError
from ...jsonfmt import check_plain, load_file

DISCIPLINES = ("physics", "chemistry", "mechanics", "mathematics")
TOKEN_KINDS = tuple(core.TOKEN_KINDS)  # table order of spec 2.3: part of the notation, never reorder
TYPE_NAMES = ("weapons", "transport", "communication", "leisure", "time", "energy")

# The fixed meaning of each token kind's front (spec 2.3); an edition must agree (spec §10).
FRONTS = {
    "P2": ("progress", {"front_level": 2}),
    "P3": ("progress", {"front_level": 3}),
    "P4": ("progress", {"front_level": 4}),
    "VP1": ("victory_points", {"front_vp": 1}),
    "VP2": ("victory_points", {"front_vp": 2}),
    "VP3": ("victory_points", {"front_vp": 3}),
    "AV": ("availability", {}),
    "AK": ("additional_knowledge", {"front_cubes": 2}),
    "ST": ("classification_wildcard", {}),
}
FRONT_EXTRAS = ("front_level", "front_vp", "front_cubes")


def _fail(field: str, reason: str):
    raise InputError(f"edition {field}: {reason}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(obj: dict, key: str, field: str, lo: int, hi: int) -> int:
    if key not in obj:
        _fail(field, "missing")
    v = obj[key]
    if not _is_int(v) or not lo <= v <= hi:
        _fail(field, f"expected an integer {lo}..{hi}, got {json.dumps(v)}")
    return v


def _vec(obj: dict, key: str, field: str, hi: int) -> list[int]:
    v = obj.get(key)
    if not isinstance(v, list) or len(v) != 4 or not all(_is_int(x) and 0 <= x <= hi for x in v):
        _fail(field, f"expected 4 integers 0..{hi}")
    return list(v)


# Ids appear inside move notation (work:tesla:II07+P, reveal:I01=P2+AV,...) and in --teams
# lists, so they use only characters the notation does not (docs/notation.md). Edition::validate
# in the core checks the same.
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _id(obj: dict, field: str, seen: set) -> str:
    v = obj.get("id")
    if not isinstance(v, str) or not v:
        _fail(field + ".id", "expected a non-empty string")
    if not ID_RE.fullmatch(v):
        _fail(field + ".id", f"{json.dumps(v)} is not a valid id (1 to 32 letters, digits, '_' or '-'; "
                             "ids appear in move notation, docs/notation.md)")
    if v.lower() in seen:
        _fail(field + ".id", f"'{v}' is used twice")
    seen.add(v.lower())  # ids are matched case-insensitively in the notation
    return v


def _list(obj: dict, key: str, n: int | None = None) -> list:
    v = obj.get(key)
    if not isinstance(v, list):
        _fail(key, "missing or not a list")
    if n is not None and len(v) != n:
        _fail(key, f"expected {n} entries, got {len(v)}")
    return v


def _teams(doc: dict, out: dict) -> None:
    team_ids, inv_ids = set(), set()
    for t, team in enumerate(_list(doc, "teams", 5)):
        if not isinstance(team, dict):
            _fail(f"teams[{t}]", "expected an object")
        tid = _id(team, f"teams[{t}]", team_ids)
        invs = team.get("inventors")
        if not isinstance(invs, list) or len(invs) != 4:
            _fail(f"teams[{tid}].inventors", "expected 4 inventors")
        rows, ids, names = [], [], []
        for i, inv in enumerate(invs):
            field = f"teams[{tid}].inventors[{i}]"
            if not isinstance(inv, dict):
                _fail(field, "expected an object")
            iid = _id(inv, field, inv_ids)
            field = f"teams[{tid}].inventors[{iid}]"
            rows.append({
                "start": _vec(inv, "start", field + ".start", 4),
                "goal": _vec(inv, "goal", field + ".goal", 4),
                "goal_vp": _int(inv, "goal_vp", field + ".goal_vp", 0, 63),
            })
            ids.append(iid)
            name = inv.get("name", iid)
            names.append(name if isinstance(name, str) else iid)
        for d, dname in enumerate(DISCIPLINES):
            if not any(r["start"][d] >= 1 for r in rows):
                _fail(f"teams[{tid}]", f"no inventor starts with {dname} >= 1 (coverage invariant, spec 2.6)")
        out["inventors"].append(rows)
        out["team_ids"].append(tid)
        out["inventor_ids"].append(ids)
        out["inventor_names"].append(names)


def _inventions(doc: dict, out: dict) -> None:
    by_age: dict[int, list] = {1: [], 2: [], 3: []}
    seen: set = set()
    for c, card in enumerate(_list(doc, "inventions", 36)):
        if not isinstance(card, dict):
            _fail(f"inventions[{c}]", "expected an object")
        cid = _id(card, f"inventions[{c}]", seen)
        field = f"inventions[{cid}]"
        age = _int(card, "age", field + ".age", 1, 3)
        cost = _vec(card, "cost", field + ".cost", 7)
        if not 1 <= sum(cost) <= 28:
            _fail(field + ".cost", f"total {sum(cost)} is outside 1..28")
        row = {"age": age, "type": _int(card, "type", field + ".type", 0, 5), "cost": cost}
        name = card.get("name", cid)
        by_age[age].append((cid, name if isinstance(name, str) else cid, row))
    for age, cards in by_age.items():
        if len(cards) != 12:
            _fail("inventions", f"age {age} has {len(cards)} cards, expected 12")
        # Card index = (age-1)*12 + position within its age, in edition order.
        for cid, name, row in cards:
            out["card_ids"].append(cid)
            out["card_names"].append(name)
            out["cards"].append(row)


def _tokens(doc: dict, out: dict) -> None:
    counts = {}
    for j, tok in enumerate(_list(doc, "tokens", 9)):
        if not isinstance(tok, dict):
            _fail(f"tokens[{j}]", "expected an object")
        kind = tok.get("kind")
        if not isinstance(kind, str) or kind not in FRONTS:
            _fail(f"tokens[{j}].kind", f"expected one of {', '.join(TOKEN_KINDS)}, got {json.dumps(kind)}")
        if kind in counts:
            _fail(f"tokens[{kind}]", "kind listed twice")
        field = f"tokens[{kind}]"
        counts[kind] = _int(tok, "count", field + ".count", 0, 15)
        front, extras = FRONTS[kind]
        if tok.get("front") != front:
            _fail(field + ".front", f"must be '{front}' for {kind} (spec 2.3), got {json.dumps(tok.get('front'))}")
        for key in FRONT_EXTRAS:
            if tok.get(key) != extras.get(key):
                want = extras.get(key)
                _fail(f"{field}.{key}", f"must be {'absent' if want is None else want} for {kind} (spec 2.3)")
    total = sum(counts.values())
    if total < 48:
        _fail("tokens", f"{total} tokens in all, at least 48 are needed so the bag never runs short")
    out["token_count"] = [counts[k] for k in TOKEN_KINDS]
    back = doc.get("token_back")
    if not isinstance(back, dict) or back.get("effect") != "progress" or back.get("level") != 1:
        _fail("token_back", "must be {\"effect\": \"progress\", \"level\": 1} (spec 2.3)")


def edition_data(doc) -> dict:
    """Validate an edition document (spec §10) and return the dict `_core.inventors.Edition` takes."""
    if not isinstance(doc, dict):
        _fail("file", "expected a JSON object")
    check_plain(doc, "edition", sep=" ")  # no sets, NaN, non-str keys or deep nesting past this point
    if "game" not in doc:
        _fail("game", "missing (an edition file starts with \"game\": \"inventors\")")
    if doc.get("game") != "inventors":
        _fail("game", f"expected \"inventors\", got {json.dumps(doc.get('game'))}")
    if "disciplines" in doc and doc["disciplines"] != list(DISCIPLINES):
        _fail("disciplines", f"must be {list(DISCIPLINES)} in this order (spec 1.2)")
    out = {k: [] for k in ("inventors", "cards", "team_ids", "inventor_ids", "inventor_names",
                           "card_ids", "card_names")}
    _teams(doc, out)
    _inventions(doc, out)
    _tokens(doc, out)
    return out


def read_json(path, what: str):
    """Read a JSON file with one-line errors for missing files, bad JSON and non-JSON data."""
    return load_file(path, f"{what} file")


def edition_from_data(data: dict) -> core.Edition:
    try:
        return core.Edition(data)
    except ValueError as exc:
        raise InputError(f"edition {exc}") from None


def edition_document_of(game) -> dict:
    """The whole edition `game` is played with, as an edition file's JSON (docs/editions.md):
    a game record embeds it (atelier.records)."""
    return edition_document(game.edition)


def edition_document(ed: core.Edition) -> dict:
    """An edition file (docs/editions.md) holding everything the engine reads from `ed`, in card
    index order (so the card numbering is the same when it is read back)."""
    d = ed.to_dict()
    teams = [{"id": tid, "inventors": [
        {"id": iid, "name": name, **row}
        for iid, name, row in zip(d["inventor_ids"][t], d["inventor_names"][t], d["inventors"][t])]}
        for t, tid in enumerate(d["team_ids"])]
    inventions = [{"id": cid, "name": name, **row}
                  for cid, name, row in zip(d["card_ids"], d["card_names"], d["cards"])]
    tokens = [{"kind": k, "count": c, "front": FRONTS[k][0], **FRONTS[k][1]}
              for k, c in zip(TOKEN_KINDS, d["token_count"])]
    return {"game": "inventors", "teams": teams, "inventions": inventions, "tokens": tokens,
            "token_back": {"effect": "progress", "level": 1}}


def is_default(ed: core.Edition) -> bool:
    """True when `ed` holds exactly the bundled edition's engine data, ids and names."""
    return ed.to_dict() == _default().to_dict()


@functools.lru_cache(maxsize=None)
def _default() -> core.Edition:
    ref = resources.files("atelier") / "data" / "editions" / "inventors.json"
    return edition_from_data(edition_data(json.loads(ref.read_text(encoding="utf-8"))))


def load_edition(path=None) -> core.Edition:
    """The default edition, or the one in the JSON file at `path` (validated, spec 2.6).
    An Edition passes through unchanged."""
    if path is None:
        return _default()
    if isinstance(path, core.Edition):
        return path
    return edition_from_data(edition_data(read_json(path, "edition")))
