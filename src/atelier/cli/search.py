"""Commands that search: suggest (MCTS), endgame (exact expectimax), play (bot matches)."""
from __future__ import annotations

import json
import math
import sys

import click

from ..errors import InputError
from . import main
from .errors import run_guarded
from .game import EDITION

TOO_LARGE_EXIT = 3   # endgame: no exact answer within the node budget (not an input error)


def _read(pos):
    from .game import read_position  # the position reader shared by every command

    return read_position(pos)


def _console():
    from rich.console import Console

    return Console(stderr=True)


def _progress_bar(label: str, show: bool):
    """A rich progress bar on stderr (or a no-op), used as `with bar as update: update(f)`."""
    import contextlib

    if not show:
        return contextlib.nullcontext(lambda *_: None)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    @contextlib.contextmanager
    def ctx():
        with Progress(TextColumn(label), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                      TimeElapsedColumn(), console=_console(), transient=True) as prog:
            task = prog.add_task(label, total=1000)
            yield lambda f: prog.update(task, completed=int(1000 * min(max(f, 0.0), 1.0)))

    return ctx()


def _num(text, what, kind):
    if text is None:
        return None
    try:
        v = kind(text)
    except ValueError:
        raise InputError(f"{what}: expected a {'whole ' if kind is int else ''}number, got {text!r}") from None
    return v


def _fmt_vec(xs, digits=1):
    return " / ".join(f"{x:.{digits}f}" for x in xs)


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--iterations", "-i", metavar="N", default=None, help="Iterations in total (default 10,000 when no --time).")
@click.option("--time", "-t", "seconds", metavar="S", default=None, help="Seconds to think.")
@click.option("--threads", metavar="T", default="1", show_default=True, help="Independent trees (root parallelism).")
@click.option("--seed", metavar="S", default="0", show_default=True)
@click.option("--reward", type=click.Choice(["win", "margin"]), default="win", show_default=True,
              help="What MCTS maximises: win share (ties split) or score margin.")
@click.option("--memory", "memory_mb", metavar="MB", default="512", show_default=True, help="Node arena budget.")
@click.option("--algorithm", type=click.Choice(["auto", "mcts", "ismcts"]), default="auto", show_default=True,
              help="auto: ISMCTS when the seat to move cannot see everything, else MCTS.")
@click.option("--ismcts", is_flag=True, help="Same as --algorithm ismcts.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@run_guarded
def suggest(pos, iterations, seconds, threads, seed, reward, memory_mb, algorithm, ismcts, as_json):
    """Rank the moves in POS by MCTS: visits, win %, expected scores, 95% intervals.

    The last line is the best move alone, for scripts."""
    from .. import solvers

    iterations = _num(iterations, "iterations", int)
    seconds = _num(seconds, "time", float)
    threads = _num(threads, "threads", int)
    seed = _num(seed, "seed", int)
    memory_mb = _num(memory_mb, "memory", float)
    state = _read(pos)
    if ismcts:
        algorithm = "ismcts"
    if algorithm == "auto":
        # A hidden-information position is searched from what the mover knows: MCTS on the
        # full state would use cards the mover cannot see.
        algorithm = "ismcts" if solvers.engine.hidden_information(state) else "mcts"
    search = solvers.ismcts if algorithm == "ismcts" else solvers.mcts
    show = not as_json and sys.stderr.isatty()
    with _progress_bar("thinking", show) as update:
        r = search(state, iterations=iterations, time=seconds, threads=threads, seed=seed,
                   reward=reward, memory_mb=memory_mb, progress=update)
    if as_json:
        click.echo(json.dumps(r.to_dict()))
        return
    from rich.console import Console
    from rich.table import Table

    p = r.player
    n = len(r.moves[0].win)
    t = Table(title=f"{r.algorithm}: seat {p} to move, {r.iterations:,} iterations in {r.seconds:.2f} s "
                    f"({r.iterations_per_s:,.0f}/s, {r.threads} thread{'s' * (r.threads > 1)})",
              title_justify="left")
    t.add_column("move")
    t.add_column("visits", justify="right")
    t.add_column(f"win % (seat {p})", justify="right")
    t.add_column("± 95%", justify="right")
    t.add_column("expected score " + " / ".join(f"s{q}" for q in range(n)), justify="right")
    t.add_column("± 95%", justify="right")
    for m in sorted(r.moves, key=lambda m: (-m.visits, m.move)):
        ci = "-" if math.isinf(m.win_ci) else f"{100 * m.win_ci:.1f}"
        sci = "-" if math.isinf(m.score_ci) else f"{m.score_ci:.1f}"
        t.add_row(m.text, f"{m.visits:,}", f"{100 * m.win[p]:.1f}", ci, _fmt_vec(m.score), sci)
    Console(width=max(100, 40 + 8 * n)).print(t)
    if r.memory_full:
        click.echo(f"note: the node arena ({memory_mb} MB) filled up; the search stopped early", err=True)
    click.echo(r.best_text)


class _EndgameProgress:
    """endgame's progress on stderr: nothing during the first second, then one live line with
    the nodes searched and the time, gone when the search ends. Fed by expectimax's
    progress(nodes, seconds) callback, so it costs nothing in the search's own loop."""

    AFTER = 1.0   # seconds before anything is shown

    def __init__(self, console):
        self.console = console
        self.live = None

    def __call__(self, nodes: int, seconds: float):
        if seconds < self.AFTER:
            return
        from rich.live import Live
        from rich.text import Text

        line = Text(f"solving: {nodes:,} nodes searched, {seconds:.1f} s")
        if self.live is None:
            self.live = Live(line, console=self.console, transient=True, refresh_per_second=4)
            self.live.start()
        else:
            self.live.update(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.live is not None:
            self.live.stop()
            self.live = None


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--max-nodes", metavar="N", default=str(10_000_000), show_default=True,
              help="Node budget; beyond it the answer is 'too large'.")
@click.option("--objective", type=click.Choice(["win", "margin"]), default="win", show_default=True,
              help="What each seat maximises: win share or score margin.")
@click.option("--paranoid", is_flag=True, help="Every other seat minimises the mover's value.")
@click.option("--determinizations", metavar="K", default="0", show_default=True,
              help="Hidden information: average K exact solves of determinizations of what the mover cannot see.")
@click.option("--seed", metavar="S", default="0", show_default=True, help="Seed of the determinizations.")
@EDITION
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@run_guarded
def endgame(pos, max_nodes, objective, paranoid, determinizations, seed, edition, as_json):
    """Exact values of every move in POS (expectimax), the best line, nodes and time.

    Over the node budget: 'too large for exact search (N nodes searched)' on stderr, exit
    status 3, so the last line on stdout is only ever the best move."""
    from .. import solvers
    from ..limits import check_int, check_seed
    from .game import read_position

    max_nodes = _num(max_nodes, "max_nodes", int)
    # Checked before the note below can set them aside (expectimax checks them all again).
    determinizations = check_int(_num(determinizations, "determinizations", int), "determinizations",
                                 0, solvers.MAX_DETERMINIZATIONS)
    seed = check_seed(_num(seed, "seed", int))
    state = read_position(pos, edition=edition)
    if determinizations and state.current_player >= 0 and not solvers.engine.hidden_information(state):
        click.echo(f"note: determinizations: seat {state.current_player} sees the whole position, "
                   f"nothing to sample; solving it once", err=True)
        determinizations = 0
    show = not as_json and sys.stderr.isatty()
    try:
        with _EndgameProgress(_console()) as progress:
            x = solvers.expectimax(state, max_nodes=max_nodes, objective=objective, paranoid=paranoid,
                                   determinizations=determinizations, seed=seed,
                                   progress=progress if show else None)
    except solvers.TooLarge as exc:
        if as_json:
            click.echo(json.dumps({"too_large": True, "nodes": exc.nodes, "message": str(exc)}))
        else:
            click.echo(str(exc), err=True)
        sys.exit(TOO_LARGE_EXIT)
    if as_json:
        d = x.to_dict()
        d["too_large"] = False
        click.echo(json.dumps(d))
        return
    from rich.console import Console
    from rich.table import Table

    p = x.player
    n = len(x.best.win)
    kind = "exact" if not x.determinizations else f"mean of {x.determinizations} exact determinizations"
    t = Table(title=f"{kind} ({x.objective}{', paranoid' if x.paranoid else ''}): seat {p} to move, "
                    f"{x.nodes:,} nodes in {x.seconds:.2f} s ({x.nodes_per_s:,.0f}/s)", title_justify="left")
    t.add_column("move")
    t.add_column("win % " + " / ".join(f"s{q}" for q in range(n)), justify="right")
    t.add_column("expected score " + " / ".join(f"s{q}" for q in range(n)), justify="right")
    if objective == "margin":
        t.add_column("margin " + " / ".join(f"s{q}" for q in range(n)), justify="right")
    order = sorted(range(len(x.moves)), key=lambda i: (-x.moves[i].value[p], i))
    for i in order:
        m = x.moves[i]
        row = [m.text + (" *" if i == x.best_index else ""), _fmt_vec([100 * w for w in m.win]), _fmt_vec(m.score, 2)]
        if objective == "margin":
            row.append(_fmt_vec(m.value, 2))
        t.add_row(*row)
    Console(width=max(100, 40 + 12 * n)).print(t)
    click.echo("line: " + " ".join(x.line))
    click.echo(x.best_text)


@main.command()
@click.option("--game", default="inventors", show_default=True, help="Ruleset.")
@click.option("--bots", required=True, metavar="B1,B2,..",
              help="One bot per seat: random, greedy, mcts[:N|:Ts], ismcts[:N|:Ts].")
@click.option("--games", "n_games", metavar="N", default="100", show_default=True)
@click.option("--seed", metavar="S", default="0", show_default=True)
@click.option("--threads", metavar="T", default="1", show_default=True, help="Threads per MCTS bot.")
@click.option("--out", metavar="FILE", default=None, help="Write every game and the summary as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@run_guarded
def play(game, bots, n_games, seed, threads, out, as_json):
    """Bot matches with seats rotated: win share ± 95%, mean score and margin per bot."""
    from .. import match
    from ..solvers import make_bot

    n_games = _num(n_games, "games", int)
    seed = _num(seed, "seed", int)
    threads = _num(threads, "threads", int)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    for b in names:
        make_bot(b)  # unknown names fail before anything runs
    show = not as_json and sys.stderr.isatty()
    with _progress_bar("playing", show) as update:
        r = match.play(game.lower(), names, games=n_games, seed=seed, threads=threads,
                       progress=lambda done, total: update(done / total))
    if out:
        r.write(out)
    if as_json:
        d = r.to_dict()
        d.pop("records")
        click.echo(json.dumps(d))
        return
    from rich.console import Console
    from rich.table import Table

    rot = "" if n_games % len(names) == 0 else f" (not a multiple of {len(names)}: seats not fully balanced)"
    t = Table(title=f"{game}: {n_games} games, seats rotated{rot}, seed {seed}, {r.seconds:.1f} s",
              title_justify="left")
    for col, just in (("bot", "left"), ("games", "right"), ("win %", "right"), ("± 95%", "right"),
                      ("mean score", "right"), ("mean margin", "right")):
        t.add_column(col, justify=just)
    for s in r.summary:
        t.add_row(s.bot, str(s.games), f"{100 * s.win_share:.1f}", f"{100 * s.win_ci:.1f}",
                  f"{s.mean_score:.2f}", f"{s.mean_margin:+.2f}")
    Console(width=100).print(t)
    if out:
        click.echo(f"results written to {out}", err=True)
