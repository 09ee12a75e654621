"""Leonardo da Vinci editions: the bundled file, or a user's own, checked by the core (§1.9).

An edition is kept as its plain JSON document (a dict): the core Game reads it once when a game
is configured, so there is no second Python copy of the card table to drift from the C++ one.
"""
from __future__ import annotations

import json
from importlib import resources

from ..._core import leonardo as core
from ...errors import InputError, warn_edition
from ...jsonfmt import check_plain, load_file, loads


class Edition(dict):
    """A checked edition document; `warnings` holds the §1.9 warnings (not errors), each
    `edition: ...`, also issued as atelier.EditionWarning when the edition is read."""

    warnings: list[str] = []


def edition_from_data(doc) -> Edition:
    """Check an edition document (every §1.9 check; InputError 'edition: ...'); its §1.9
    warnings are issued as EditionWarning."""
    if not isinstance(doc, dict):
        raise InputError("edition: expected a JSON object")
    # The JSON gate of every file (a dict from Python passes it here): a lone surrogate or a NaN
    # anywhere, display names included, would make a position over this edition unreadable.
    check_plain(doc, "edition")
    try:
        warnings = core.check_edition(doc)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    ed = Edition(doc)
    # The core writes "edition warning: X"; as a warning it is "edition: X" (the CLI prints
    # "warning: edition: X").
    ed.warnings = warn_edition(w.replace("edition warning: ", "edition: ", 1) for w in warnings)
    return ed


_DEFAULT: Edition | None = None


def default_edition() -> Edition:
    global _DEFAULT
    if _DEFAULT is None:
        text = (resources.files("atelier") / "data" / "editions" / "leonardo.json").read_bytes()
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


def is_default_json(text: str) -> bool:
    """Is a game's `edition_json` the bundled edition (a position then need not carry it)?"""
    global _DEFAULT_JSON
    if _DEFAULT_JSON is None:
        _DEFAULT_JSON = json.dumps(default_edition(), sort_keys=True)
    return text == _DEFAULT_JSON


def edition_document_of(game) -> dict:
    """The whole edition `game` is played with, as an edition file's JSON (docs/editions.md):
    a game record embeds it (atelier.records)."""
    return json.loads(game.edition_json)
