"""A readable board for a terminal (`atelier show`): the display, then one panel per seat."""
from __future__ import annotations

from rich.console import Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ...console import make_console
from ...textboard import to_text
from .edition import TOKEN_KINDS, TYPE_NAMES

DISC = ("P", "C", "M", "Ma")
AGES = {1: "I", 2: "II", 3: "III"}


def _tokens(counts) -> str:
    return ", ".join(f"{k}×{c}" if c > 1 else k for k, c in zip(TOKEN_KINDS, counts) if c) or "—"


def _header(state, f) -> Text:
    g = state.game
    who = {-1: "chance: reveal pending", -2: "game over"}.get(state.current_player,
                                                              f"seat {state.current_player} to move")
    t = Text(f"Legendary Inventors · {g.players} players · Age {AGES[f['age']]} · {f['phase']} · {who}"
             f" · statuette: seat {f['statuette']}", style="bold")
    t.append(f"\nbag: {_tokens(f['bag'])}", style="dim")
    return t


def _display_rows(f, ed) -> list[dict]:
    """One dict of cell texts per card on display (and the completed card, if any)."""
    cards = list(f["display"])
    if f["reward"] is not None:
        # The completed card: show only what is still on offer, and who chooses in which order.
        r = f["reward"]
        cards.append({**r, "filled": ed["cards"][r["card"]]["cost"], "tokens": r["left"]["tokens"],
                      "reward": f"completed, card {'on offer' if r['left']['card'] else 'taken'};"
                                f" to choose: seat {', '.join(map(str, r['seats'][r['index']:]))}"})
    rows = []
    for d in cards:
        c = ed["cards"][d["card"]]
        row = {"card": ed["card_ids"][d["card"]],
               "name": ed["card_names"][d["card"]] + (f" ({d['reward']})" if d.get("reward") else ""),
               "type": TYPE_NAMES[c["type"]],
               "tokens": " ".join(TOKEN_KINDS[k] for k in d["tokens"]) or "—"}
        row.update({k: f"{x}/{y}" if y else "·" for k, x, y in zip(DISC, d["filled"], c["cost"])})
        row.update({f"s{p}": str(x) for p, x in enumerate(d["cubes"])})
        rows.append(row)
    return rows


def _table(title: str, columns, rows) -> Table:
    t = Table(title=title, title_justify="left")
    for col in columns:
        # Words wrap, nothing is cut: a narrow terminal gets more lines, never less data.
        t.add_column(col, justify="left" if col in ("card", "name", "type", "tokens") else "right",
                     overflow="fold")
    for row in rows:
        t.add_row(*(row[c] for c in columns))
    return t


def _display(state, f, ed, width: int) -> list[Table]:
    """The display as one table, or as two (the cards; their progress and cubes) when one
    table would not fit in `width` columns."""
    seats = [f"s{p}" for p in range(state.game.players)]
    rows = _display_rows(f, ed)
    whole = _table("Display (filled/cost per discipline, cubes per seat)",
                   ("card", "name", "type", *DISC, "tokens", *seats), rows)
    if _natural_width(whole) <= width:
        return [whole]
    return [_table("Display: cards", ("card", "name", "type", "tokens"), rows),
            _table("Display: filled/cost per discipline, cubes per seat", ("card", *DISC, *seats), rows)]


def _natural_width(renderable) -> int:
    console = make_console(width=10_000)
    return Measurement.get(console, console.options, renderable).maximum


def _seat(state, f, ed, p) -> Group:
    g = state.game
    team = g.teams[p]
    marks = []
    if state.current_player == p:
        marks.append("to move")
    if f["statuette"] == p:
        marks.append("statuette")
    sd = state.score_detail(p)
    title = (f"Seat {p} · {ed['team_ids'][team]}{' · ' + ', '.join(marks) if marks else ''}"
             f" · score {sd['total']} (cards {sd['cards']}, tokens {sd['vp_tokens']},"
             f" goals {sd['goals']}, suites {sd['suites']})")
    t = Table()
    t.add_column("inventor", overflow="fold")
    for d in DISC:
        t.add_column(d, justify="right")
    t.add_column("goal (vp)", overflow="fold")
    t.add_column("state", overflow="fold")
    for i in range(4):
        inv = ed["inventors"][team][i]
        lv = f["levels"][p][i]
        met = all(a >= b for a, b in zip(lv, inv["goal"]))
        goal = "[" + ",".join(map(str, inv["goal"])) + f"] ({inv['goal_vp']}){' ✓' if met else ''}"
        # The id is what the move notation uses (work:ID:CARD).
        label = f"{ed['inventor_names'][team][i]} ({ed['inventor_ids'][team][i]})"
        t.add_row(label, *map(str, lv), goal,
                  "busy" if f["busy"][p][i] else "available")
    won = ", ".join(f"{ed['card_ids'][c]} {ed['card_names'][c]} ({TYPE_NAMES[ed['cards'][c]['type']]})"
                    for c in f["won"][p]) or "—"
    return Group(Text(title, style="bold"), t, Text(f"hand: {_tokens(f['hand'][p])}   won: {won}"))


def render(state, width: int = 110) -> Group:
    """The board as a rich renderable for `width` columns."""
    f = state.fields()
    ed = state.game.edition.to_dict()
    parts = [_header(state, f)]
    if f["display"] or f["reward"] is not None:
        parts += _display(state, f, ed, width)
    parts += [_seat(state, f, ed, p) for p in range(state.game.players)]
    if state.is_terminal():
        parts.append(Text("winners: " + ", ".join(f"seat {s}" for s in state.winners()), style="bold"))
    return Group(*parts)


def show(state, width: int = 110, color: bool = False) -> str:
    """The board as text."""
    return to_text(render(state, width), width, color)


def chance_text(before, after) -> str:
    """The reveal that took `before` (a chance node) to `after`, in notation
    (`reveal:I01=P2+AV,...`, docs/notation.md): the cards new on display, ascending, with
    their tokens sorted by kind."""
    ed = after.game.edition
    shown = {d["card"] for d in before.fields()["display"]}
    new = sorted((d for d in after.fields()["display"] if d["card"] not in shown), key=lambda d: d["card"])
    return "reveal:" + ",".join(
        ed.card_ids[d["card"]] + "=" + "+".join(TOKEN_KINDS[k] for k in sorted(d["tokens"])) for d in new)


def stage(state) -> str:
    """The part of the game a person is told has begun (`play --human`): the Age."""
    return f"Age {AGES[state.fields()['age']]}"
