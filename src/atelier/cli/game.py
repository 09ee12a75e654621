"""Commands on positions: new, show, moves, apply, examples, bench."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

import atelier

from .. import jsonfmt
from ..errors import InputError
from ..games import GAMES
from . import main
from .errors import run_guarded

EDITION = click.option("--edition", metavar="FILE", default=None,
                       help="Base edition JSON (default: the bundled one). Card data in a position overrides it.")


def read_position(pos: str, edition: str | None = None):
    """The State in POS: a file path, '-' for stdin, or example:NAME."""
    if pos == "-":
        raw = sys.stdin.buffer.read()  # bytes: jsonfmt.loads decodes (UTF-8) and checks them
        if not raw.strip():
            raise InputError("stdin: empty, expected a position (JSON)")
        return atelier.load_position(jsonfmt.loads(raw, "stdin"), edition=edition)
    if pos.startswith("example:"):
        return atelier.load_position(pos, edition=edition)
    return atelier.load_position(Path(pos), edition=edition)


@main.command()
@click.argument("game", metavar="GAME")
@click.option("--players", "-n", type=click.IntRange(2, 5), default=2, show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Draws the teams (unless --teams) and the Age I reveal.")
@click.option("--teams", metavar="A,B,..", default=None, help="Team ids per seat, e.g. green,blue.")
@EDITION
@run_guarded
def new(game, players, seed, teams, edition):
    """Print the start position of a new GAME (inventors) as JSON."""
    g = atelier.open(game, players=players, seed=seed, edition=edition, teams=teams)
    click.echo(atelier.dump_position(g.start()), nl=False)


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--color/--no-color", default=None, help="Colour output (default: when a terminal).")
@click.option("--width", type=click.IntRange(60), default=110, show_default=True)
@EDITION
@run_guarded
def show(pos, color, width, edition):
    """Show the position POS as a readable board.

    POS: a file, '-' (stdin) or example:NAME."""
    state = read_position(pos, edition)
    if color is None:
        color = sys.stdout.isatty()
    rs = atelier.ruleset(type(state).__module__.rsplit(".", 1)[-1])
    click.echo(rs.show(state, width=width, color=color), nl=False)


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {id, move}.")
@EDITION
@run_guarded
def moves(pos, as_json, edition):
    """List the legal moves in POS, one per line.

    Moves are in notation (docs/notation.md). POS: a file, '-' (stdin) or example:NAME."""
    state = read_position(pos, edition)
    ms = state.legal_moves()
    texts = [state.move_to_string(m) for m in ms]
    if as_json:
        click.echo(json.dumps({"player": state.current_player,
                               "moves": [{"id": m, "move": t} for m, t in zip(ms, texts)]}))
        return
    if state.is_chance():
        click.echo("# chance node: apply a reveal:... or use `atelier apply --seed S`", err=True)
    elif state.is_terminal():
        click.echo("# the game is over", err=True)
    for t in texts:
        click.echo(t)


@main.command()
@click.argument("pos", metavar="POS")
@click.argument("moves", nargs=-1, metavar="MOVE...")
@click.option("--seed", type=click.IntRange(0), default=None,
              help="Sample every chance node reached (unless the next MOVE is a reveal:...).")
@EDITION
@run_guarded
def apply(pos, moves, seed, edition):
    """Apply MOVEs to POS and print the new position.

    MOVEs are in notation (docs/notation.md); at a chance node give a reveal:... or --seed.
    POS: a file, '-' (stdin) or example:NAME."""
    state = read_position(pos, edition)
    draws = 0

    def sample_if_chance():
        nonlocal draws
        if seed is not None and state.is_chance():
            state.sample_chance(seed + draws)  # one seed per reveal: replayable, and reveals differ
            draws += 1

    for mv in moves:
        if not mv.lower().startswith("reveal:"):
            sample_if_chance()
        state.apply(mv)
    sample_if_chance()
    click.echo(atelier.dump_position(state), nl=False)


@main.command()
def examples():
    """List the bundled example positions (use them as example:NAME)."""
    for name, path in atelier.examples().items():
        click.echo(f"example:{name}")


@main.command()
@click.option("--game", type=click.Choice(GAMES, case_sensitive=False), default="inventors", show_default=True)
@click.option("--players", "-n", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--games", "n_games", type=click.IntRange(1), default=20000, show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--core-only", is_flag=True, help="Skip the search figures (MCTS, expectimax).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@run_guarded
def bench(game, players, n_games, seed, core_only, as_json):
    """Speed figures: the C++ core (random playouts, state copies) and the search (MCTS
    iterations/s at the start and mid-game, thread speedup, expectimax nodes/s)."""
    from ..bench import bench as run_bench

    result = run_bench(game, players=players, games=n_games, seed=seed, search=not core_only)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(f"{result['game']}, {players} players, {result['cpu_count']} CPUs ({result['machine']},"
               f" Python {result['python']})")
    for row in result["rows"]:
        figures = ", ".join(f"{k} {_fmt(v)}" for k, v in row.items() if k != "what")
        click.echo(f"  {row['what']}: {figures}")


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"
    return f"{v:,}" if isinstance(v, int) else str(v)
