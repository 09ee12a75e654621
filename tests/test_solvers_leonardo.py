"""The generic search on Leonardo da Vinci (docs/solvers.md): information-set MCTS keeps what
each seat cannot see hidden from it (Leonardo §3.5.3, §11.4), the exact endgame refuses what it
cannot solve, and the baseline bots and matches run.

Positions are found by seeded games (70% greedy, 30% random moves, so that cards complete and
the row is refilled); each finder searches a bounded range of seeds, so a change in the core's
move order moves the position, never the property tested.
"""
from __future__ import annotations

import random

import pytest

import atelier
from atelier import solvers
from atelier.solvers import engine


def _games(players=4, seeds=range(400)):
    """(seed, list of decision states, in order) of seeded mixed greedy/random games."""
    for seed in seeds:
        s = atelier.open("leonardo", players=players, seed=seed % 13).start()
        rnd = random.Random(seed)
        states = []
        while not s.is_terminal():
            if s.is_chance():
                states.append(s.clone())
                s.sample_chance(rnd.getrandbits(63))
                continue
            states.append(s.clone())
            m = s.greedy_move(rnd.getrandbits(63)) if rnd.random() < 0.7 else rnd.choice(s.legal_moves())
            s.apply(m)
        yield seed, states


def _phase(s):
    return s.fields()["phase"]


def finds(pred, players=4, seeds=range(400)):
    """Every decision state `pred(states, i)` accepts, in order, with its game's later states."""
    for _, states in _games(players, seeds):
        for i, s in enumerate(states):
            if not s.is_chance() and pred(states, i):
                yield s, states[i:]


def find(pred, players=4, seeds=range(400)):
    """The first decision state `pred(states, i)` accepts, with its game's later states."""
    for found in finds(pred, players, seeds):
        return found
    pytest.fail("no such position in the seeded games")


def before_draw(states, i):
    """The last decision before a refill draw with several outcomes, by a seat that decides
    again afterwards."""
    nxt = states[i + 1] if i + 1 < len(states) else None
    if nxt is None or not nxt.is_chance() or len(nxt.chance_outcomes()) < 2:
        return False
    o = states[i].current_player
    return any(not t.is_chance() and t.current_player == o for t in states[i + 2:])


def before_own_look(states, i):
    """A seat's decision whose next decision is its own Council reorder (action 3)."""
    o = states[i].current_player
    for t in states[i + 1:]:
        if t.is_chance():
            return False
        if t.current_player == o:
            return _phase(t) == "REORDER"
    return False


def auction(bidders):
    """A running auction with at least `bidders` bidders, at its first bid."""
    def pred(states, i):
        f = states[i].fields()
        if f["phase"] != "BID" or f["idx"] != 0:
            return False
        return len(f["pending"][f["pending_index"]][1]) >= bidders
    return pred


# ---------------------------------------------------------------------------------------------
# ISMCTS: the observer's own next decision is keyed by what it knows after the move
# ---------------------------------------------------------------------------------------------

def _tree(state, iterations, seed=1):
    t = engine.Tree(state, seed=seed, ismcts=True, max_nodes=10**6)
    t.run(iterations)
    return t


def _follow(tree, s, observer, chance_seed):
    """From s, play the other seats' most visited moves in the tree (their own information
    sets) and sample chance, up to the observer's next decision; None if the tree never got
    there."""
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(chance_seed)
            continue
        if s.current_player == observer:
            return s
        stats = tree.decision_stats(s)
        legal = set(s.legal_moves())
        seen = [(v, m) for m, v, _, _ in (stats or []) if m in legal]
        if not seen:
            return None
        s.apply(max(seen)[1])
    return None


def _next_own_decisions(tree, root, move, seeds, branch_chance=False):
    """The observer's next decisions after `move` at `root`, over determinizations of root
    for the observer (and, with branch_chance, every outcome of the first chance node met)."""
    o = root.current_player
    out = []
    for seed in seeds:
        s = root.clone()
        s.determinize(o, seed)
        s.apply(move)
        starts = [s]
        if branch_chance:
            t = _follow_to_chance(tree, s, o)
            if t is not None:
                starts = []
                for outcome, _ in t.chance_outcomes():
                    c = t.clone()
                    c.apply(outcome)   # Leonardo: apply takes a draw outcome at a chance node
                    starts.append(c)
        for c in starts:
            d = _follow(tree, c, o, seed)
            if d is not None:
                out.append(d)
    return out


def _follow_to_chance(tree, s, observer):
    while not s.is_terminal() and not s.is_chance():
        if s.current_player == observer:
            return None
        stats = tree.decision_stats(s)
        legal = set(s.legal_moves())
        seen = [(v, m) for m, v, _, _ in (stats or []) if m in legal]
        if not seen:
            return None
        s.apply(max(seen)[1])
    return s if s.is_chance() else None


def _check_own_nodes(tree, decisions, min_keys):
    """Every distinct information set of the observer among `decisions` has its own node: the
    tree found statistics under its key, holding only moves legal in it (a node shared by two
    information sets would mix their moves), and different keys have different statistics."""
    by_key = {}
    for d in decisions:
        by_key.setdefault(d.infoset_key(d.current_player), d)
    assert len(by_key) >= min_keys, len(by_key)
    stats = {}
    for key, d in by_key.items():
        st = tree.decision_stats(d)
        assert st, (d.legal_move_strings()[:4], st)   # met, and decided there more than once
        assert {m for m, _, _, _ in st} <= set(d.legal_moves())
        stats[key] = tuple(st)
    assert len(set(stats.values())) == len(stats)
    return by_key


def test_a_draw_leads_the_observer_to_different_nodes():
    root, later = find(before_draw)
    o = root.current_player
    tree = _tree(root, 20000)
    # The root move the game played led to the draw; follow every draw outcome from there.
    played = next(m for m in root.legal_moves() if _same_after(root, m, later[1]))
    decisions = _next_own_decisions(tree, root, played, range(6), branch_chance=True)
    rows = {tuple(d.fields()["row"]) for d in decisions}
    assert len(rows) >= 2     # different cards drawn ...
    by_key = _check_own_nodes(tree, decisions, min_keys=2)   # ... different nodes
    assert all(d.current_player == o for d in by_key.values())


def test_a_completion_leads_the_observer_to_different_nodes():
    # Determinizations of the root differ in the opponents' hidden labs: in some, a lab
    # completes in Phase D and its card is revealed (§5.5 D3), in others another or none. Each
    # revealed outcome is a different information set of the observer, with its own node.
    # The first position before a draw where the followed lines reveal different completions
    # and the tree went deep enough to decide at every one of them (which position that is
    # depends on the bots' play, not on the property); each then must have its own node.
    for tries, (root, later) in enumerate(finds(before_draw)):
        played = next(m for m in root.legal_moves() if _same_after(root, m, later[1]))
        tree = _tree(root, 20000)
        decisions = _next_own_decisions(tree, root, played, range(8), branch_chance=True)
        completed = {tuple(d.fields()["completed_any"]) for d in decisions}
        met = all(tree.decision_stats(d) for d in decisions)
        if (len(completed) >= 2 and met) or tries == 12:
            break
    assert len(completed) >= 2
    by_key = _check_own_nodes(tree, decisions, min_keys=len(completed))
    assert {tuple(d.fields()["completed_any"]) for d in by_key.values()} == completed


def _same_after(root, m, nxt):
    s = root.clone()
    s.apply(m)
    return s.hash == nxt.hash


# The looker's own Council action 3 (Leonardo §3.4): the top cards it is looking at are part of
# its information set, so different cards seen lead to different nodes.
def test_the_observers_own_council_look_leads_to_different_nodes():
    root, later = find(before_own_look)
    played = next(m for m in root.legal_moves() if _same_after(root, m, later[1]))
    tree = _tree(root, 20000)
    decisions = _next_own_decisions(tree, root, played, range(12))
    assert decisions and all(_phase(d) == "REORDER" for d in decisions)
    o = root.current_player
    # What the looker sees: the top cards as they lie (a move id is an order of them).
    seen = {d.infoset_key(o): tuple(d.fields()["deck"][:4]) for d in decisions}
    assert len(set(seen.values())) >= 2                 # different cards seen on top ...
    assert len(set(seen.values())) == len(seen)         # ... one information set each
    for d in decisions:                                  # ... each with its own statistics
        st = tree.decision_stats(d)
        assert st and {m for m, _, _, _ in st} <= set(d.legal_moves())


def test_what_the_observer_cannot_tell_apart_shares_one_node():
    # Determinizations of the root differ in what the observer cannot see; its next decision
    # after a public move is then one information set, one node, whatever was sampled.
    # The first position before a draw whose followed lines reach one information set from
    # different full states (which position depends on the bots' play).
    for tries, (root, later) in enumerate(finds(before_draw)):
        played = next(m for m in root.legal_moves() if _same_after(root, m, later[1]))
        tree = _tree(root, 20000)
        o = root.current_player
        decisions = _next_own_decisions(tree, root, played, range(12))
        groups = {}
        for d in decisions:
            groups.setdefault(d.infoset_key(o), []).append(d)
        shared = [g for g in groups.values() if len({d.hash for d in g}) > 1]
        if shared or tries == 8:
            break
    assert shared     # the same information set reached from different full states
    for g in shared:
        assert len({tuple(tree.decision_stats(d)) for d in g}) == 1


# ---------------------------------------------------------------------------------------------
# Sealed bids (Leonardo §5.5 D5, §3.5.3): no bidder's statistics depend on bids hidden from it
# ---------------------------------------------------------------------------------------------

def _bid_all(s):
    out = []
    for m in s.legal_moves():
        a = s.clone()
        a.apply(m)
        out.append(a)
    return out


def test_sealed_bids_no_bidder_sees_the_bids_before_it():
    root, _ = find(auction(3))
    bidders = root.fields()["pending"][root.fields()["pending_index"]][1]
    tree = _tree(root, 30000)
    second = _bid_all(root)                              # every bid of the first bidder
    third = [b for a in second for b in _bid_all(a)]     # ... then of the second
    assert len(second) >= 2 and all(_phase(a) == "BID" for a in second + third)
    for states in (second, third):
        seat = states[0].current_player
        assert all(a.current_player == seat for a in states)
        # The full states differ (a tree keyed by the full state would split here) ...
        assert len({a.hash for a in states}) == len(states)
        # ... but the bidder to move has one information set and one set of statistics.
        assert len({a.infoset_key(seat) for a in states}) == 1
        stats = [tree.decision_stats(a) for a in states]
        assert stats[0] and all(st == stats[0] for st in stats), seat
    assert len(bidders) >= 3


def test_sealed_bids_the_search_of_a_later_bidder_ignores_the_earlier_bids():
    # The second bidder's own search: the first bidder's hidden bid cannot change it.
    root, _ = find(auction(2))
    after = _bid_all(root)
    seat = after[0].current_player
    results = [solvers.ismcts(a, iterations=3000, seed=4) for a in after]
    assert len({a.hash for a in after}) == len(after) >= 2
    assert all(r.signature == results[0].signature for r in results)
    assert all(r.best_move == results[0].best_move for r in results)
    assert all(r.player == seat for r in results)


# ---------------------------------------------------------------------------------------------
# endgame: exact on a full position; on a viewpoint from turn 8, the mean of K exact solves
# ---------------------------------------------------------------------------------------------

class Viewpoint:
    """A state standing for seat `seat`'s viewpoint (its hidden parts a placeholder sample), as
    atelier.load_position returns one: the binding's `viewpoint` property, emulated here so the
    search's contract is tested whatever loads the position."""

    def __init__(self, state, seat):
        self._state = state
        self.viewpoint = seat

    def __getattr__(self, name):
        return getattr(self._state, name)

    def clone(self):
        return Viewpoint(self._state.clone(), self.viewpoint)


_LATE = {}


def late_turn9(max_nodes=4_000):
    """The earliest turn-9 decision of a seeded game, walking back from the end, whose exact
    solve takes at most `max_nodes` nodes, where the mover cannot see everything."""
    if max_nodes in _LATE:
        return _LATE[max_nodes].clone()
    for _, states in _games(seeds=range(60)):
        cands = [s for s in states if not s.is_chance() and s.fields()["turn"] == 9
                 and len(s.legal_moves()) >= 2 and engine.hidden_information(s)]
        found = None
        for s in reversed(cands):
            try:
                solvers.expectimax(s, max_nodes=max_nodes)
            except solvers.TooLarge:
                break
            found = s
        if found is not None:
            _LATE[max_nodes] = found
            return found.clone()
    pytest.fail("no late turn-9 position with hidden information")


def test_endgame_on_a_full_position_is_exact():
    s = late_turn9()
    x = solvers.expectimax(s)
    assert x.determinizations == 0 and x.viewpoint is None
    assert x.nodes > 0 and len(x.moves) == len(s.legal_moves())
    w = sum(x.best.win)
    assert abs(w - 1.0) < 1e-9


def test_endgame_on_a_viewpoint_is_the_mean_of_k_exact_determinizations():
    s = late_turn9()
    seat = s.current_player
    view = Viewpoint(s, seat)
    x = solvers.expectimax(view, seed=5)
    assert x.determinizations == solvers.DEFAULT_VIEWPOINT_DETERMINIZATIONS == 16
    assert x.viewpoint == seat
    # The same mean, by hand: each determinization of the seat's view solved exactly.
    k = x.determinizations
    means = None
    for i in range(k):
        d = s.clone()
        d.determinize(seat, engine.tree_seed(5, i + 1))
        y = solvers.expectimax(d)
        vals = [m.win[seat] for m in y.moves]
        means = vals if means is None else [a + b for a, b in zip(means, vals)]
    assert [m.win[seat] for m in x.moves] == pytest.approx([v / k for v in means], abs=1e-9)
    # ... and it depends on the seed (the samples), unlike the exact solve of the full state.
    x4 = solvers.expectimax(view, determinizations=4, seed=5)
    assert x4.determinizations == 4


def test_endgame_refuses_a_viewpoint_before_turn_8():
    s, _ = find(lambda st, i: st[i].fields()["turn"] == 3 and _phase(st[i]) == "PLACE")
    with pytest.raises(atelier.InputError) as e:
        solvers.expectimax(Viewpoint(s, s.current_player))
    msg = str(e.value)
    assert msg.startswith("endgame: the viewpoint of seat ") and "turn 3" in msg
    assert "refill draws" in msg and "\n" not in msg
    # A determinized full position before turn 8 is refused for the same reason ...
    with pytest.raises(atelier.InputError, match="refill draws"):
        solvers.expectimax(s, determinizations=2)
    # ... while the full position itself is a well-posed exact problem (here: too large).
    with pytest.raises(solvers.TooLarge):
        solvers.expectimax(s, max_nodes=1000)


def test_endgame_on_a_viewpoint_needs_a_determinization():
    s = late_turn9()
    with pytest.raises(atelier.InputError, match="^determinizations: a viewpoint"):
        solvers.expectimax(Viewpoint(s, s.current_player), determinizations=0)


def test_endgame_hooks_come_from_the_ruleset():
    from atelier.games.leonardo import exact

    s = late_turn9()
    assert solvers.ruleset_hook(s, "endgame_refusal") is exact.endgame_refusal
    assert exact.endgame_refusal(s, 0) is None and exact.endgame_refusal(Viewpoint(s, 0), 16) is None
    inv = atelier.open("inventors", players=2, seed=1).start()
    assert solvers.ruleset_hook(inv, "endgame_refusal") is None   # no hook: generic behaviour
    assert engine.position_game(inv) == "inventors" and engine.position_game(s) == "leonardo"
