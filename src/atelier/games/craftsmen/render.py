"""A readable Craftsmen board for a terminal (`atelier show`): the year, season and who decides;
the six guild tracks with their helpers; the money display and decks; the building decks; the
warehouse and the ships; then one panel per seat (AP, helpers, tokens, money, hand, and the row
left to right with each card's input icons, filled ● or empty ○)."""
from __future__ import annotations

from rich.console import Group
from rich.text import Text

from ...textboard import to_text
from ...wording import count
from .edition import card_names, edition_of
from .position_dump import GUILDS, SEASONS, TIERS, position_dict

GUILD_NAMES = ("Bankers", "Architects", "Notary", "Craftsmen", "Merchants", "Town Hall")


def _money(d: dict) -> str:
    cards = [t for t, c in d.items() for _ in range(c)]
    return " ".join(cards) or "none"


def _count(d: dict) -> int:
    return sum(d.values())


def _cards(ids, names) -> str:
    return ", ".join(f"{c} {names.get(c, '')}".strip() for c in ids) or "none"


def _who(state, doc) -> str:
    if state.is_terminal():
        return "game over"
    if state.is_chance():
        ctx = doc["context"]
        return f"chance: draw from the {ctx['chance_source']} deck ({ctx['chance_left']} to draw)"
    return f"seat {state.current_player} to decide"


def _header(state, doc) -> list:
    lines = [Text(f"Craftsmen · {doc['players']} players · year {doc['year']} of 3 · "
                  f"{SEASONS[doc['season']]} · {doc['phase']} · {_who(state, doc)}", style="bold")]
    order = " ".join(map(str, doc["turn_order"]))
    change = " ".join(map(str, doc["order_track"])) or "empty"
    bonus = ", ".join(doc["bonus_unclaimed"]) or "none"
    lines.append(Text(f"turn order: {order} · order change track: {change} · bank: "
                      f"{doc['bank_priv']} privilege, {count(doc['bank_work'], 'work token')} · "
                      f"unclaimed bonus tokens: {bonus}"))
    mayor = f" · mayor: {_money(doc['mayor'])}" if _count(doc["mayor"]) else ""
    lines.append(Text(f"money display: {_money(doc['display'])} · money deck {count(_count(doc['money_deck']), 'card')}"
                      f" · discard {count(_count(doc['discard']), 'card')}{mayor}"))
    return lines


def _guilds(doc, players: int) -> list:
    spaces = 2 if players == 2 else 3
    lines = [Text("guilds (space: bottom disc / top disc; * privileged)", style="underline")]
    for g, (numeral, name) in enumerate(zip(GUILDS, GUILD_NAMES)):
        cells = []
        for sp in range(spaces):
            discs = [("—" if d is None else f"seat {d['seat']}{'*' if d['privileged'] else ''}")
                     for d in doc["guilds"][g][sp]]
            cells.append(f"{sp + 1}: {discs[0]}" + (f" / {discs[1]}" if doc["guilds"][g][sp][1] else ""))
        lines.append(Text(f"{numeral} {name}: " + " · ".join(cells)))
    return lines


def _decks(doc, names) -> list:
    lines = [Text("building decks", style="underline")]
    for t in TIERS:
        d = doc["decks"][t]
        unseen = " + ".join(str(len(s)) for s in d["segments"])
        total = sum(len(s) for s in d["segments"])   # "0 + 1 card": the noun agrees with the sum
        parts = [f"face up: {_cards(d['faceup'], names)}", f"shuffled {unseen} {'card' if total == 1 else 'cards'}"]
        if d["top"]:
            parts.insert(1, f"known top: {' '.join(d['top'])}")
        if d["bottom"]:
            parts.append(f"known bottom: {' '.join(d['bottom'])}")
        if d["pool"]:
            parts.append(f"Notary look: {' '.join(d['pool'])}")
        lines.append(Text(f"{t}: " + " · ".join(parts)))
    lines.append(Text(f"lumber mills in the box: {' '.join(doc['box']) or 'none'}"))
    return lines


def _slot(v) -> str:
    return "—" if v is None else v if v == "neutral" else f"seat {v}"


def _goods(doc) -> list:
    lines = [Text("warehouse: " + " · ".join(f"{good} {_slot(s[0])} / {_slot(s[1])}"
                                              for good, s in doc["warehouse"].items()))]
    for k, ship in enumerate(doc["ships"]):
        rows = " · ".join(f"{good} {_slot(s[0])} / {_slot(s[1])}" for good, s in ship.items())
        lines.append(Text(f"ship {k + 1}: {rows}"))
    return lines


def _row(seat, ed_cards, names) -> str:
    out = []
    for c in seat["row"]:
        inputs = ed_cards[c].get("inputs", [])
        filled = list(seat["filled"].get(c, []))
        icons = []
        for prod in inputs:
            if prod in filled:
                filled.remove(prod)
                icons.append(f"●{prod}")
            else:
                icons.append(f"○{prod}")
        out.append(f"{c} {names[c]} → {ed_cards[c]['output']}" + (f" [{' '.join(icons)}]" if icons else ""))
    return ", ".join(out)


def _seat(state, p, seat, ed_cards, names) -> list:
    tokens = f"{seat['priv_tokens']} privilege, {count(seat['work_tokens'], 'work token')}"
    flags = (" · passed" if seat["passed"] else "") + (" · contributed" if seat["contributed"] else "")
    bonus = f" · bonus: {', '.join(seat['bonus'])}" if seat["bonus"] else ""
    style = "bold" if not state.is_chance() and not state.is_terminal() and state.current_player == p else ""
    return [
        Text(f"seat {p} · {seat['ap']} AP · helpers at home {seat['home']} · {tokens} · market "
             f"{count(seat['market'], 'cube')} · supply {count(seat['supply'], 'cube')}{flags}{bonus}", style=style or "underline"),
        _money_line(state, p, seat),
        Text(f"  hand: {_cards(seat['hand'], names)}"),
        Text(f"  row: {_row(seat, ed_cards, names)}"),
    ]


def _money_line(state, p, seat) -> Text:
    if "money_unseen" in seat:   # a viewpoint: the cards the seat knows of, and how many it does not
        unseen = seat["money_unseen"]
        known = _money(seat["money"]) if seat["money"] else "none known"
        return Text(f"  money ({count(sum(seat['money'].values()) + unseen, 'card')}, {unseen} unseen): {known}")
    return Text(f"  money ({count(sum(seat['money'].values()), 'card')}, value {state.hand_value(p)}): {_money(seat['money'])}")


def show(state, width: int = 110, color: bool = False) -> str:
    doc = position_dict(state)
    ed = edition_of(state.game)
    names = card_names(ed)
    ed_cards = {c["id"]: c for tier in ("lumber_mills", "basic_buildings", "extended_buildings",
                                        "advanced_buildings") for c in ed[tier]}
    parts = _header(state, doc) + _guilds(doc, doc["players"]) + _decks(doc, names) + _goods(doc)
    for p, seat in enumerate(doc["seats"]):
        parts += _seat(state, p, seat, ed_cards, names)
    if state.is_terminal():
        parts.append(Text("scores: " + ", ".join(f"seat {p} {s}" for p, s in enumerate(state.scores()))
                          + " · ranking: " + " ".join(map(str, state.ranking())), style="bold"))
    return to_text(Group(*parts), width=width, color=color)


def stage(state) -> str:
    """The part of the game a person is told has begun (`play --human`): the year and season."""
    f = state.fields()
    return f"year {f['year']} of 3, {SEASONS[f['season']]}"
