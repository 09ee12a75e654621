"""Position JSON, format 1 (docs/positions-craftsmen.md), writing: a core State as the edition's
card ids, money types ("R2"), product names and seat numbers — the full position of rules §6.1
with the decision context of §6.3. The keys are those of State.fields(), so an error the core
reports while loading names the same path as the file."""
from __future__ import annotations

import json

from ...errors import InputError
from .edition import is_default_json

FORMAT = 1
SEASONS = ("spring", "summer", "autumn", "winter")
GUILDS = ("I", "II", "III", "IV", "V", "VI")
TIERS = ("basic", "extended", "advanced")


def _packed(deck: dict) -> bool:
    """Do the known sequences sit where a loader puts them by default (a run next to the
    segments)? Then the file need not carry their slots."""
    k, j = len(deck["top"]), len(deck["bottom"])
    return (deck["top_slots"] == list(range(128 - k, 128)) and deck["next_top"] == 127 - k
            and deck["bottom_slots"] == list(range(128, 128 + j)) and deck["next_bottom"] == 128 + j)


def _deck(deck: dict) -> dict:
    out = {k: deck[k] for k in ("faceup", "top", "segments", "bottom", "pool")}
    if not _packed(deck):
        out.update({k: deck[k] for k in ("top_slots", "next_top", "bottom_slots", "next_bottom")})
    return out


def position_dict(state, viewpoint=None) -> dict:
    """The format-1 position of a core State as a plain dict; with `viewpoint` a seat, only what
    that seat knows (rules §6.2, view.py). A state loaded from a viewpoint is always written as
    that viewpoint: its hidden parts are a placeholder deal, not knowledge."""
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
    doc = _full(game, f)
    if viewpoint is not None:
        from .view import view_dict

        doc = view_dict(doc, f, viewpoint, dict(zip(game.building_ids, game.building_pools)))
    return doc


def _full(game, f: dict) -> dict:
    n = game.players
    doc = {"game": "craftsmen", "format": FORMAT, "players": n, "age_rank": list(game.age_rank)}
    doc.update({k: f[k] for k in ("year", "season", "phase", "flow", "actor", "turn_order", "order_track")})
    seats = []
    for p, s in enumerate(f["seats"]):
        seat = {"seat": p}
        seat.update(s)
        seats.append(seat)
    doc["seats"] = seats
    doc.update({k: f[k] for k in ("display", "money_deck", "discard", "mayor")})
    doc["decks"] = {t: _deck(f["decks"][t]) for t in TIERS}
    doc["box"] = f["box"]
    doc["guilds"] = f["guilds"]
    doc.update({k: f[k] for k in ("warehouse", "ships", "neutral_supply", "bank_priv", "bank_work",
                                  "bonus_unclaimed", "context")})
    know = f["knowledge"]
    if know["money"] or know["buildings"]:   # beyond what the places say (docs/positions-craftsmen.md)
        doc["knowledge"] = know
    if not is_default_json(game.edition_json):
        doc["edition"] = json.loads(game.edition_json)
    return doc
