"""Craftsmen editions: the bundled file, or a user's own, checked by the core (rules §3).

An edition is kept as its plain JSON document (a dict), as for Leonardo: the core Game reads it
when a game is configured and its constructor checks every field (one line naming it), so there
is no second Python copy of the card table, and no second set of checks, to drift from the C++.
"""
from __future__ import annotations

import json
from importlib import resources

from ..._core import craftsmen as core
from ...errors import InputError, warn_edition
from ...jsonfmt import check_plain, load_file, loads


class Edition(dict):
    """A checked edition document; `warnings` holds the Craftsmen §3 warnings (not errors),
    each `edition: ...`, also issued as atelier.EditionWarning when the edition is read."""

    warnings: list[str] = []


TIERS = ("lumber_mills", "basic_buildings", "extended_buildings", "advanced_buildings")


def edition_warnings(doc) -> list[str]:
    """Craftsmen §3: a one-coloured card (top = bottom) is accepted with a warning."""
    return [f"edition: {tier}[{c['id']}]: one-coloured card (top = bottom = {c['top']}): it is paid "
            "in its one colour (9.4) and counts two halves of it in town growth (§13)"
            for tier in TIERS for c in doc[tier] if c["top"] == c["bottom"]]


def edition_from_data(doc) -> Edition:
    """Check an edition document (InputError 'edition: field: reason'); its warnings are
    issued as EditionWarning."""
    if not isinstance(doc, dict):
        raise InputError("edition: expected a JSON object")
    # The JSON gate of every file (a dict from Python passes it here): a lone surrogate or a NaN
    # anywhere, display names included, would make a position over this edition unreadable.
    check_plain(doc, "edition")
    try:
        core.Game(2, doc)   # the constructor reads and checks the whole edition (rules §3)
    except ValueError as exc:
        raise InputError(f"edition: {exc}") from None
    ed = Edition(doc)
    ed.warnings = warn_edition(edition_warnings(doc))
    return ed


_DEFAULT: Edition | None = None


def default_edition() -> Edition:
    global _DEFAULT
    if _DEFAULT is None:
        text = (resources.files("atelier") / "data" / "editions" / "craftsmen.json").read_bytes()
        _DEFAULT = edition_from_data(loads(text, "edition"))
    return _DEFAULT


def load_edition(path=None) -> Edition:
    """The bundled edition (path None), an already checked Edition, or a JSON file's."""
    if path is None:
        return default_edition()
    if isinstance(path, Edition):
        return path
    return edition_from_data(load_file(path))


_DEFAULT_JSON: str | None = None
_OF_GAME: dict = {}   # edition_json -> Edition: the bundled one and few others


def is_default_json(text: str) -> bool:
    """Is a game's `edition_json` the bundled edition (a position then need not carry it)?"""
    global _DEFAULT_JSON
    if _DEFAULT_JSON is None:
        _DEFAULT_JSON = json.dumps(default_edition(), sort_keys=True)
    return text == _DEFAULT_JSON


def edition_of(game) -> Edition:
    """The edition document a core Game was configured with (its names for the board)."""
    text = game.edition_json
    if text not in _OF_GAME:
        _OF_GAME[text] = default_edition() if is_default_json(text) else Edition(json.loads(text))
    return _OF_GAME[text]


def money_counts(ed) -> dict:
    """Cards of each money type ("R2" -> 4) in the edition's money deck."""
    letters = {"purple": "P", "green": "G", "blue": "B", "red": "R"}
    counts: dict = {}
    for card in ed["money_cards"]:
        key = f"{letters.get(card.get('colour'), '?')}{card.get('value')}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def card_names(ed) -> dict:
    """Building id -> its name ("E11" -> "Weaving workshop")."""
    return {c["id"]: c.get("name", c["id"]) for tier in TIERS for c in ed[tier]}


def hand_limit(ed) -> int:
    return ed["constants"]["hand_limit"]["value"] if "hand_limit" in ed["constants"] else 10


def edition_document_of(game) -> dict:
    """The whole edition `game` is played with, as an edition file's JSON (docs/editions.md):
    a game record embeds it (atelier.records)."""
    return json.loads(game.edition_json)
