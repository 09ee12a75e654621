"""Matches between bots: seats rotated, win shares with 95% confidence intervals.

    from atelier import match
    r = match.play("inventors", ["mcts:2000", "greedy", "random", "random"], games=200, seed=1)
    print(r.table())

Games are played in blocks of n (one per seat rotation) on the same start (same seed, teams and
Age I reveal), so every bot plays every seat equally often and the deal's luck cancels out.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

from .errors import InputError
from .solvers import make_bot

_MASK = (1 << 64) - 1


def _mix(*xs: int) -> int:
    """A 64-bit seed from integers (splitmix64 chain), for per-move and per-draw seeds."""
    h = 0x9E3779B97F4A7C15
    for x in xs:
        h = (h ^ (x & _MASK)) & _MASK
        h = (h + 0x9E3779B97F4A7C15) & _MASK
        z = h
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        h = z ^ (z >> 31)
    return h


@dataclass
class BotSummary:
    bot: str
    games: int
    win_share: float        # mean win share (ties split)
    win_ci: float           # 95% half-width (normal approximation over games)
    mean_score: float
    mean_margin: float      # own score minus the best other score
    per_seat_win: list[float] = field(default_factory=list)


@dataclass
class MatchResult:
    game: str
    bots: list[str]
    games: int
    seed: int
    summary: list[BotSummary]
    records: list[dict]     # per game: block, seating (bot index per seat), scores, returns, moves
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)

    def write(self, path: str) -> None:
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f, indent=1)
                f.write("\n")
        except OSError as exc:
            raise InputError(f"out '{path}': cannot write ({exc.strerror})") from None


def new_state_factory(game: str, players: int):
    """start(block_seed) -> a fresh start State of `game` (any ruleset atelier knows, or the
    search's own test game: "testgame", or "testgame-sealed" with hidden plays)."""
    if game in ("testgame", "testgame-sealed"):
        from .solvers import testgame

        g = testgame.Game(players, 8, 3, min(5, 24 // (players + 1)), game == "testgame-sealed")
        return g.dealt_state
    import atelier

    def start(block_seed: int):
        return atelier.open(game, players=players, seed=block_seed).start()

    atelier.ruleset(game)  # InputError for an unknown game, before any game is played
    return start


def play(game: str, bots: list[str], games: int = 100, seed: int = 0, threads: int = 1,
         progress=None, keep_moves: bool = False) -> MatchResult:
    """Play `games` games of `game` between `bots` (one per seat; bot names as in
    atelier.solvers.make_bot). `progress(done, total)` after each game."""
    import time

    if not isinstance(bots, (list, tuple)) or not 2 <= len(bots) <= 5:
        raise InputError(f"bots: expected 2..5 bots, one per seat, got {len(bots) if isinstance(bots, (list, tuple)) else bots!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InputError(f"games: expected a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed: expected a non-negative integer, got {seed!r}")
    players = len(bots)
    made = [make_bot(b, threads=threads) for b in bots]
    start = new_state_factory(game, players)
    t0 = time.perf_counter()
    records = []
    for i in range(games):
        block, rot = divmod(i, players)
        seating = [(seat + rot) % players for seat in range(players)]  # bot index per seat
        s = start(_mix(seed, block) & 0x7FFFFFFF)
        k = 0
        moves = []
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(_mix(seed, block, rot, k, 1))
            else:
                seat = s.current_player
                m = made[seating[seat]].choose(s, _mix(seed, block, rot, k, 2))
                if keep_moves:
                    moves.append(s.move_to_string(m))
                s.apply(m)
            k += 1
        rec = {"game": i, "block": block, "seating": seating, "scores": list(s.scores()),
               "returns": list(s.returns())}
        if keep_moves:
            rec["moves"] = moves
        records.append(rec)
        if progress is not None:
            progress(i + 1, games)
    return MatchResult(game=game, bots=list(bots), games=games, seed=seed,
                       summary=summarize(list(bots), records), records=records,
                       seconds=time.perf_counter() - t0)


def summarize(bots: list[str], records: list[dict]) -> list[BotSummary]:
    n = len(bots)
    out = []
    for b in range(n):
        wins, scores, margins = [], [], []
        seat_w = [[] for _ in range(n)]
        for r in records:
            for seat, who in enumerate(r["seating"]):
                if who != b:
                    continue
                sc = r["scores"]
                wins.append(r["returns"][seat])
                scores.append(sc[seat])
                margins.append(sc[seat] - max(x for j, x in enumerate(sc) if j != seat))
                seat_w[seat].append(r["returns"][seat])
        g = len(wins)
        mean = sum(wins) / g if g else 0.0
        var = sum((w - mean) ** 2 for w in wins) / (g - 1) if g > 1 else 0.0
        out.append(BotSummary(
            bot=bots[b], games=g, win_share=mean,
            win_ci=1.96 * math.sqrt(var / g) if g > 1 else float("nan"),
            mean_score=sum(scores) / g if g else 0.0,
            mean_margin=sum(margins) / g if g else 0.0,
            per_seat_win=[sum(w) / len(w) if w else float("nan") for w in seat_w]))
    return out
