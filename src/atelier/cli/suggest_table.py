"""The table `atelier suggest` prints: the best N moves in full (they can be pasted into `apply`),
a mark on the moves the search cannot yet tell from the best, and "—" where there is no data."""
from __future__ import annotations

import math

from rich import box
from rich.console import Console

from ..console import make_console
from ..wording import count
from rich.measure import Measurement
from rich.table import Table

from .results import close_to_best

CLOSE = "≈"
NO_DATA = "—"
_PROOF = {1.0: "win", 0.5: "draw", 0.0: "loss"}   # MCTS-Solver: the mover's proven result


def _vec(xs, digits=1) -> str:
    return " ".join(f"{x:.{digits}f}" for x in xs)   # wraps between numbers, never inside one


def _ci(x, scale=1.0) -> str:
    return f"{scale * x:.1f}" if math.isfinite(x) else NO_DATA


def ranked(r) -> list[int]:
    """Move indices, best first: the best move, then by visits, then canonical order."""
    return sorted(range(len(r.moves)), key=lambda i: (i != r.best_index, -r.moves[i].visits, i))


def table(r, top: int) -> tuple[Table, int, bool]:
    """The table of the `top` best moves of SearchResult `r`, how many were left out, and
    whether any row is marked."""
    p = r.player
    n = len(r.moves[0].win)
    close = close_to_best(r)
    order = ranked(r)
    shown = order[:top]
    solver = getattr(r, "solver", False)
    algo = r.algorithm + (" + solver" if solver else "")
    if solver and r.proven is not None:
        algo += f" (proven {_PROOF[r.proven]})"
    t = Table(title=f"{algo}: seat {p} to move, {count(r.iterations, 'iteration')} in {r.seconds:.2f} s "
                    f"({r.iterations_per_s:,.0f}/s, {count(r.threads, 'thread')})",
              title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    rows = []
    for i in shown:
        m = r.moves[i]
        mark = CLOSE if close[i] else ""
        if m.proven is not None:   # exact: the interval says nothing more
            row = [m.text, mark, f"{m.visits:,}", f"{100 * m.proven:.1f}", "exact"]
            row += [_vec(m.score), _ci(m.score_ci)] if m.visits else [NO_DATA, NO_DATA]
        elif m.visits == 0:
            row = [m.text, mark, "0", NO_DATA, NO_DATA, NO_DATA, NO_DATA]
        else:
            row = [m.text, mark, f"{m.visits:,}", f"{100 * m.win[p]:.1f}", _ci(m.win_ci, 100),
                   _vec(m.score), _ci(m.score_ci)]
        if solver:
            row.append(_PROOF.get(m.proven, ""))
        rows.append(row)
    heads = ["move", "", "visits", f"win% s{p}", "±95%", "score " + " ".join(f"s{q}" for q in range(n)), "±95%"]
    if solver:
        heads.append("proven")
    for k, head in enumerate(heads):
        # No cell wraps or is cut to "…": a move must be pasteable as printed, and a table
        # wider than the terminal is printed whole (fitted_console) for the terminal to wrap.
        t.add_column(head, justify="left" if k < 2 else "right", no_wrap=True)
    for row in rows:
        t.add_row(*row)
    return t, len(order) - len(shown), any(close)


def fitted_console(renderable, file=None) -> Console:
    """A console at the terminal's width (80 columns when not a terminal), or as wide as
    `renderable` when it is wider: then the terminal wraps the lines, which loses nothing,
    where rich would cut the table's cells to "…"."""
    console = make_console(file=file)
    need = Measurement.get(console, console.options.update(width=10_000), renderable).maximum
    if need > console.width:
        console.width = need   # (the setter: a width= argument would lose to $COLUMNS)
    return console


def print_table(r, top: int, file=None) -> None:
    """Print the table to stdout, the move texts in full, at the terminal's width if it fits."""
    t, left, marked = table(r, top)
    console = fitted_console(t, file)
    console.print(t)
    if left:
        console.print(f"and {left} more (--top {top + left} shows all)")
    if marked:
        console.print(f"{CLOSE}: its 95% win interval overlaps the best move's: not clearly worse yet "
                      f"(more iterations tell them apart)")
    if getattr(r, "calibrated", False):
        console.print("win %: calibrated with the model's map of what such claims went on to win "
                      "(docs/models.md, \"Calibration\")")
    if any(m.score_raw is not None for m in r.moves):
        console.print("score: the expected gain from here scaled by the model's map of what such "
                      "searches went on to score")
