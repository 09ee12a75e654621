"""`atelier play --human SEAT`: a game in the terminal against the bots, written down as it goes.

At the human's turn: the board (what that seat knows, in a hidden-information game), the legal
moves numbered, and a prompt that takes a number, a move in notation, or a command:
`hint` (the engine's suggestion for this seat), `undo` (back to this seat's previous decision),
`board` (the board again), `moves` (the legal moves again), `help`, `quit` (save the record and stop). The end of input is `quit`.
"""
from __future__ import annotations

import datetime
import os
import sys

import click

import atelier

from .. import records
from ..errors import InputError
from ..match import _mix, check_views
from ..solvers import make_bot
from .game import ruleset_of

HELP = ("a number or a move in notation plays it; hint: the engine's suggestion; undo: back to your "
        "previous decision; board: the board again; moves: the legal moves again; quit: save the record and stop")


def _seating(human: list[int], bots: list[str], players: int | None) -> list[str | None]:
    """Per seat: None for a human, else the bot's name."""
    if len(set(human)) != len(human):
        raise InputError("--human: a seat is given twice")
    n = players if players is not None else len(human) + len(bots)
    if not 2 <= n <= 5:
        raise InputError(f"--players: expected 2..5 seats, got {n}")
    for h in human:
        if h >= n:
            raise InputError(f"--human: {h} is not a seat of this {n}-player game (0..{n - 1})")
    others = n - len(human)
    if len(bots) == 1:
        bots = bots * others
    if len(bots) != others:
        raise InputError(f"--bots: expected {others} bots for the other seats (or one for all), got {len(bots)}")
    it = iter(bots)
    return [None if p in human else next(it) for p in range(n)]


class HumanGame:
    def __init__(self, game, seating, seed, threads, edition, hint_iterations, out, echo, read_line):
        self.seating, self.seed, self.hint_iterations, self.threads = seating, seed, hint_iterations, threads
        self.echo, self.read_line = echo, read_line
        self.bots = [None if b is None else make_bot(b, threads=threads) for b in seating]
        check_views(game, [b for b in self.bots if b is not None])
        start = atelier.open(game, players=len(seating), seed=seed, edition=edition).start()
        self.rs = ruleset_of(start)
        names = ["you" if b is None else b for b in seating]
        self.rec = records.new(start, seats=names, meta={"created_by": "atelier play --human", "seed": seed})
        self.out = out

    # What the human sees.
    def view(self, s, seat):
        if not self.rs.HIDDEN_INFORMATION:
            return s
        return atelier.load_position(atelier.dump_position(s, viewpoint=seat))

    def board(self, s, seat):
        self.echo(self.rs.show(self.view(s, seat), width=110, color=False).rstrip("\n"))

    def list_moves(self, moves):
        """The legal moves numbered from 1, in columns (a turn can offer dozens)."""
        width = max(len(t) for t in moves) + 7
        per_row = max(1, 110 // width)
        for i in range(0, len(moves), per_row):
            self.echo("".join(f"{j + 1:4d}. {moves[j]:<{width - 6}}" for j in range(i, min(i + per_row, len(moves))))
                      .rstrip())

    def hint(self, s, seat):
        from .. import solvers

        v = self.view(s, seat)
        hidden = solvers.engine.hidden_information(v)
        search = solvers.ismcts if hidden else solvers.mcts
        r = search(v, iterations=self.hint_iterations, seed=_mix(self.seed, len(self.rec.moves), 3) & 0x7FFFFFFF,
                   threads=self.threads)
        for m in sorted(r.moves, key=lambda m: -m.visits)[:3]:
            self.echo(f"  hint: {m.text:<28} win {100 * m.win[seat]:5.1f}%  visits {m.visits:,}")
        how = "value model" if r.evaluation == "model" else f"{r.evaluation} playouts"
        self.echo(f"  hint: play {r.best_text}  ({how})")

    # The game.
    def run(self) -> str:
        """Play to the end or to `quit`; return "over" or "quit". The record is saved either way."""
        s = self.rec.replay()
        shown = None
        while not s.is_terminal():
            k = len(self.rec.moves)
            if s.is_chance():
                s = self.rec.add_sampled(_mix(self.seed, k, 1))
                self.echo(f"chance: {self.rec.moves[-1]['move']}")
                continue
            seat = s.current_player
            bot = self.bots[seat]
            if bot is not None:
                m = bot.choose(s, _mix(self.seed, k, 2))
                s = self.rec.add(s.move_to_string(m))
                self.echo(f"seat {seat} ({self.seating[seat]}) plays {self.rec.moves[-1]['move']}")
                continue
            moves = [s.move_to_string(m) for m in s.legal_moves()]
            if shown != k:
                self.board(s, seat)
                self.list_moves(moves)
                shown = k
            self.echo(f"seat {seat}, your move (number, notation, hint, undo, board, moves, help, quit): ", nl=False)
            line = self.read_line()
            if line is None:   # end of input
                self.echo("")
                line = "quit"
            line = line.strip()
            self.echo(line)
            if line in ("quit", "q", "exit"):
                self.save()
                return "quit"
            if line in ("help", "?", ""):
                self.echo(HELP)
            elif line == "hint":
                self.hint(s, seat)
            elif line == "board":
                self.board(s, seat)
            elif line == "moves":
                self.list_moves(moves)
            elif line == "undo":
                s, shown = self.undo(seat, s), None
            else:
                text = moves[int(line) - 1] if line.isdigit() and 1 <= int(line) <= len(moves) else line
                try:
                    s = self.rec.add(text)
                except InputError as exc:
                    self.echo(f"not played: {exc} (type help)")
                    continue
                self.echo(f"seat {seat} (you) plays {self.rec.moves[-1]['move']}")
        self.board(s, 0 if not self.rs.HIDDEN_INFORMATION else self.seating.index(None))
        scores = list(s.scores())
        self.echo("game over: scores " + " / ".join(str(x) for x in scores)
                  + "; winner " + ", ".join(f"seat {p}" for p, r in enumerate(s.returns()) if r > 0))
        self.save()
        return "over"

    def undo(self, seat, s):
        """Back to before this seat's previous decision (the bots' and chance's moves after it go too)."""
        mine = [k for k, e in enumerate(self.rec.moves) if e["seat"] == seat]
        if not mine:
            self.echo("nothing to undo: you have not moved yet")
            return s
        self.rec.undo(len(self.rec.moves) - mine[-1])
        self.echo(f"undone back to move {mine[-1] + 1}")
        return self.rec.replay()

    def save(self):
        self.rec.save(self.out)
        self.echo(f"record saved to {self.out} ({len(self.rec.moves)} moves)")


def play_human(game, bots, human, players, seed, threads, out, edition, hint_iterations):
    seating = _seating(human, bots, players)
    if out is None:
        out = datetime.datetime.now().strftime("game-%Y%m%d-%H%M%S.json")
    elif out.endswith(("/", os.sep)) or os.path.isdir(out):
        os.makedirs(out, exist_ok=True)
        out = os.path.join(out, "game-001.json")
    def read_line():
        line = sys.stdin.readline()   # looked up per line: a test runner swaps sys.stdin
        return None if line == "" else line

    g = HumanGame(game, seating, seed, threads, edition, hint_iterations, out,
                  echo=lambda text, nl=True: click.echo(text, nl=nl), read_line=read_line)
    g.rec.save(out)   # an --out that cannot be written fails now, not after the game
    g.run()
