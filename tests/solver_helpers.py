"""Shared helpers for the solver tests: small positions and an independent brute force."""
from __future__ import annotations

from atelier.solvers import testgame

TIE = 1e-9


def dealt(players, values, copies, hand, seed, moves=0):
    """A High-card position after the deal and first prize, then `moves` greedy plays."""
    s = testgame.Game(players, values, copies, hand).dealt_state(seed)
    k = 0
    while k < moves and not s.is_terminal():
        if s.is_chance():
            s.sample_chance(seed * 31 + k)
        else:
            s.apply(s.greedy_move())
        k += 1
    while s.is_chance():
        s.sample_chance(seed + 99)
    return s


def margins(scores):
    return [sc - max(o for j, o in enumerate(scores) if j != i) for i, sc in enumerate(scores)]


def chance_children(state):
    """[(probability, child)] at a chance node, through the public API only."""
    out = []
    for o, p in state.chance_outcomes():
        c = state.clone()
        c.apply_chance(o)
        out.append((p, c))
    return out


def brute(state, objective="win", paranoid_root=None):
    """(objective, win, score) vectors by plain enumeration, written independently of the
    engine: each seat maximises its own objective (or, paranoid, others minimise the root
    seat's); among values equal within TIE the earliest move in canonical order is kept."""
    if state.is_terminal():
        sc = [float(x) for x in state.scores()]
        win = list(state.returns())
        obj = win if objective == "win" else [float(m) for m in margins(sc)]
        return obj, win, sc
    if state.is_chance():
        acc = None
        for p, c in chance_children(state):
            v = brute(c, objective, paranoid_root)
            if acc is None:
                acc = [[0.0] * len(x) for x in v]
            for a, x in zip(acc, v):
                for i in range(len(a)):
                    a[i] += p * x[i]
        return tuple(acc)
    p = state.current_player
    best, best_key = None, None
    for m in state.legal_moves():
        v = brute(state.child(m), objective, paranoid_root)
        key = v[0][p] if paranoid_root is None or p == paranoid_root else -v[0][paranoid_root]
        if best is None or key > best_key + TIE:
            best, best_key = v, key
    return best


def brute_minimax(state, objective):
    """Two players: plain expectiminimax of seat 0's value (seat 1 minimises it)."""
    if state.is_terminal():
        sc = state.scores()
        return state.returns()[0] if objective == "win" else float(sc[0] - sc[1])
    if state.is_chance():
        return sum(p * brute_minimax(c, objective) for p, c in chance_children(state))
    vals = [brute_minimax(state.child(m), objective) for m in state.legal_moves()]
    return max(vals) if state.current_player == 0 else min(vals)


def mixed_game(game, players, seed, greedy=0.6):
    """Every decision state of one seeded game whose moves are greedy with probability
    `greedy`, else uniformly random, in order."""
    import random

    import atelier
    from atelier import solvers

    s = atelier.open(game, players=players, seed=seed).start()
    rnd = random.Random(seed)
    out = []
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(rnd.getrandbits(63))
            continue
        out.append(s.clone())
        moves = s.legal_moves()
        s.apply(solvers.greedy_move(s, rnd.getrandbits(63)) if rnd.random() < greedy else rnd.choice(moves))
    return out
