"""atelier's search against OpenSpiel's Python bots, same positions, same iterations, one run.

    from atelier.openspiel import bench
    bench.compare("inventors", players=2, iterations=200, positions=5, seed=0)

Positions: decision nodes spread over one random game of the OpenSpiel adapter (seed `seed`).
On each, atelier runs `solvers.mcts` (Inventors; MCTS-Solver off, as OpenSpiel's bot does not
solve here) or `solvers.ismcts` (Leonardo, Craftsmen), one thread, random rollouts, and
OpenSpiel runs its Python `MCTSBot` / `ISMCTSBot` (RandomRolloutEvaluator with one rollout,
uct_c 2) on the adapter state, `iterations` simulations each. Wall-clock seconds per side (summed
over the positions), iterations per second, and ratio = OpenSpiel seconds / atelier seconds.
"""
from __future__ import annotations

import time

import numpy as np
import pyspiel

from ..errors import InputError
from .game import RULESETS, SHORT_NAME


def _positions(game, count, seed):
    """`count` decision states spread over one random game (the adapter's states)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.array(probs) / sum(probs))))
            continue
        decisions.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.randint(len(legal))]))
    multi = [s for s in decisions if len(s.legal_actions()) > 1] or decisions
    if count >= len(multi):
        return multi
    idx = np.linspace(0, len(multi) - 1, count).round().astype(int)
    return [multi[i] for i in idx]


def compare(game: str, players: int = 2, iterations: int = 200, positions: int = 5, seed: int = 0,
            **params) -> dict:
    """Time atelier's MCTS/ISMCTS against OpenSpiel's Python MCTSBot/ISMCTSBot (module docstring)."""
    from open_spiel.python.algorithms import ismcts, mcts

    from .. import solvers

    if game not in RULESETS:
        raise InputError(f"game: unknown game {game!r} (known: {', '.join(RULESETS)})")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise InputError(f"iterations: expected a positive integer, got {iterations!r}")
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 1:
        raise InputError(f"positions: expected a positive integer, got {positions!r}")
    hidden = RULESETS[game]["hidden"]
    os_game = pyspiel.load_game(SHORT_NAME[game], dict(params, players=players, seed=seed))
    states = _positions(os_game, positions, seed)

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if hidden:
        bot = ismcts.ISMCTSBot(os_game, evaluator, 2.0, iterations, random_state=rng)
    else:
        bot = mcts.MCTSBot(os_game, 2.0, iterations, evaluator, random_state=rng, solve=False)

    at_seconds = os_seconds = 0.0
    agree = 0
    for i, st in enumerate(states):
        core = st.core
        t0 = time.perf_counter()
        if hidden:
            res = solvers.ismcts(core, iterations=iterations, threads=1, seed=seed + i, rollout="random")
        else:
            res = solvers.mcts(core, iterations=iterations, threads=1, seed=seed + i, solver=False,
                               rollout="random")
        at_seconds += time.perf_counter() - t0
        t0 = time.perf_counter()
        action = bot.step(st.clone())
        os_seconds += time.perf_counter() - t0
        agree += int(action) == int(res.best_move)

    total = iterations * len(states)

    def side(name, seconds):
        return {"algorithm": name, "seconds": seconds, "iterations": total,
                "iterations_per_s": total / seconds if seconds > 0 else float("inf")}

    return {
        "game": game, "players": players, "positions": len(states), "iterations_per_position": iterations,
        "atelier": side("atelier.solvers." + ("ismcts" if hidden else "mcts"), at_seconds),
        "openspiel": side("open_spiel.python." + ("ISMCTSBot" if hidden else "MCTSBot"), os_seconds),
        "ratio": os_seconds / at_seconds if at_seconds > 0 else float("inf"),
        "same_move": agree,
    }


def hearts_rate(seconds: float = 1.0) -> dict:
    """OpenSpiel's own native loop, for a per-decision speed reference (`atelier bench`): whole
    games of its C++ hearts played by its C++ uniform random bots (`pyspiel.evaluate_bots`, one
    call a game, no Python per move), for `seconds` of this thread's CPU. Decisions are the
    players' moves (passes and plays, as atelier counts a playout's decisions); `moves_per_s`
    adds the chance moves (the deal, the pass direction)."""
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    states = []
    t0 = time.thread_time()
    while time.thread_time() - t0 < seconds:
        s = game.new_initial_state()
        pyspiel.evaluate_bots(s, bots, len(states))
        states.append(s)
    cpu = time.thread_time() - t0
    decisions = sum(sum(1 for h in s.full_history() if h.player >= 0) for s in states)
    moves = sum(len(s.full_history()) for s in states)
    return {"what": "OpenSpiel hearts, its C++ random bots (pyspiel.evaluate_bots)",
            "decisions_per_s": decisions / cpu, "moves_per_s": moves / cpu, "games": len(states),
            "decisions": decisions, "seconds": cpu, "openspiel": getattr(pyspiel, "__version__", None)}
