"""The search on Legendary Inventors through the public API (skipped until atelier._core is built)."""
import json
import random

import pytest

pytest.importorskip("atelier._core")
import atelier  # noqa: E402
from atelier import match, solvers  # noqa: E402
from atelier.errors import InputError  # noqa: E402
from solver_helpers import brute, brute_minimax  # noqa: E402


def play_to_end(players, seed):
    """A random game; the decisions after the last reveal (no chance node among them)."""
    s = atelier.open("inventors", players=players, seed=seed).start()
    rnd = random.Random(seed)
    tail, k = [], 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(seed * 100 + k)
            tail, k = [], k + 1
            continue
        tail.append(s.clone())
        s.apply(rnd.choice(s.legal_moves()))
    return tail


def late_positions(players, max_nodes=4000, count=2):
    """Small late-game positions: the earliest of each random game's tail still under budget."""
    out = []
    for seed in range(1, 40):
        tail = play_to_end(players, seed)
        best = None
        for back in range(2, len(tail) + 1):
            try:
                x = solvers.expectimax(tail[-back], max_nodes=max_nodes, prune=False)
            except solvers.TooLarge:
                break
            if len(x.moves) > 1:
                best = tail[-back]
        if best is not None:
            out.append(best)
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("objective", ["win", "margin"])
def test_expectimax_equals_brute_force(players, objective):
    positions = late_positions(players)
    assert positions
    for s in positions:
        x = solvers.expectimax(s, objective=objective)
        for m in x.moves:
            obj, win, score = brute(s.child(m.move), objective)
            assert all(abs(a - b) < 1e-9 for a, b in zip(m.value, obj)), m.text
            assert all(abs(a - b) < 1e-9 for a, b in zip(m.win, win)), m.text
            assert all(abs(a - b) < 1e-9 for a, b in zip(m.score, score)), m.text


@pytest.mark.parametrize("objective", ["win", "margin"])
def test_two_players_equals_expectiminimax(objective):
    for s in late_positions(2, count=3):
        for paranoid in (False, True):
            x = solvers.expectimax(s, objective=objective, paranoid=paranoid)
            for m in x.moves:
                v0 = brute_minimax(s.child(m.move), objective)
                assert abs(m.value[0] - v0) < 1e-9
                assert abs(m.value[1] - (1.0 - v0 if objective == "win" else -v0)) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_mcts_converges_on_endgames(players):
    for s in late_positions(players, max_nodes=20000):
        exact = solvers.expectimax(s)
        r = solvers.mcts(s, iterations=50_000, seed=1)
        p = s.current_player
        assert exact.moves[r.best_index].value[p] >= exact.best.value[p] - 0.05
        for m, e in zip(r.moves, exact.moves):
            if m.visits >= 0.2 * r.iterations:
                assert abs(m.value[p] - e.value[p]) <= 0.05


def test_mcts_deterministic_and_threads_reproducible():
    s = atelier.open("inventors", players=4, seed=1).start()
    a = solvers.mcts(s, iterations=3000, seed=9)
    b = solvers.mcts(s, iterations=3000, seed=9)
    assert a.signature == b.signature and a.best_move == b.best_move
    t1 = solvers.mcts(s, iterations=3000, seed=9, threads=2)
    t2 = solvers.mcts(s, iterations=3000, seed=9, threads=2)
    assert t1.signature == t2.signature and t1.best_move in s.legal_moves()
    assert sum(m.visits for m in t1.moves) == 3000


def test_ismcts_reduces_to_mcts_on_perfect_information():
    s = atelier.open("inventors", players=3, seed=2).start()
    r = solvers.ismcts(s, iterations=2000, seed=1)
    assert r.best_move in s.legal_moves() and r.iterations == 2000


def test_refusals():
    g = atelier.open("inventors", players=3, seed=2)
    with pytest.raises(InputError, match="chance"):
        solvers.mcts(g.core.initial_state(), iterations=10)
    with pytest.raises(InputError, match="chance"):
        solvers.expectimax(g.core.initial_state())
    s = g.start()
    with pytest.raises(solvers.TooLarge, match="too large"):
        solvers.expectimax(s, max_nodes=5000)


@pytest.mark.parametrize("bots, floor", [
    (["mcts:200", "random"], 0.7),
    (["mcts:200", "random", "random", "random"], 0.5),
    (["greedy", "random", "random", "random"], 0.6),
])
def test_strength(bots, floor):
    games = 8 if bots[0].startswith("mcts") else 40
    r = match.play("inventors", bots, games=games, seed=3)
    assert r.summary[0].win_share >= floor, r.summary


def test_cli_suggest_endgame_play(tmp_path):
    from click.testing import CliRunner

    from atelier.cli import main

    start = tmp_path / "start.json"
    start.write_text(atelier.dump_position(atelier.open("inventors", players=3, seed=1).start()))
    run = CliRunner().invoke
    r = run(main, ["suggest", str(start), "--iterations", "500", "--seed", "1"])
    assert r.exit_code == 0, r.output
    best = r.output.strip().splitlines()[-1]
    assert best in [atelier.load_position(start).move_to_string(m)
                    for m in atelier.load_position(start).legal_moves()]
    r = run(main, ["suggest", str(start), "--iterations", "500", "--threads", "2", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["iterations"] == 500
    late = tmp_path / "late.json"
    late.write_text(atelier.dump_position(late_positions(3, count=1)[0]))
    r = run(main, ["endgame", str(late), "--json"])
    assert r.exit_code == 0 and not json.loads(r.output)["too_large"]
    r = run(main, ["endgame", str(start), "--max-nodes", "100"])
    assert r.exit_code == 3 and "too large for exact search" in r.output
    out = tmp_path / "res.json"
    r = run(main, ["play", "--bots", "greedy,random", "--games", "4", "--out", str(out), "--json"])
    assert r.exit_code == 0 and len(json.loads(out.read_text())["records"]) == 4
    g = atelier.open("inventors", players=3, seed=2)
    chance = tmp_path / "chance.json"
    chance.write_text(atelier.dump_position(g.core.initial_state()))
    s = g.start()
    rnd = random.Random(1)
    while not s.is_terminal():
        s.sample_chance(rnd.randrange(1000)) if s.is_chance() else s.apply(rnd.choice(s.legal_moves()))
    over = tmp_path / "over.json"
    over.write_text(atelier.dump_position(s))
    for args, word in ((["suggest", str(chance)], "chance"), (["endgame", str(chance)], "chance"),
                       (["suggest", str(over)], "over"), (["endgame", str(over)], "over"),
                       (["suggest", str(start), "--iterations", "0"], "iterations"),
                       (["suggest", str(start), "--time", "-1"], "time"),
                       (["suggest", str(start), "--threads", "0"], "threads"),
                       (["endgame", str(start), "--max-nodes", "0"], "--max-nodes"),
                       (["play", "--bots", "greedy,wizard", "--games", "2"], "wizard")):
        r = run(main, args)
        assert r.exit_code == 2 and word in r.output, (args, r.output)
        assert len(r.output.strip().splitlines()) == 1
