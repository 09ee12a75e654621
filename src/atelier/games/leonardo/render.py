"""A readable Leonardo board for a terminal (`atelier show`): the turn and who decides, the city
areas with their lines and the price marker, the Council pot and claims, the row (each invention
named with its materials, weeks and rewards, as the picture does) and the deck, then one panel
per seat (money, materials, labs with their workers, mechanical men and counters). A
viewpoint's opponents show what that seat sees: material totals and hidden labs as hidden."""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...textboard import to_text
from ...wording import count
from .cards import card_info
from .position_dump import AREAS, BASIC_NOTE, COLOURS, LABS, position_dict

AREA_NAMES = ("Council", "Workshop", "Academy", "Blacksmith", "Glass maker", "Joiner", "Kiln", "Rope maker")
PRICES = (0, 2, 3, 4)   # §1.7 price track (the edition's area_prices)


def _seat(p: int) -> str:
    return f"{p} ({COLOURS[p]})"


def _mats(d: dict) -> str:
    return ", ".join(f"{k} {c}" for k, c in d.items() if c) or "—"


def _who(state, doc) -> str:
    if state.is_terminal():
        return "game over"
    if state.is_chance():
        return "chance: refill draw"
    return f"seat {_seat(state.current_player)} to decide"


def _header(state, doc) -> list:
    turn = "favour picks" if doc["turn"] == 0 else f"turn {doc['turn']} of 9"
    t = Text(f"Leonardo da Vinci · {doc['players']} players · {doc['setup']} setup"
             f"{' · Codex' if doc['codex'] else ''} · {turn} · {doc['phase']} · {_who(state, doc)}",
             style="bold")
    lines = [t]
    if "viewpoint" in doc:
        lines.append(Text(f"viewpoint of seat {_seat(doc['viewpoint'])}: opponents' hands and hidden "
                          f"labs, other seats' looks and sealed bids are not shown", style="italic"))
    if doc["setup"] == "basic":
        lines.append(Text("note: " + BASIC_NOTE, style="dim"))
    pr = doc["progress"]
    claims = ", ".join(f"{a}: seat {s}" for a, s in pr["claimed"].items() if s is not None) or "none"
    deck = doc["deck"]
    size = len(deck) if isinstance(deck, list) else deck["cards"]
    lines.append(Text(f"Leonardo: seat {_seat(doc['leonardo'])} · Council pot {count(doc['pot'], 'Florin')} · "
                      f"Council claims: {claims} · shops: {_mats(doc['shops']) if any(doc['shops'].values()) else 'empty'}"
                      f" · mechanical men in supply {doc['mechanical_men_supply']}"))
    row = " ".join(str(c) for c in doc["row"]) or "—"
    top = ""
    if isinstance(deck, dict) and "top" in deck:
        top = f" (looking at the top: {' '.join(map(str, deck['top']))})"
    elif isinstance(deck, list) and deck:
        top = f" (top first: {' '.join(map(str, deck))})"
    lines.append(Text(f"row: {row} · deck: {count(size, 'card')}{top} · box: "
                      f"{' '.join(map(str, doc['box'])) or '—'}"))
    if doc["row"]:
        lines.append(_row_table(state, doc["row"]))
    if pr["pending"]:
        pend = "; ".join(f"card {e['card']} completed by seats {', '.join(map(str, e['seats']))}" for e in pr["pending"])
        bids = ", ".join(f"seat {q}: {b}" for q, b in pr["bids"].items())
        lines.append(Text(f"research awards: {pend}" + (f" · sealed bids in: {bids}" if bids else "")))
    return lines


def card_line(state, number: int) -> str:
    """An invention as the board names it: name, tier and type, materials, weeks, rewards
    (first / later completer)."""
    c = card_info(state.game, number)
    mats = ", ".join(f"{k} {n}" for k, n in c["mats"].items()) or "no materials"
    return (f"{c['name']} · {c['tier']}, type {c['type']} {c['type_name']} · {mats} · "
            f"{count(c['weeks'], 'week')} · reward {c['reward_first']} / {c['reward_later']} Florins")


def _row_table(state, row) -> Table:
    """The inventions in the row, named, as the picture shows them (a grid: the text wraps
    under itself, at words, at any width)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, justify="right")
    grid.add_column()
    for number in row:
        grid.add_row(f"  {number}", card_line(state, number))
    return grid


def _city(doc) -> Table:
    pr = doc["progress"]
    t = Table()
    t.add_column("area")
    t.add_column("line", overflow="fold")
    for a, letter in enumerate(AREAS):
        groups = doc["city"][letter]
        cells = [f"seat {g['seat']}: {g['apprentices']}{' + master' if g['master'] else ''}" for g in groups]
        label = f"{letter} {AREA_NAMES[a]}"
        if doc["phase"] == "AREA" and pr["area"] == letter:
            label += f" ◀ price {PRICES[pr['price']]}"
        t.add_row(label, " · ".join(cells) or "—")
    return t


def _named(state, number) -> str:
    return f"{number} {card_info(state.game, number)['name']}"


def _lab_text(state, lab) -> str:
    if lab is None:
        return "—"
    workers = [count(lab['apprentices'], 'apprentice')] if lab["apprentices"] else []
    if lab["master"]:
        workers.append("master")
    if lab["mechanical_men"]:
        workers.append(count(lab['mechanical_men'], 'mechanical man'))
    text = f"side {lab['side']}; " + (", ".join(workers) or "no workers")
    if lab["card"] is None:
        return text + "; idle"
    if lab["card"] == "hidden":
        what = f"hidden card (one of {' '.join(map(str, lab['cand']))})"
    else:
        what = f"card {_named(state, lab['card'])} ({_mats(lab['materials'])})"
        if not lab["revealed"]:
            what += f", hidden from the others (cand {' '.join(map(str, lab['cand']))})"
        elif lab["continuing"]:
            what += ", continuing"
    return f"{text}; {what}; week {lab['counter']} (started turn {lab['start_turn']})"


def _seats(state, doc) -> list:
    """One block per seat (a wide table of seven columns would break its words at any width):
    the seat line with money and score, then its materials, workers, labs and cards."""
    scores = state.scores()
    out = [Text("Seats", style="italic")]
    for p, s in enumerate(doc["seats"]):
        marks = []
        if not state.is_terminal() and not state.is_chance() and state.current_player == p:
            marks.append("to decide")
        if doc["leonardo"] == p:
            marks.append("Leonardo")
        if s["passed"]:
            marks.append("passed")
        head = f"{_seat(p)}" + (f" · {', '.join(marks)}" if marks else "")
        out.append(Text(f"{head} — {count(s['money'], 'Florin')}, score {scores[p]}", style="bold"))
        mats = f"hand {_mats(s['hand'])}" if "hand" in s else f"in total (hand and labs) {_mats(s['materials'])}"
        rows = [("materials", mats),
                ("workers", f"{s['apprentices_free']}/{count(s['apprentices'], 'apprentice')} free"
                            f"{', master free' if s['master_free'] else ''}"),
                ("small lab", _lab_text(state, s["labs"]["small"])),
                ("large lab", _lab_text(state, s["labs"]["large"])),
                ("cards", f"owned {', '.join(_named(state, c) for c in s['owned']) or '—'}; completed "
                          f"{', '.join(_named(state, c) for c in s['completed']) or '—'}")]
        grid = Table.grid(padding=(0, 1))   # label, then text wrapped under itself
        grid.add_column(no_wrap=True)
        grid.add_column()
        for label, text in rows:
            grid.add_row(f"  {label}:", text)
        out.append(grid)
    return out


def render(state, width: int = 110) -> Group:
    doc = position_dict(state)
    parts = (_header(state, doc) + [Text("City: each area's line, first group next to the arrow", style="italic"),
                                    _city(doc)] + _seats(state, doc))
    if state.is_terminal():
        parts.append(Text("winners: " + ", ".join(f"seat {_seat(s)}" for s in state.winners()), style="bold"))
    return Group(*parts)


def show(state, width: int = 110, color: bool = False) -> str:
    """The board as text (what `viewpoint` knows, for a viewpoint state)."""
    return to_text(render(state, width), width, color)


def chance_text(before, after) -> str:
    """The draw that took `before` (a refill chance node) to `after`, in notation (`draw:X`)."""
    drawn = [e for e in after.fields()["history"] if not isinstance(e, tuple)]
    return f"draw:{drawn[-1]}"


def stage(state) -> str:
    """The part of the game a person is told has begun (`play --human`): the turn."""
    turn = state.fields()["turn"]
    return "the favour picks" if turn == 0 else f"turn {turn} of 9"
