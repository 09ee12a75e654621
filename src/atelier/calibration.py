"""Calibrated win chances: a map from the win share a search claims for the mover to the share
the mover goes on to win, fitted on self-play games and shipped inside the model file.

Why a map at all: a value model can be calibrated on its own data (validation ECE under 0.01)
and the search built on it still overclaims. The win % a search reports for its recommended
move is a mean over that move's subtree, and in it the replies are partly exploration; in ISMCTS
the opponents' nodes do not see their own hidden cards either, so the tree's opponents are
weaker than real ones. Both flatter the mover, by some 10 points in Leonardo (docs/models.md).
The map is Platt's, on the mover's share p:

    p' = sigmoid(a * logit(p) + b)

and the other seats' shares are scaled so that the shares still sum to 1. It is monotone, so
it never changes which move is best, only what the search says about it. It is fitted (maximum
likelihood, ties counting half) on the claims a search of the stated budget made for the move it
played, against each game's outcome, and the file records that budget: the flattery depends on
it. `atelier calibrate` fits one; `suggest`, `review` and the bots apply the model's own.

Expected scores get a map of their own, fitted on the same positions. A network learns the
points its training games went on to make from a position; a search that plays better than
those games makes more, and the more so the more game is left. So the map scales the expected
gain from the position searched (the seat's points now) by one factor:

    score' = now + gain * (score - now)

which is the identity where nothing is left to gain (at the end, score = now), keeps the order of
the moves (gain > 0), and is fitted by least squares on the gains the seats went on to make.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from .errors import InputError

EPS = 1e-4          # claims are clipped to [EPS, 1 - EPS] before the logit
LIMIT = 20.0        # |a| and |b| a file may hold: beyond it the map is a step, not a calibration
GAIN_LIMIT = 10.0   # the largest score gain factor a file may hold


@dataclass
class Calibration:
    a: float = 1.0
    b: float = 0.0
    fitted: dict = field(default_factory=dict)   # how: search, games, positions, seed, ECE before and after
    gain: float = 1.0   # the expected scores' map (module doc); 1: none (files before it)

    @property
    def maps_win(self) -> bool:
        """False for the identity (a = 1, b = 0): a file that maps only the expected scores, for a
        search whose win % is already calibrated (`atelier calibrate --scores-only`)."""
        return (self.a, self.b) != (1.0, 0.0)

    def mover(self, p: float) -> float:
        """The calibrated share of a mover whose search claims `p`."""
        q = min(max(p, EPS), 1.0 - EPS)
        return 1.0 / (1.0 + math.exp(-(self.a * math.log(q / (1.0 - q)) + self.b)))

    def slope(self, p: float) -> float:
        """d mover(p) / dp, to carry a confidence half-width through the map."""
        q = min(max(p, EPS), 1.0 - EPS)
        r = self.mover(p)
        return self.a * r * (1.0 - r) / (q * (1.0 - q))

    def shares(self, win: list, mover: int) -> list:
        """Every seat's share after the map: the mover's mapped, the others' scaled to the rest."""
        p = win[mover]
        r = self.mover(p)
        rest = 1.0 - p
        n = len(win)
        return [r if i == mover else (w * (1.0 - r) / rest if rest > 1e-12 else (1.0 - r) / (n - 1))
                for i, w in enumerate(win)]

    def scores(self, score: list, now: list) -> list:
        """Every seat's expected final score after the map, given its points `now`."""
        return [n + self.gain * (s - n) for s, n in zip(score, now)]

    def to_meta(self) -> dict:
        return {"a": float(self.a), "b": float(self.b), "gain": float(self.gain), "fitted": self.fitted}

    @classmethod
    def from_meta(cls, meta) -> "Calibration":
        """From a model file's meta.calibration, every value checked (InputError, one line)."""
        if not isinstance(meta, dict):
            raise InputError("meta.calibration: must be an object {a, b, fitted}")
        a, b = meta.get("a"), meta.get("b")
        for name, v in (("a", a), ("b", b)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > LIMIT:
                raise InputError(f"meta.calibration.{name}: must be a finite number within ±{LIMIT:g}")
        if a <= 0:
            raise InputError("meta.calibration.a: must be above 0 (the map must keep the order of moves)")
        gain = meta.get("gain", 1.0)
        if isinstance(gain, bool) or not isinstance(gain, (int, float)) or not 0 < gain <= GAIN_LIMIT:
            raise InputError(f"meta.calibration.gain: must be a number in (0, {GAIN_LIMIT:g}]")
        fitted = meta.get("fitted", {})
        return cls(float(a), float(b), fitted if isinstance(fitted, dict) else {}, float(gain))


def fit(claims, outcomes, iterations: int = 50) -> Calibration:
    """Platt's (a, b) by Newton's method on the log loss of `outcomes` (1 won, 0.5 tied, 0
    lost) given the mover's `claims`; a tiny pull toward the identity (a=1, b=0) keeps it defined
    on data that separates perfectly."""
    p = np.clip(np.asarray(claims, dtype=float), EPS, 1.0 - EPS)
    y = np.asarray(outcomes, dtype=float)
    if p.shape != y.shape or p.size < 20:
        raise InputError(f"calibration: needs at least 20 claims with outcomes, got {p.size}")
    x = np.log(p / (1.0 - p))
    X = np.stack([x, np.ones_like(x)], axis=1)
    ridge = 1e-6 * len(x)
    ident = np.array([1.0, 0.0])

    def loss(t):
        z = X @ t   # log loss with soft labels, written to stay finite for any z
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * ridge * np.sum((t - ident) ** 2))

    theta, cur = ident.copy(), loss(ident)
    for _ in range(iterations):
        q = 0.5 * (1.0 + np.tanh(0.5 * (X @ theta)))   # the sigmoid, without overflow
        grad = X.T @ (q - y) + ridge * (theta - ident)
        hess = X.T @ (X * (q * (1.0 - q))[:, None]) + ridge * np.eye(2)
        step = np.linalg.solve(hess, grad)
        t = 1.0   # Newton's step, halved until the loss falls (the loss is convex: it will)
        while t > 1e-8 and loss(theta - t * step) > cur:
            t *= 0.5
        theta = theta - t * step
        new = loss(theta)
        if cur - new < 1e-12 * max(1.0, abs(cur)):
            break
        cur = new
    a, b = float(theta[0]), float(theta[1])
    if not (math.isfinite(a) and math.isfinite(b)) or a <= 0 or max(abs(a), abs(b)) > LIMIT:
        raise InputError(f"calibration: the fit is degenerate (a={a:.3g}, b={b:.3g}); "
                         "the claims do not predict the outcomes (more games?)")
    return Calibration(a, b)


def fit_gain(now, predicted, final) -> float:
    """The expected scores' gain factor (module doc): least squares of the gains the seats made
    (final - now) on the gains predicted (predicted - now), through the origin. Flat arrays of
    every seat's values at every claim."""
    now, predicted, final = (np.asarray(v, dtype=float).ravel() for v in (now, predicted, final))
    if not now.shape == predicted.shape == final.shape or now.size < 20:
        raise InputError(f"calibration: needs at least 20 expected scores with outcomes, got {now.size}")
    g_hat, g = predicted - now, final - now
    denom = float(g_hat @ g_hat)
    gain = float(g_hat @ g) / denom if denom > 0 else 1.0
    if not math.isfinite(gain) or not 0 < gain <= GAIN_LIMIT:
        raise InputError(f"calibration: the score fit is degenerate (gain {gain:.3g}); "
                         "the expected scores do not predict the final ones (more games?)")
    return gain


def ece(claims, outcomes, bins: int = 10) -> float:
    """Expected calibration error of the mover's claimed share: |mean claim - mean outcome| per
    bin of the claim (`bins` equal bins), weighted by the bin's share of positions."""
    p, y = np.asarray(claims, dtype=float), np.asarray(outcomes, dtype=float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    return float(sum(abs(p[idx == k].mean() - y[idx == k].mean()) * (idx == k).mean()
                     for k in range(bins) if (idx == k).any()))


# ---------------------------------------------------------------------------------------------
# The claims of self-play games: what a fit (and bench/judgement.py calibration) is made from
# ---------------------------------------------------------------------------------------------

def search_bot(spec: str, model=None):
    """The bot `spec` names (solvers.make_bot), handed `model` only where its search values
    leaves with one (mcts / ismcts without `:random` or `:greedy`); make_bot refuses a model
    the bot would not use."""
    from .solvers import make_bot

    uses_model = spec.split(":")[0] in ("mcts", "ismcts") and not spec.endswith((":random", ":greedy"))
    return make_bot(spec, model=model if uses_model else None)


def game_claims(job) -> list:
    """One self-play game by `bot`, every decision searched: `per_game` of its decisions drawn at
    random, each as (the mover's claimed share as reported, the same before any calibration, the
    mover's outcome, the mean absolute error of the expected final scores as reported, every
    seat's points at the decision, its expected final score before any map, its final score).
    A job is (game, players, bot spec, game index, seed, per_game, model or model path or None);
    a game depends on its index and the seed only."""
    from . import match
    from . import model as model_file

    game, players, spec, i, seed, per_game, model = job
    if isinstance(model, str):
        model = model_file.load(model)
    bot = search_bot(spec, model)
    rng = random.Random(seed * 1_000_003 + i)
    s = match.new_state_factory(game, players)(match._mix(seed, i) & 0x7FFFFFFF)
    seen, k = [], 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(match._mix(seed, i, k, 1))
        else:
            r = bot.search(s, match._mix(seed, i, k, 2))
            best, p = r.best, s.current_player
            raw = best.win_raw[p] if best.win_raw is not None else best.win[p]
            raw_score = best.score_raw if best.score_raw is not None else best.score
            seen.append((p, best.win[p], raw, list(best.score), list(s.scores()), list(raw_score)))
            s.apply(r.best_move)
        k += 1
    picked = rng.sample(seen, min(per_game, len(seen)))
    ret, sc = list(s.returns()), [float(v) for v in s.scores()]
    return [(w, raw, ret[p], float(np.mean([abs(e - f) for e, f in zip(score, sc)])), now, raw_score, sc)
            for p, w, raw, score, now, raw_score in picked]


def self_play_claims(game, players, spec, games, seed, per_game=8, model=None, workers=1, progress=None):
    """`games` self-play games' claims (game_claims), over `workers` local processes (the same
    rows for any count), in game order."""
    from .processes import run_jobs

    jobs = [(game, players, spec, i, seed, per_game, model) for i in range(games)]
    got = run_jobs(game_claims, jobs, workers, progress)
    return [row for g in got for row in g]
