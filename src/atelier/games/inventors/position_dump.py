"""Position JSON, format 1 (docs/positions.md), writing: a core State as names and card ids, with
the data of every card and inventor it shows, and its whole edition when that is not the bundled
one (so the file stands on its own)."""
from __future__ import annotations

from ..._core import inventors as core
from .edition import TOKEN_KINDS, edition_document, is_default

FORMAT = 1
DISC = tuple(core.DISCIPLINES)  # "P", "C", "M", "Ma"


def _disc(vec) -> dict:
    return dict(zip(DISC, vec))


def _kinds(counts, keep_zero: bool = False) -> dict:
    return {k: c for k, c in zip(TOKEN_KINDS, counts) if c or keep_zero}


def position_dict(state) -> dict:
    """The format-1 position of a core State as a plain dict (see docs/positions.md)."""
    game, f = state.game, state.fields()
    ed = game.edition.to_dict()
    cid, tid = ed["card_ids"], ed["team_ids"]
    n = game.players
    seats, shown = [], set()
    for p in range(n):
        team = game.teams[p]
        invs = {
            ed["inventor_ids"][team][i]: {"levels": _disc(f["levels"][p][i]), "busy": f["busy"][p][i]}
            for i in range(4)
        }
        shown.update(f["won"][p])
        seats.append({"seat": p, "team": tid[team], "inventors": invs,
                      "hand": _kinds(f["hand"][p]), "won": [cid[c] for c in f["won"][p]]})
    display = []
    for d in f["display"]:
        shown.add(d["card"])
        display.append({"card": cid[d["card"]], "tokens": [TOKEN_KINDS[k] for k in d["tokens"]],
                        "filled": _disc(d["filled"]), "cubes": d["cubes"]})
    reward = None
    if f["reward"] is not None:
        r = f["reward"]
        shown.add(r["card"])
        left = (["card"] if r["left"]["card"] else []) + [TOKEN_KINDS[k] for k in r["left"]["tokens"]]
        reward = {"card": cid[r["card"]], "tokens": [TOKEN_KINDS[k] for k in r["tokens"]],
                  "left": left, "cubes": r["cubes"], "seats": r["seats"], "index": r["index"]}
    cards = {cid[c]: {"name": ed["card_names"][c], **ed["cards"][c]} for c in sorted(shown)}
    inventors = {}
    for team in game.teams:
        for i in range(4):
            inventors[ed["inventor_ids"][team][i]] = {"name": ed["inventor_names"][team][i],
                                                       **ed["inventors"][team][i]}
    doc = {
        "game": "inventors", "format": FORMAT, "players": n, "teams": [tid[t] for t in game.teams],
        "age": f["age"], "phase": f["phase"], "active": f["active"], "statuette": f["statuette"],
        "seats": seats, "display": display, "bag": _kinds(f["bag"], keep_zero=True), "reward": reward,
        "cards": cards, "inventors": inventors,
    }
    # A position analysed with other data than the bundled edition (--edition FILE, or card
    # data for cards it no longer shows) carries that whole edition, so reading it back gives
    # the same game (docs/positions.md).
    if not is_default(game.edition):
        doc["edition"] = edition_document(game.edition)
    return doc
