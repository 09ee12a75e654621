"""Matches between bots: seats rotated, win shares with 95% confidence intervals.

    from atelier import match
    r = match.play("inventors", ["mcts:2000", "greedy", "random", "random"], games=200, seed=1)
    print(r.table())

Games are played in blocks of n (one per seat rotation) on the same start (same seed, teams and
Age I reveal), so every bot plays every seat equally often and the deal's luck cancels out.

With keep_moves every record holds its game's moves in notation, chance outcomes included (as
the ruleset's reveal text, or {"chance_seed": S} when the ruleset cannot print one), so
`replay(record, game)` rebuilds the game move by move (docs/json.md, atelier.play.records/1).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from .errors import InputError
from .games import GAMES, ruleset
from .limits import check_seed
from .solvers import make_bot

RECORDS_FORMAT = "atelier.play.records/1"

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
        """The records and the summary as JSON (format atelier.play.records/1, docs/json.md)."""
        from .jsonfmt import strict_dumps

        text = strict_dumps({"format": RECORDS_FORMAT, **self.to_dict()}, indent=1)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as exc:
            raise InputError(f"out '{path}': cannot write ({exc.strerror})") from None


def check_writable(path: str) -> None:
    """InputError now, before hours of play, if `path` cannot be written at the end."""
    import os

    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise InputError(f"out '{path}': cannot write ({exc.strerror})") from None
    if not existed:
        os.remove(path)   # leave nothing behind if the match never finishes


def new_state_factory(game: str, players: int, edition=None):
    """start(block_seed) -> a fresh start State of `game` (any ruleset atelier knows, or the
    search's own test game: "testgame", or "testgame-sealed" with hidden plays). `edition`: an
    edition file for the ruleset (None: its bundled one)."""
    if game in ("testgame", "testgame-sealed"):
        if edition is not None:
            raise InputError(f"edition: the test game {game!r} has no editions")
        from .solvers import testgame

        g = testgame.Game(players, 8, 3, min(5, 24 // (players + 1)), game == "testgame-sealed")
        return g.dealt_state
    import atelier

    rs = atelier.ruleset(game)  # InputError for an unknown game, before any game is played
    ed = rs.load_edition(edition)   # read and checked once, not per game

    def start(block_seed: int):
        return atelier.open(game, players=players, seed=block_seed, edition=ed).start()

    return start


def _chance_text(game: str):
    """chance_text(before, after) -> the outcome as a move, or None; from the ruleset if it can."""
    if game.startswith("testgame"):
        return lambda before, after: None
    import atelier

    return getattr(atelier.ruleset(game), "chance_text", lambda before, after: None)


def _sample(s, seed: int, text_of):
    """Sample the chance event of `s` with `seed`; the outcome as a record entry."""
    before = s.clone()
    s.sample_chance(seed)
    text = text_of(before, s)
    if text is not None:
        before.apply(text)   # a record must replay: keep the text only if it gives this state
        if before == s:
            return text
    return {"chance_seed": seed}


def replay(record: dict, game: str, edition=None):
    """The final State of a game rebuilt from its record (a `play(..., keep_moves=True)` record)."""
    s = new_state_factory(game, len(record["seating"]), edition)(record["seed"])
    for i, mv in enumerate(record["moves"]):
        try:
            if isinstance(mv, dict):
                s.sample_chance(mv["chance_seed"])
            else:
                s.apply(mv)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"moves[{i}]: cannot replay {mv!r} ({exc})") from None
    return s


def check_match(game: str, bots, games: int, seed: int, threads: int = 1) -> list:
    """The bots made from their names (InputError for a bad match) before any game is played."""
    if not isinstance(bots, (list, tuple)) or not 2 <= len(bots) <= 5:
        raise InputError(f"bots: expected 2..5 bots, one per seat, got {len(bots) if isinstance(bots, (list, tuple)) else bots!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InputError(f"games: expected a positive integer, got {games!r}")
    check_seed(seed)
    made = [make_bot(b, threads=threads) for b in bots]
    check_views(game, made)
    return made


def check_views(game: str, made) -> None:
    """InputError for an mcts bot in a ruleset with hidden information: MCTS searches the full
    state it is given, so it would play knowing every hand."""
    rs = ruleset(game) if isinstance(game, str) and game.lower() in GAMES else None
    for bot in made:
        if bot.kind == "mcts" and rs is not None and rs.HIDDEN_INFORMATION:
            raise InputError(f"bot '{bot.spec}': mcts would search the hidden parts of {rs.TITLE} "
                             f"(opponents' hands, the deck order); use ismcts, which sees only its seat's view")


_MADE: dict = {}   # (game, bots, players, threads, edition) -> (bots, start, chance_text), per process


def _tools(game, bots, players, threads, edition):
    """The bots, start factory and chance text of a match, built once per process (a Ray worker
    builds them from the names on its first game)."""
    key = (game, tuple(bots), players, threads, edition)
    got = _MADE.get(key)
    if got is None:
        got = ([make_bot(b, threads=threads) for b in bots], new_state_factory(game, players, edition),
               _chance_text(game))
        if len(_MADE) > 8:
            _MADE.clear()
        _MADE[key] = got
    return got


def play_game(game: str, bots, i: int, seed: int, players: int | None = None, threads: int = 1,
              keep_moves: bool = False, edition=None, tools=None) -> dict:
    """Game `i` of the match `play(game, bots, seed=seed, ...)`, as its record. Everything about
    the game (its block, seat rotation, start seed and every move's seed) derives from `seed` and
    `i` alone, so games can be played in any order, anywhere. `edition`: a path or None (the
    bundled one). `tools`: (bots, start, chance_text) already made, else made here (cached)."""
    players = len(bots) if players is None else players
    made, start, text_of = tools if tools is not None else _tools(game, bots, players, threads, edition)
    block, rot = divmod(i, players)
    seating = [(seat + rot) % players for seat in range(players)]  # bot index per seat
    start_seed = _mix(seed, block) & 0x7FFFFFFF
    s = start(start_seed)
    k = 0
    moves = []
    while not s.is_terminal():
        if s.is_chance():
            chance_seed = _mix(seed, block, rot, k, 1)
            if keep_moves:
                moves.append(_sample(s, chance_seed, text_of))
            else:
                s.sample_chance(chance_seed)
        else:
            seat = s.current_player
            m = made[seating[seat]].choose(s, _mix(seed, block, rot, k, 2))
            if keep_moves:
                moves.append(s.move_to_string(m))
            s.apply(m)
        k += 1
    rec = {"game": i, "block": block, "seed": start_seed, "seating": seating,
           "bots": [bots[b] for b in seating], "scores": list(s.scores()),
           "returns": list(s.returns())}
    if keep_moves:
        rec["moves"] = moves
    return rec


def play(game: str, bots: list[str], games: int = 100, seed: int = 0, threads: int = 1,
         progress=None, keep_moves: bool = False, edition=None, runner=None) -> MatchResult:
    """Play `games` games of `game` between `bots` (one per seat; bot names as in
    atelier.solvers.make_bot). `progress(done, total)` after each game. `keep_moves`: every
    record holds its moves, chance outcomes included, so `replay` can rebuild it.

    `runner(game, bots, games, seed, threads, keep_moves, edition, progress)`: plays the games
    elsewhere (atelier.distributed) and returns their records in any order; the records are the
    same as here, game by game, since each depends on `seed` and its index only."""
    import time

    made = check_match(game, bots, games, seed, threads)
    bots = list(bots)
    players = len(bots)
    start = new_state_factory(game, players, edition)   # a bad edition fails here, before any game
    t0 = time.perf_counter()
    if runner is not None:
        got = runner(game, bots, games, seed, threads, keep_moves, edition, progress)
        by_index = {r["game"]: r for r in got}
        if sorted(by_index) != list(range(games)) or len(got) != games:
            raise RuntimeError(f"runner: expected games 0..{games - 1} once each, got {len(got)} records")
        records = [by_index[i] for i in range(games)]
    else:
        tools = (made, start, _chance_text(game))
        records = []
        for i in range(games):
            records.append(play_game(game, bots, i, seed, players, threads, keep_moves, edition, tools))
            if progress is not None:
                progress(i + 1, games)
    return MatchResult(game=game, bots=bots, games=games, seed=seed,
                       summary=summarize(bots, records), records=records,
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
