"""Alpha-beta against expectimax on every ruleset where both apply, its bounds when stopped
early, the win/draw/loss proof, and `atelier endgame`'s choice of solver."""
import json
import random

import pytest

pytest.importorskip("atelier._core")
import atelier  # noqa: E402
from atelier import solvers  # noqa: E402
from atelier.errors import InputError  # noqa: E402
from atelier.solvers import engine  # noqa: E402
from cli_helpers import one_error_line, run  # noqa: E402
from solver_helpers import dealt, mixed_game  # noqa: E402

BUDGET = 60_000   # expectimax nodes: small positions only, so the comparison stays quick


def chance_free_positions(game, players, seeds, count, budget=BUDGET):
    """For each game, the earliest chance-free decision of its tail that expectimax still solves
    within `budget` nodes and that has a choice to make."""
    refusal = solvers.game_hook(game, "endgame_refusal")   # e.g. a Leonardo sealed-bid round
    out = []
    for seed in seeds:
        states = [s for s in mixed_game(game, players, seed) if engine.chance_free(s)
                  and (refusal is None or refusal(s, 0) is None)]
        pick = None
        for s in reversed(states):
            try:
                solvers.expectimax(s, max_nodes=budget, objective="margin")
            except solvers.TooLarge:
                break
            if len(s.legal_moves()) > 1:
                pick = s
        if pick is not None:
            out.append(pick)
        if len(out) == count:
            break
    return out


def _same_values(s, objective, paranoid=False):
    x = solvers.expectimax(s, objective=objective, paranoid=paranoid, max_nodes=10 * BUDGET)
    a = solvers.alphabeta(s, objective=objective)
    p = s.current_player
    assert a.solver == "alphabeta" and a.complete
    for mx, ma in zip(x.moves, a.moves):
        assert ma.exact and mx.move == ma.move
        assert ma.bounds[0] == pytest.approx(mx.value[p], abs=1e-9), (ma.text, objective)
        if ma.win is not None:   # the line's end agrees with the value it was proven to keep
            end = ma.win[p] if objective == "win" else ma.score[p] - max(
                v for q, v in enumerate(ma.score) if q != p)
            assert end == pytest.approx(ma.bounds[0], abs=1e-9)
    assert a.best_index == x.best_index
    return a


CASES = [("inventors", 2, range(1, 60), 6), ("leonardo", 2, range(1, 60), 3),
         ("craftsmen", 2, range(1, 40), 2)]


@pytest.mark.parametrize("game,players,seeds,count", CASES)
@pytest.mark.parametrize("objective", ["win", "margin"])
def test_alphabeta_equals_expectimax_two_players(game, players, seeds, count, objective):
    positions = chance_free_positions(game, players, seeds, count)
    if game == "craftsmen" and not positions:
        pytest.skip("no chance-free Craftsmen tail in these games (year 3's winter with one money type left)")
    assert len(positions) == count
    for s in positions:
        _same_values(s, objective)


@pytest.mark.parametrize("game,players", [("inventors", 3), ("leonardo", 3)])
@pytest.mark.parametrize("objective", ["win", "margin"])
def test_paranoid_alphabeta_equals_paranoid_expectimax(game, players, objective):
    for s in chance_free_positions(game, players, range(1, 40), 2, budget=20_000):
        x = solvers.expectimax(s, objective=objective, paranoid=True, max_nodes=10 * BUDGET)
        a = solvers.solve(s, objective=objective, paranoid=True)
        assert a.solver == "alphabeta" and a.paranoid
        p = s.current_player
        for mx, ma in zip(x.moves, a.moves):
            assert ma.bounds[0] == pytest.approx(mx.value[p], abs=1e-9)
            assert ma.value[p] == ma.bounds[0] and all(v is None for q, v in enumerate(ma.value) if q != p)


@pytest.mark.parametrize("players", [2, 3])
def test_testgame_last_trick(players):
    for seed in range(6):
        s = dealt(players, 6, 2, 3, seed, moves=2 * (players + 1))   # two tricks and their prizes
        assert engine.chance_free(s)
        for objective in ("win", "margin"):
            x = solvers.expectimax(s, objective=objective, paranoid=players > 2)
            a = solvers.solve(s, objective=objective, paranoid=players > 2)
            p = s.current_player
            assert [m.bounds[0] for m in a.moves] == pytest.approx([m.value[p] for m in x.moves])


def test_bounds_contain_the_exact_value_when_stopped_early():
    positions = chance_free_positions("inventors", 2, range(1, 30), 3)
    stopped = 0
    for s in positions:
        for objective in ("win", "margin"):
            exact = {m.move: m.bounds[0] for m in solvers.alphabeta(s, objective=objective).moves}
            for budget in (3, 20, 100, 500, 2_000):
                try:
                    r = solvers.alphabeta(s, objective=objective, max_nodes=budget)
                except solvers.TooLarge as exc:
                    r = exc.partial
                    stopped += 1
                    assert r is not None and not r.complete
                for m in r.moves:
                    lo, hi = m.bounds
                    assert lo - 1e-9 <= exact[m.move] <= hi + 1e-9, (m.text, budget)
                    assert m.exact == (lo == hi)
    assert stopped >= 6


def test_prove_gives_the_value_and_a_move_that_reaches_it():
    full_nodes = proof_nodes = 0
    for s in chance_free_positions("inventors", 2, range(1, 40), 4):
        full = solvers.alphabeta(s)
        proof = solvers.solve(s, prove=True)
        v = max(m.bounds[0] for m in full.moves)
        assert proof.prove and proof.complete and proof.root_bounds == (v, v)
        assert full.moves[proof.best_index].bounds[0] == v and proof.best.bounds == (v, v)
        for mf, mp in zip(full.moves, proof.moves):   # every other bound holds the exact value
            assert mp.bounds[0] <= mf.bounds[0] <= mp.bounds[1], mp.text
        full_nodes += full.nodes
        proof_nodes += proof.nodes
    assert proof_nodes < full_nodes


def test_auto_picks_the_solver_that_applies():
    s = chance_free_positions("inventors", 2, range(1, 20), 1)[0]
    assert solvers.solve(s).solver == "alphabeta"
    assert solvers.solve(s, solver="expectimax").solver == "expectimax"
    early = atelier.open("inventors", players=2, seed=1).start()
    while early.is_chance():
        early.sample_chance(1)
    assert not engine.chance_free(early)
    assert solvers.alphabeta_applies(early, False)
    with pytest.raises(InputError, match="alpha-beta does not apply"):
        solvers.solve(early, solver="alphabeta")
    with pytest.raises(InputError, match="alpha-beta does not apply"):
        solvers.solve(early, prove=True)
    three = chance_free_positions("inventors", 3, range(1, 20), 1, budget=20_000)[0]
    assert solvers.solve(three).solver == "expectimax"
    assert "players" in solvers.alphabeta_applies(three, False)
    with pytest.raises(InputError, match="prove"):
        solvers.solve(s, prove=True, objective="margin")


def test_cli_endgame_alphabeta(tmp_path):
    pos = "example:inventors-late"
    r = run("endgame", pos)
    assert r.exit_code == 0, r.stderr
    assert "alpha-beta exact" in r.stdout
    r = run("endgame", pos, "--prove", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["format"] == "atelier.endgame/2" and d["solver"] == "alphabeta" and d["prove"]
    assert d["complete"] and d["value_lo"] == d["value_hi"]
    assert d["moves"][d["best_index"]]["exact"]
    r = run("endgame", pos, "--max-nodes", "200", "--json")
    assert r.exit_code == 3
    d = json.loads(r.stdout)
    assert d["too_large"] and not d["partial"]["complete"]
    assert all(m["lo"] <= m["hi"] for m in d["partial"]["moves"])
    r = run("endgame", pos, "--solver", "expectimax", "--time", "30", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["solver"] == "expectimax"
    r = run("endgame", "example:inventors-start", "--prove")
    assert "alpha-beta does not apply" in one_error_line(r)


def test_inventors_score_bounds_hold_on_every_continuation_tried():
    """hi: no line passes it; a seat that never spends its VP and ST tokens keeps its current
    total, which lo never falls below (lo may be more: goals the seat's tokens reach on a turn
    it is sure of, tested against an exhaustive search in test_inventors_dominance)."""
    rnd = random.Random(5)
    for seed in range(1, 25):
        for s in mixed_game("inventors", 2 + seed % 4, seed)[::7]:
            lo, hi = s.score_bounds()
            now = s.scores()
            for k in range(4):
                t = s.clone()
                keeper = k % t.players if hasattr(t, "players") else 0
                while not t.is_terminal():
                    if t.is_chance():
                        t.sample_chance(rnd.getrandbits(63))
                        continue
                    moves = t.legal_moves()
                    if t.current_player == keeper:   # the keeper never plays a VP or ST token
                        keep = [m for m in moves if not t.move_to_string(m).startswith(("back:VP", "back:ST"))]
                        moves = keep or moves
                    t.apply(rnd.choice(moves))
                final = t.scores()
                assert all(final[q] <= hi[q] for q in range(len(final))), (seed, final, hi)
                assert final[keeper] >= now[keeper] and lo[keeper] >= now[keeper], (seed, final, lo)


@pytest.mark.parametrize("backs", [(3,), pytest.param((3, 5), marks=pytest.mark.slow)])
def test_score_bounds_and_ordering_never_change_the_values(backs):
    """Larger positions than expectimax solves here: every ordering, with and without the
    ruleset's score bounds, gives the same exact value for every move."""
    checked = 0
    for seed in (5, 8, 11):
        s = atelier.open("inventors", players=2, seed=seed).start()
        tail, k = [], 0
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(seed * 100 + k)
                k, tail = k + 1, []
                continue
            tail.append(s.clone())
            s.apply(solvers.greedy_move(s, seed + len(tail)))
        for back in backs:
            pos = tail[-back]
            ref = None
            for ordering in (engine.AB_DEFAULT_ORDERING, engine.AB_DEFAULT_ORDERING | 16, 7, 13):
                for objective in ("win", "margin"):
                    r = solvers.alphabeta(pos, objective=objective, ordering=ordering, max_nodes=5 * 10**7)
                    vals = (objective, [m.bounds for m in r.moves])
                    if ordering == engine.AB_DEFAULT_ORDERING:
                        ref = ref or {}
                        ref[objective] = vals
                    else:
                        assert vals == ref[objective], (seed, back, ordering)
            checked += 1
    assert checked == 3 * len(backs)


def test_cpu_time_limit_stops_and_reports_cpu_seconds():
    """cpu_time limits the solving thread's CPU seconds (benchmarks), and is not given with time."""
    s = atelier.open("inventors", players=2, seed=5).start()
    tail, k = [], 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(500 + k)
            k, tail = k + 1, []
            continue
        tail.append(s.clone())
        s.apply(solvers.greedy_move(s, 5 + len(tail)))
    small = solvers.alphabeta(tail[-2], cpu_time=30)
    assert small.complete and small.cpu_seconds is not None and 0 <= small.cpu_seconds < 30
    with pytest.raises(solvers.TooLarge) as info:
        solvers.alphabeta(tail[0], cpu_time=0.05, max_nodes=10**12)
    assert "CPU budget of 0.05 s" in str(info.value)
    assert info.value.partial.cpu_seconds >= 0.05
    with pytest.raises(InputError, match="not both"):
        solvers.alphabeta(tail[-2], time=1, cpu_time=1)
