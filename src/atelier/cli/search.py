"""Commands that search: suggest (MCTS), endgame (exact expectimax), play (bot matches)."""
from __future__ import annotations

import math
import os
import sys

import click

from ..errors import InputError
from ..jsonfmt import strict_dumps
from ..wording import count
from . import main
from .errors import run_guarded
from .options import (GAMES, ITERATIONS, ITERATIONS_RANGE, MEMORY_MB, PLAYERS, SEAT, SECONDS, THREADS, TOP, Whole,
                      edition_option, json_option, model_option, read_position, rollout_option, seed_option)
from .results import endgame_json, suggest_json, too_large_json
from ..solvers import (DEFAULT_MAX_NODES, DEFAULT_VIEWPOINT_DETERMINIZATIONS, MAX_DETERMINIZATIONS,
                       MAX_EXACT_NODES)

TOO_LARGE_EXIT = 3   # endgame: no exact answer within the node budget (not an input error)


def _console():
    from ..console import make_console

    return make_console(stderr=True)


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


def _fmt_vec(xs, digits=1):
    return " / ".join(f"{x:.{digits}f}" for x in xs)


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--iterations", "-i", type=ITERATIONS, metavar="N", default=None,
              help=f"Iterations in total, {ITERATIONS_RANGE} (default 10,000 when no --time).")
@click.option("--time", "-t", "seconds", type=SECONDS, metavar="S", default=None, help="Seconds to think.")
@click.option("--threads", type=THREADS, metavar="T", default=1, show_default=True,
              help="Independent trees (root parallelism).")
@seed_option()
@click.option("--reward", type=click.Choice(["win", "margin"]), default="win", show_default=True,
              help="What MCTS maximises: win share (ties split) or score margin.")
@click.option("--memory", "memory_mb", type=MEMORY_MB, metavar="MB", default=512, show_default=True,
              help="Node arena budget.")
@click.option("--algorithm", type=click.Choice(["auto", "mcts", "ismcts"]), default="auto", show_default=True,
              help="auto: ISMCTS when the seat to move cannot see everything, else MCTS.")
@click.option("--ismcts", is_flag=True, help="Same as --algorithm ismcts.")
@click.option("--top", type=TOP, metavar="N", default=10, show_default=True, help="Rows shown, best first.")
@click.option("--solver/--no-solver", default=True, show_default=True,
              help="MCTS-Solver (two players, win reward): prove wins, draws and losses in the tree.")
@rollout_option
@model_option
@edition_option
@json_option()
@run_guarded
def suggest(pos, iterations, seconds, threads, seed, reward, memory_mb, algorithm, ismcts, top,
            solver, rollout, model, edition, as_json):
    """Rank the moves in POS by MCTS: visits, win %, expected scores, 95% intervals.

    The last line is the best move alone, for scripts."""
    from .. import solvers
    from .suggest_table import print_table

    state = read_position(pos, edition)
    if ismcts:
        algorithm = "ismcts"
    if algorithm == "auto":
        # A hidden-information position is searched from what the mover knows: MCTS on the
        # full state would use cards the mover cannot see.
        algorithm = "ismcts" if solvers.engine.hidden_information(state) else "mcts"
    search = solvers.ismcts if algorithm == "ismcts" else solvers.mcts
    extra = {"solver": "auto" if solver else False} if algorithm == "mcts" else {}
    show = not as_json and sys.stderr.isatty()
    with _progress_bar("thinking", show) as update:
        r = search(state, iterations=iterations, time=seconds, threads=threads, seed=seed,
                   reward=reward, memory_mb=memory_mb, progress=update, rollout=rollout,
                   model=model, **extra)
    if as_json:
        click.echo(strict_dumps(suggest_json(r)))
        return
    print_table(r, top)
    if r.memory_full:
        click.echo(f"note: the node arena ({memory_mb} MB) filled up; the search stopped early", err=True)
    click.echo(r.best_text)


class _EndgameProgress:
    """endgame's progress on stderr: nothing during the first second, then one live line with
    the solver, the nodes searched, the time and (alpha-beta) the root moves resolved so far,
    gone when the search ends. Fed by the solver's progress callback, so it costs nothing in
    the search's own loop."""

    AFTER = 1.0   # seconds before anything is shown

    def __init__(self, console, solver):
        self.console, self.solver = console, solver
        self.live = None

    def __call__(self, nodes: int, seconds: float, solved=None, total=None):
        if seconds < self.AFTER:
            return
        from rich.live import Live
        from rich.text import Text

        moves = f", {solved} of {count(total, 'move')} resolved" if total else ""
        line = Text(f"solving ({self.solver}): {count(nodes, 'node')} searched, {seconds:.1f} s{moves}")
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


_SOLVER_NAMES = {"alphabeta": "alpha-beta", "expectimax": "expectimax"}


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--max-nodes", metavar="N", type=Whole(1, MAX_EXACT_NODES), default=DEFAULT_MAX_NODES,
              show_default=True, help="Node budget; beyond it the answer is 'too large'.")
@click.option("--time", "-t", "seconds", type=SECONDS, metavar="S", default=None,
              help="Time budget in seconds (beside --max-nodes: the first reached stops).")
@click.option("--objective", type=click.Choice(["win", "margin"]), default="win", show_default=True,
              help="What each seat maximises: win share or score margin.")
@click.option("--prove", is_flag=True,
              help="Win/draw/loss only (alpha-beta): the position's value and a move that reaches it.")
@click.option("--solver", type=click.Choice(["auto", "alphabeta", "expectimax"]), default="auto",
              show_default=True, help="auto: alpha-beta when no chance is left and two players "
                                      "(or --paranoid) play, else expectimax.")
@click.option("--paranoid", is_flag=True, help="Every other seat minimises the mover's value.")
@click.option("--memory", "memory_mb", type=MEMORY_MB, metavar="MB", default=256, show_default=True,
              help="Alpha-beta's transposition table.")
@click.option("--determinizations", metavar="K", type=Whole(0, MAX_DETERMINIZATIONS), default=None,
              help="Hidden information: average K exact solves of determinizations of what the mover "
                   f"(on a viewpoint: its seat) cannot see. Default: {DEFAULT_VIEWPOINT_DETERMINIZATIONS} "
                   "on a viewpoint, 0 (exact) on a full position.")
@seed_option(help="Seed of the determinizations.")
@edition_option
@json_option()
@run_guarded
def endgame(pos, max_nodes, seconds, objective, prove, solver, paranoid, memory_mb, determinizations,
            seed, edition, as_json):
    """Exact values of every move in POS, the best line, nodes and time.

    Alpha-beta where no chance is left (two players, or --paranoid), expectimax elsewhere; the
    table's title names the solver. Over the node or time budget: 'too large for exact search
    (N nodes searched)' on stderr (after alpha-beta, with the bounds proven so far), exit
    status 3, so the last line on stdout is only ever the best move."""
    from .. import solvers

    state = read_position(pos, edition=edition)
    viewpoint = getattr(state, "viewpoint", None)
    seat = state.current_player if viewpoint is None else viewpoint
    if (determinizations and seat >= 0 and state.current_player >= 0
            and not solvers.engine.hidden_information(state, seat)):
        click.echo(f"note: determinizations: seat {seat} sees the whole position, "
                   f"nothing to sample; solving it once", err=True)
        determinizations = 0 if viewpoint is None else 1
    show = not as_json and sys.stderr.isatty()
    if solver == "auto" and state.current_player >= 0:
        solver = "expectimax" if solvers.alphabeta_applies(state, paranoid) and not prove else "alphabeta"
    try:
        with _EndgameProgress(_console(), _SOLVER_NAMES.get(solver, solver)) as progress:
            x = solvers.solve(state, solver=solver, objective=objective, prove=prove, paranoid=paranoid,
                              max_nodes=max_nodes, time=seconds, memory_mb=memory_mb,
                              determinizations=determinizations, seed=seed,
                              progress=progress if show else None)
    except solvers.TooLarge as exc:
        if as_json:
            click.echo(strict_dumps(too_large_json(exc)))
        else:
            if exc.partial is not None:
                _print_exact(exc.partial, objective, _console())
            click.echo(str(exc), err=True)
        sys.exit(TOO_LARGE_EXIT)
    if as_json:
        click.echo(strict_dumps(endgame_json(x)))
        return
    from ..console import make_console

    players = solvers.engine.position_info(state)[0]
    _print_exact(x, objective, make_console(width=max(100, 40 + 12 * players)))
    if x.line:
        click.echo("line: " + line_text(x))
        click.echo("  (one of the optimal lines: where moves tie, another line keeps the same value and can "
                   "end in other scores)")
    click.echo(x.best_text)


def line_text(x) -> str:
    """The principal line with the seat that makes each move: 'seat 0 MOVE, seat 1 MOVE, chance OUTCOME'."""
    seats = x.line_seats or [None] * len(x.line)
    return ", ".join(f"chance {text.removeprefix('chance:')}" if text.startswith("chance:") or p is None
                     else f"seat {p} {text}" for text, p in zip(x.line, seats))


OBJECTIVES = {"win": "each seat maximises its win share, ties split",
              "margin": "each seat maximises its score minus the best other score"}


def objective_words(x) -> str:
    """What the title's objective means, in words."""
    if x.prove:
        return "the proven result for the mover"
    if x.paranoid:
        return f"seat {x.player} maximises its {'win share' if x.objective == 'win' else 'margin'}, every other seat minimises it"
    return OBJECTIVES.get(x.objective, x.objective)


def _fmt_bound(m, player, objective):
    """An alpha-beta move's value for the mover: exact, or the bounds proven so far."""
    lo, hi = m.bounds
    f = (lambda v: f"{100 * v:.0f}%") if objective == "win" else (lambda v: f"{v:+.0f}")
    floor, ceil = (0.0, 1.0) if objective == "win" else (-1e5, 1e5)
    if lo == hi:
        return f(lo)
    if lo <= floor and hi >= ceil:
        return "?"
    if lo <= floor:
        return f"<= {f(hi)}"
    if hi >= ceil:
        return f">= {f(lo)}"
    return f"{f(lo)}..{f(hi)}"


def _print_exact(x, objective, console):
    from rich.table import Table

    p = x.player
    n = len(x.moves[0].value) if x.moves[0].value is not None else len(next(
        (m.win for m in x.moves if m.win is not None), [None, None]))
    if x.solver == "alphabeta":
        what = "proof (win/draw/loss)" if x.prove else "exact"
        kind = f"alpha-beta {what}" if x.complete else f"alpha-beta, stopped: bounds proven so far"
    else:
        kind = "expectimax exact"
    if x.determinizations:
        kind += f", mean of {x.determinizations} exact determinizations"
        if x.viewpoint is not None:
            kind += f" of seat {x.viewpoint}'s view"
    t = Table(title=f"{kind} (objective {x.objective}: {objective_words(x)}): seat {p} to move, "
                    f"{count(x.nodes, 'node')} in {x.seconds:.2f} s ({x.nodes_per_s:,.0f}/s)", title_justify="left")
    t.add_column("move")
    if x.solver == "alphabeta":
        t.add_column(f"value s{p}", justify="right")
    t.add_column("win % " + " / ".join(f"s{q}" for q in range(n)), justify="right")
    t.add_column(("final score (line) " if x.solver == "alphabeta" else "expected score ")
                 + " / ".join(f"s{q}" for q in range(n)), justify="right")
    if objective == "margin" and x.solver != "alphabeta":
        t.add_column("margin " + " / ".join(f"s{q}" for q in range(n)), justify="right")

    def key(i):
        m = x.moves[i]
        return (-(m.bounds[0] + m.bounds[1]) if m.bounds else -m.value[p], i)

    for i in sorted(range(len(x.moves)), key=key):
        m = x.moves[i]
        best = " *" if x.complete and i == x.best_index else ""
        row = [m.text + best]
        if x.solver == "alphabeta":
            row.append(_fmt_bound(m, p, objective))
        row.append(_fmt_vec([100 * w for w in m.win]) if m.win is not None else "")
        row.append(_fmt_vec(m.score, 0 if x.solver == "alphabeta" else 2) if m.score is not None else "")
        if objective == "margin" and x.solver != "alphabeta":
            row.append(_fmt_vec(m.value, 2))
        t.add_row(*row)
    console.print(t)

@main.command()
@click.option("--game", default="inventors", show_default=True, help="Ruleset.")
@click.option("--bots", required=True, metavar="B1,B2,..",
              help="One bot per seat: random, greedy, mcts[:N|:Ts], ismcts[:N|:Ts].")
@click.option("--games", "n_games", type=GAMES, metavar="N", default=100, show_default=True)
@seed_option()
@click.option("--threads", type=THREADS, metavar="T", default=1, show_default=True, help="Threads per MCTS bot.")
@click.option("--out", metavar="DIR|FILE", default=None,
              help="Write the games as records (docs/records.md): into DIR (an existing folder, or a "
                   "path ending in /) one file per game, game-001.json, ...; else all in FILE.")
@click.option("--human", "human", type=SEAT, multiple=True, metavar="SEAT",
              help="Play SEAT yourself in the terminal against the bots (repeatable); --bots then "
                   "names the other seats' bots, in seat order (one name: every other seat).")
@click.option("--players", "-n", type=PLAYERS, default=None, metavar="N",
              help="With --human: the number of seats (default: --human seats plus --bots).")
@click.option("--start", "start_pos", metavar="POS", default=None,
              help="With --human: play from this position (a file or example:NAME; a full "
                   "position of any ruleset, not one whose game is over) instead of a new game.")
@click.option("--hint-iterations", type=ITERATIONS, default=20000, show_default=True, metavar="N",
              help=f"With --human: the search behind `hint` ({ITERATIONS_RANGE}).")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="ADDRESS",
              help="Spread the games over a Ray cluster (docs/ray.md): alone, a local one started "
                   "here; 'auto' the one the environment names; or ray://HOST:PORT, HOST:PORT. "
                   "The same results as without.")
@edition_option
@json_option("Machine-readable summary (docs/json.md).")
@run_guarded
def play(game, bots, n_games, seed, threads, out, human, players, start_pos, hint_iterations, ray_address, edition,
         as_json):
    """Bot matches with seats rotated: win share ± 95%, mean score and margin per bot. With
    --human, a game in the terminal against the bots."""
    from .. import match
    from ..solvers import make_bot

    names = [b.strip() for b in bots.split(",") if b.strip()]
    for b in names:
        make_bot(b)  # unknown names fail before anything runs
    if human and ray_address is not None:
        raise InputError("--ray: not with --human (a game in the terminal is played here)")
    if human:
        from .human import play_human

        if start_pos is not None and click.get_current_context().get_parameter_source("game").name != "DEFAULT":
            raise InputError("--game: not with --start (the position names its game)")
        play_human(game.lower(), names, list(human), players, seed, threads, out, edition, hint_iterations,
                   start=start_pos)
        return
    if start_pos is not None:
        raise InputError("--start: only with --human (a match plays new games)")
    if players is not None:
        raise InputError("--players: only with --human (a match seats one bot per --bots name)")
    out_dir = out is not None and (out.endswith(("/", os.sep)) or os.path.isdir(out))
    if out and game.lower().startswith("testgame"):
        raise InputError(f"--out: the test game {game!r} has no positions, so no records")
    if out and out_dir:
        _check_dir(out)
    elif out:
        match.check_writable(out)  # ... and so does an --out that could not be written at the end
    run_on = None
    if ray_address is not None:
        from .. import distributed

        match.check_match(game.lower(), names, n_games, seed, threads)   # a bad match fails before Ray starts
        distributed.connect(ray_address)
        run_on = distributed.runner(ray_address)
    show = not as_json and sys.stderr.isatty()
    with _progress_bar("playing", show) as update:
        r = match.play(game.lower(), names, games=n_games, seed=seed, threads=threads,
                       progress=lambda done, total: update(done / total), keep_moves=bool(out),
                       edition=edition, runner=run_on)
    if out:
        _write_records(r, game.lower(), edition, out, out_dir)
    if as_json:
        d = r.to_dict()
        d.pop("records")
        click.echo(strict_dumps({"format": "atelier.play/1", **d}))
        return
    from rich.table import Table

    from ..console import make_console

    rot = "" if n_games % len(names) == 0 else f" (not a multiple of {len(names)}: seats not fully balanced)"
    t = Table(title=f"{game}: {count(n_games, 'game')}, seats rotated{rot}, seed {seed}, {r.seconds:.1f} s",
              title_justify="left")
    for col, just in (("bot", "left"), ("games", "right"), ("win %", "right"), ("± 95%", "right"),
                      ("mean score", "right"), ("mean margin", "right")):
        t.add_column(col, justify=just)
    for s in r.summary:
        ci = f"{100 * s.win_ci:.1f}" if math.isfinite(s.win_ci) else "—"
        t.add_row(s.bot, str(s.games), f"{100 * s.win_share:.1f}", ci,
                  f"{s.mean_score:.2f}", f"{s.mean_margin:+.2f}")
    make_console().print(t)
    if out:
        click.echo(f"records written to {out}", err=True)


def _check_dir(path):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise InputError(f"out '{path}': cannot make the folder ({exc.strerror})") from None
    if not os.access(path, os.W_OK):
        raise InputError(f"out '{path}': cannot write into the folder")


def _write_records(r, game, edition, out, out_dir):
    """One record per game (atelier.record/1): a file each in a folder, or one file of them all."""
    from .. import records

    import atelier

    ed = atelier.ruleset(game).load_edition(edition)   # read once, not once per game
    meta = {"created_by": "atelier play", "match_seed": r.seed}
    recs = [records.from_match(m, game, ed, meta={**meta, "match_game": m["game"] + 1}) for m in r.records]
    if out_dir:
        width = max(3, len(str(len(recs))))
        for k, rec in enumerate(recs, 1):
            rec.save(os.path.join(out, f"game-{k:0{width}d}.json"))
    elif len(recs) == 1:
        recs[0].save(out)
    else:
        d = r.to_dict()
        d.pop("records")
        records.save_collection(recs, out, summary={"format": "atelier.play/1", **d})
