"""Commands on positions: new, show, moves, apply, examples, bench."""
from __future__ import annotations

import shutil
import sys

import click

import atelier

from ..errors import InputError
from ..games import GAMES
from ..jsonfmt import strict_dumps
from ..wording import count
from ..limits import SEED_MAX
from ..viewpoint import apply_in_view, sample_in_view
from . import main
from .errors import quoted, run_guarded
from .options import (GAMES as N_GAMES, PLAYERS, SEAT, SECONDS, SEED, WIDTH, Whole, edition_option, json_option,
                      read_position, seed_option)

__all__ = ["read_position"]   # the reader every command shares (cli/options.py)


def ruleset_of(state):
    """The ruleset module of a core State (its class lives in atelier._core.<ruleset>)."""
    return atelier.ruleset(type(state).__module__.rsplit(".", 1)[-1])


@main.command()
@click.argument("game", metavar="GAME")
@click.option("--players", "-n", type=PLAYERS, default=2, show_default=True, metavar="N")
@seed_option("Draws the setup: Inventors' teams (unless --teams) and Age I reveal; Leonardo's deck; "
             "Craftsmen's deal.")
@click.option("--teams", metavar="A,B,..", default=None, help="Inventors: team ids per seat, e.g. green,blue.")
@click.option("--setup", type=click.Choice(["expert", "basic"], case_sensitive=False), default=None,
              help="Leonardo: expert (default, favour picks) or basic (beginner kits, fixed row).")
@click.option("--codex", is_flag=True, default=None, help="Leonardo: the Codex option (Powerful Council).")
@click.option("--age-rank", "age_rank", metavar="R0,R1,..", default=None,
              help="Craftsmen: each seat's age rank, 0 the youngest (breaks turn-order ties), e.g. 2,0,1.")
@edition_option
@run_guarded
def new(game, players, seed, teams, setup, codex, age_rank, edition):
    """Print the start position of a new GAME (inventors, leonardo, craftsmen) as JSON (docs/positions.md)."""
    options = {k: v for k, v in (("setup", setup), ("codex", codex), ("age_rank", _ranks(age_rank)))
               if v is not None}
    g = atelier.open(game, players=players, seed=seed, edition=edition, teams=teams, **options)
    click.echo(atelier.dump_position(g.start()), nl=False)


def _ranks(text):
    """--age-rank 2,0,1 as a list of numbers (open_game checks it is a permutation)."""
    if text is None:
        return None
    try:
        return [int(x, 10) for x in text.split(",")]
    except ValueError:
        raise InputError(f"--age-rank: expected whole numbers separated by commas, e.g. 1,0,2; got {quoted(text)}") from None


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--color/--no-color", default=None,
              help="Force colour on or off (default: colour when stdout is a terminal).")
@click.option("--width", type=WIDTH, default=None, metavar="COLUMNS",
              help="Line width (default: the terminal's, or 110 when not a terminal).")
@click.option("--svg", "svg_file", metavar="FILE", default=None,
              help="Draw the board as SVG into FILE instead ('-': stdout).")
@click.option("--mark", "marks", metavar="MOVE", multiple=True,
              help="With --svg: outline what MOVE names (repeat: the second in the 'best' colour).")
@edition_option
@json_option("Print the position, the scores and who is to move as JSON.")
@run_guarded
def show(pos, color, width, svg_file, marks, edition, as_json):
    """Show the position POS as a readable board (or a picture, --svg).

    POS: a file, '-' (stdin) or example:NAME."""
    state = read_position(pos, edition)
    if marks and not svg_file:
        raise InputError("--mark: only with --svg (it outlines a move on the picture)")
    if svg_file:
        if len(marks) > 2:
            raise InputError("--mark: at most two moves (the one played, the best)")
        for mv in marks:
            state.parse_move(check_move_text(mv))   # an illegal move is an error, not a silent no-op
        svg = atelier.board_svg(state, marks=dict(zip(("played", "best"), marks)) or None)
        if svg_file == "-":
            click.echo(svg, nl=False)
        else:
            from ..records import write_text

            write_text(svg_file, svg)
        return
    if as_json:
        click.echo(strict_dumps(show_json(state)))
        return
    if color is None:
        color = sys.stdout.isatty()
    if width is None:
        width = max(WIDTH.lo, shutil.get_terminal_size((110, 24)).columns) if sys.stdout.isatty() else 110
    # color= too: click.echo strips colour codes from output that is not a terminal.
    click.echo(ruleset_of(state).show(state, width=width, color=color), nl=False, color=color)


@main.command()
@click.argument("pos", metavar="POS")
@click.option("--seat", "-s", type=SEAT, required=True, metavar="S", help="The seat whose view to write.")
@click.option("--board", is_flag=True, help="Print the board that seat sees instead of the JSON.")
@click.option("--color/--no-color", default=None, help="With --board: force colour on or off.")
@edition_option
@run_guarded
def view(pos, seat, board, color, edition):
    """Print what seat S knows of POS: its viewpoint position (JSON, docs/positions.md), or
    with --board the board as S sees it. Opponents' hands, hidden labs, the deck order and
    sealed bids are left out; loading the result samples them again.

    POS: a file, '-' (stdin) or example:NAME."""
    state = read_position(pos, edition)
    if seat >= state.game.players:
        raise InputError(f"--seat: {seat} is not a seat of this {state.game.players}-player game "
                         f"(0..{state.game.players - 1})")
    text = atelier.dump_position(state, viewpoint=seat)   # refuses a game without hidden parts
    if not board:
        click.echo(text, nl=False)
        return
    seen = atelier.load_position(text)
    if color is None:
        color = sys.stdout.isatty()
    click.echo(ruleset_of(seen).show(seen, width=110, color=color), nl=False, color=color)


def _winners(state) -> list:
    if hasattr(state, "winners"):
        return list(state.winners())
    return [p for p, r in enumerate(state.returns()) if r > 0]   # returns: 1 for the winner


def show_json(state) -> dict:
    n = state.game.players
    return {"format": "atelier.show/1", "player": state.current_player,
            "chance": state.is_chance(), "terminal": state.is_terminal(),
            "scores": list(state.scores()),
            "score_detail": [state.score_detail(p) for p in range(n)],
            "winners": _winners(state) if state.is_terminal() else None,
            "position": atelier.position_dict(state)}


@main.command()
@click.argument("pos", metavar="POS")
@json_option("Print the seat to move and the list of {move_id, move} as JSON.")
@edition_option
@run_guarded
def moves(pos, as_json, edition):
    """List the legal moves in POS, one per line.

    Moves are in notation (docs/notation.md). POS: a file, '-' (stdin) or example:NAME."""
    state = read_position(pos, edition)
    ms = state.legal_moves()
    if state.is_chance() and not ms:
        # A core that keeps chance out of legal_moves (Craftsmen) lists its outcomes apart.
        ms = [m for m, _, _ in state.chance_outcomes()]
    texts = [state.move_to_string(m) for m in ms]
    if as_json:
        click.echo(strict_dumps({"format": "atelier.moves/1", "player": state.current_player,
                                 "chance": state.is_chance(), "terminal": state.is_terminal(),
                                 "moves": [{"move_id": m, "move": t} for m, t in zip(ms, texts)]}))
        return
    if state.is_chance():
        click.echo(f"# chance node: apply its outcome ({ruleset_of(state).CHANCE_PREFIXES[0]}...) "
                   "or use `atelier apply --seed S`", err=True)
    elif state.is_terminal():
        click.echo("# the game is over", err=True)
    for t in texts:
        click.echo(t)


def check_move_text(text: str) -> str:
    """A move as typed: refused with the text quoted if it holds anything but printable characters."""
    if not text.isprintable():
        raise InputError(f"move {quoted(text)}: contains control or unprintable characters")
    return text


@main.command()
@click.argument("pos", metavar="POS")
@click.argument("moves", nargs=-1, metavar="MOVE...")
@seed_option("Sample every chance node reached (unless the next MOVE is its outcome, e.g. a "
             "reveal:..., draw:X or DRAW(R2)).", default=None)
@edition_option
@run_guarded
def apply(pos, moves, seed, edition):
    """Apply MOVEs to POS and print the new position.

    MOVEs are in notation (docs/notation.md); at a chance node give its outcome (Inventors
    reveal:..., Leonardo draw:X, Craftsmen DRAW(R2) or DRAW(E11)) or --seed. On a viewpoint
    a draw is what the seat saw, and a move whose result depends on what the seat cannot see
    is refused.
    POS: a file, '-' (stdin) or example:NAME."""
    for mv in moves:
        check_move_text(mv)
    state = read_position(pos, edition)
    outcome_prefixes = ruleset_of(state).CHANCE_PREFIXES
    draws = 0

    def sample_if_chance():
        nonlocal draws, state
        if seed is not None and state.is_chance():
            # One seed per draw: replayable, and the draws differ. On a viewpoint the hidden
            # parts are resampled from the seed first: the draw follows the seat's odds.
            if getattr(state, "viewpoint", None) is not None:
                state = sample_in_view(state, (seed + draws) & SEED_MAX)
            else:
                state.sample_chance((seed + draws) & SEED_MAX)
            draws += 1

    for mv in moves:
        if not mv.lower().startswith(outcome_prefixes):
            sample_if_chance()
        if getattr(state, "viewpoint", None) is not None:
            state = apply_in_view(state, mv, seed=seed or 0)
        else:
            state.apply(mv)
    sample_if_chance()
    click.echo(atelier.dump_position(state), nl=False)


@main.command()
@json_option("Print the names and files as JSON.")
def examples(as_json):
    """List the bundled example positions (use them as example:NAME), each with a line saying what it is."""
    found = atelier.examples()
    about = atelier.example_descriptions()
    if as_json:
        click.echo(strict_dumps({"format": "atelier.examples/1",
                                 "examples": [{"name": f"example:{name}", "file": str(path),
                                               "description": about.get(name, "")}
                                              for name, path in found.items()]}))
        return
    width = max(len(name) for name in found) + len("example:")
    for name in found:
        click.echo(f"{'example:' + name:<{width}}  {about.get(name, '')}".rstrip())


@main.command()
@click.option("--game", type=click.Choice(GAMES, case_sensitive=False), default="inventors", show_default=True)
@click.option("--players", "-n", type=PLAYERS, default=None, metavar="N",
              help="Seats (default 4; 2 with --endgame).")
@click.option("--games", "n_games", type=N_GAMES, default=None, metavar="N",
              help="Core playouts (default 20,000), greedy games with --endgame (default 20), or "
                   "positions with --openspiel (default 5).")
@seed_option()
@click.option("--core-only", is_flag=True, help="Skip the search figures (MCTS, expectimax).")
@click.option("--endgame", is_flag=True,
              help="How far back from the end alpha-beta solves greedy games exactly (slow: "
                   "up to --time seconds per position).")
@click.option("--time", "-t", "seconds", type=SECONDS, default=60.0, show_default=True, metavar="S",
              help="--endgame: CPU seconds per exact solve (of the solving thread).")
@click.option("--openspiel", is_flag=True,
              help="atelier's MCTS/ISMCTS against OpenSpiel's Python MCTSBot/ISMCTSBot on the adapter, "
                   "equal iterations, same positions (needs atelier[openspiel]).")
@click.option("--iterations", "-i", type=Whole(1, 1_000_000), default=200, show_default=True, metavar="N",
              help="--openspiel: iterations per position, each side.")
@click.option("--model", "model", metavar="FILE", default=None,
              help="The value model timed in the leaf-evaluation rows (default: the bundled one, else a "
                   "stand-in of the usual shape with random weights).")
@json_option("Print the figures as JSON.")
@run_guarded
def bench(game, players, n_games, seed, core_only, endgame, seconds, openspiel, iterations, model, as_json):
    """Speed figures: the C++ core (random playouts, state copies) and the search (MCTS
    iterations/s at the start and mid-game, thread speedup, expectimax nodes/s); with
    --endgame, the exact solver's reach instead; with --openspiel, the ratio to OpenSpiel's bots."""
    if openspiel:
        _bench_openspiel(game, players or 2, n_games or 5, seed, iterations, as_json)
        return
    if endgame:
        _bench_endgame(game, players or 2, n_games or 20, seed, seconds, as_json)
        return
    from ..bench import bench as run_bench

    players = players or 4
    result = run_bench(game, players=players, games=n_games or 20000, seed=seed, search=not core_only,
                       model=model)
    if as_json:
        click.echo(strict_dumps({"format": "atelier.bench/1", **result}, indent=2))
        return
    load = "" if result["load_average"] is None else f", load average {result['load_average']}"
    core = result["rows"][0]
    click.echo(f"{result['game']}, {players} players, {result['cpu_count']} CPUs, "
               f"{result['cpus_available']} available to this process ({result['machine']},"
               f" Python {result['python']}{load})")
    click.echo(f"  rates are per CPU-second of the measuring thread; the playouts' thread got "
               f"{core['cpu_share']:.0%} of a CPU (wall figures beside)")
    for row in result["rows"]:
        figures = ", ".join(f"{k} {_fmt(v)}" for k, v in row.items() if k != "what")
        click.echo(f"  {row['what']}: {figures}")


def _bench_openspiel(game, players, positions, seed, iterations, as_json):
    import os

    try:
        from ..openspiel.bench import compare
    except ImportError:
        raise InputError("--openspiel: OpenSpiel is not installed; pip install 'atelier[openspiel]'") from None
    r = compare(game, players=players, iterations=iterations, positions=positions, seed=seed)
    r["cpu_count"] = os.cpu_count()
    if as_json:
        click.echo(strict_dumps({"format": "atelier.bench-openspiel/1", **r}, indent=2))
        return
    a, o = r["atelier"], r["openspiel"]
    click.echo(f"{game}, {players} players, {r['positions']} positions x {iterations} iterations each side, "
               f"one thread, {r['cpu_count']} CPUs")
    click.echo(f"  {a['algorithm']}: {a['seconds']:.3f} s, {a['iterations_per_s']:,.0f} iterations/s")
    click.echo(f"  {o['algorithm']}: {o['seconds']:.3f} s, {o['iterations_per_s']:,.0f} iterations/s")
    click.echo(f"  ratio (OpenSpiel seconds / atelier seconds): {r['ratio']:.0f}x")


def _bench_endgame(game, players, n_games, seed, seconds, as_json):
    from ..solvers.endgame_bench import endgame_bench

    def say(line):
        if not as_json:
            click.echo("  " + line, err=True)

    r = endgame_bench(game, players=players, games=n_games, seed=seed, seconds=seconds, progress=say)
    if as_json:
        click.echo(strict_dumps({"format": "atelier.bench-endgame/1", **r}, indent=2))
        return
    click.echo(f"{game}, {players} players, {count(n_games, 'greedy game')} from seed {seed}, {r['cpu_count']} CPUs, "
               f"{seconds:g} CPU-s per solve (one core; every time below is CPU seconds), walking back {count(r['step'], 'decision')} at a time")
    for row in r["rows"]:
        if not row["tail"]:
            click.echo(f"  seed {row['seed']}: no chance-free decision after the game's last chance event: "
                       f"nothing to solve")
            continue
        proof = (f", prove {row['prove_seconds']:.2f} s" if row.get("prove_ok") else "")
        if row.get("margin_seconds") is not None:
            proof += (f", margins {row['margin_seconds']:.2f} s" if row["margin_ok"]
                      else f", margins not solved in {seconds:g} s")
        at = f" ({row['nodes']:,} nodes, {row['seconds']:.2f} s{proof})" if row["furthest"] else ""
        whole = ", the whole tail" if row["whole_tail"] else ""
        click.echo(f"  seed {row['seed']}: solved {row['furthest']} of {count(row['tail'], 'decision')} back{whole}{at}")
    s = r["summary"]
    def x(v, floor=False):
        return "n/a" if v is None else f"{'>= ' if floor else ''}{v:.1f}x"
    click.echo(f"  games solved >= {s['target_back']} back: {s['games_at_target']}/{n_games}; furthest back "
               f"min {s['min_furthest']}, median {s['median_furthest']}, max {s['max_furthest']}; whole "
               f"tail (from the first decision after the last chance event): {s['whole_tail_solved']}/{n_games}; "
               f"--prove on the same positions: {x(s['prove_speedup_vs_margin_values'], not s['margin_all_solved'])} "
               f"faster than the exact margins (full values), {x(s['prove_speedup_vs_win_values'])} "
               f"than every move's exact win value")


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"
    return f"{v:,}" if isinstance(v, int) else str(v)
