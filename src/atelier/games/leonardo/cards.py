"""An invention card as the boards show it (the text board and the picture alike): its name,
tier, type, materials, weeks and rewards, from the game's edition."""
from __future__ import annotations

import json
from functools import lru_cache


@lru_cache(maxsize=8)
def edition_names(edition_json: str):
    """Card number -> name, type id -> type name, from the game's edition document."""
    ed = json.loads(edition_json)
    names = {c["number"]: c.get("name_en") or c.get("name") or f"card {c['number']}"
             for c in ed.get("inventions", [])}
    types = {t["id"]: t.get("name", t["id"]) for t in ed.get("types", [])}
    return names, types


def card_info(game, number: int) -> dict:
    """The core's card (tier, type, materials, weeks, reward_first, reward_later) with `mats`
    (material -> count, the nonzero ones), `name` and `type_name`."""
    names, types = edition_names(game.edition_json)
    c = dict(game.card(number))
    c["mats"] = {k: n for k, n in zip(game.kinds, c["materials"]) if n}
    c["name"] = names.get(number, f"card {number}")
    c["type_name"] = types.get(c["type"], c["type"])
    return c
