"""--json output: strict JSON (no NaN/Infinity), a "format" field naming the command and its
version, `move` always the notation and `move_id` the integer id (docs/json.md)."""
import pytest

from cli_helpers import run, strict_json

COMMANDS = {
    "show": ["show", "example:inventors-mid", "--json"],
    "moves": ["moves", "example:inventors-mid", "--json"],
    "examples": ["examples", "--json"],
    "suggest": ["suggest", "example:inventors-mid", "--iterations", 60, "--json"],
    "endgame": ["endgame", "example:inventors-late", "--json"],
    "play": ["play", "--bots", "random,greedy", "--games", 1, "--json"],
    "bench": ["bench", "--games", 20, "--players", 2, "--core-only", "--json"],
}


def moves_in(obj):
    """Every dict in `obj` that names a move."""
    if isinstance(obj, dict):
        if "move" in obj or "move_id" in obj:
            yield obj
        for v in obj.values():
            yield from moves_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from moves_in(v)


VERSIONS = {"endgame": 2}   # endgame/2: the solver, bounds and proofs (docs/json.md)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_json_is_strict_versioned_and_named_alike(command):
    r = run(*COMMANDS[command])
    assert r.exit_code == 0, r.stderr
    doc = strict_json(r.stdout)
    assert doc["format"] == f"atelier.{command}/{VERSIONS.get(command, 1)}"
    for m in moves_in(doc):
        assert isinstance(m["move"], str) and isinstance(m["move_id"], int), m


def test_suggest_json_unvisited_moves_are_null():
    # 60 iterations over 134 moves: most are never visited; their interval was Infinity before.
    doc = strict_json(run(*COMMANDS["suggest"]).stdout)
    unvisited = [m for m in doc["moves"] if m["visits"] == 0]
    assert unvisited
    assert all(m["win"] is None and m["win_ci"] is None and m["score"] is None for m in unvisited)
    best = doc["moves"][doc["best_index"]]
    assert best["move"] == doc["best"] and best["move_id"] == doc["best_move_id"]


def test_endgame_json_line_is_moves():
    doc = strict_json(run(*COMMANDS["endgame"]).stdout)
    assert doc["too_large"] is False and doc["best"] == doc["moves"][doc["best_index"]]["move"]
    assert doc["line"] and all(set(step) == {"move", "move_id", "chance", "seat"} for step in doc["line"])
    assert doc["line"][0]["move"] == doc["best"]


def test_endgame_too_large_json():
    r = run("endgame", "example:inventors-mid", "--max-nodes", 1000, "--json")
    assert r.exit_code == 3
    doc = strict_json(r.stdout)
    assert doc["format"] == "atelier.endgame/2" and doc["too_large"] is True
    assert doc["nodes"] >= 1 and doc["message"].startswith("too large")


def test_play_json_one_game_interval_is_null():
    # One game per bot: no interval (was NaN, invalid JSON).
    doc = strict_json(run(*COMMANDS["play"]).stdout)
    assert all(s["win_ci"] is None for s in doc["summary"])
    assert "records" not in doc


def test_endgame_says_what_its_objective_means_and_who_moves_in_the_line():
    """The title explains the objective; the line names the seat of every move (the JSON too),
    replayable from the position; and it is called one of the optimal lines."""
    import atelier

    r = run("endgame", "example:inventors-late")
    assert r.exit_code == 0, r.output
    assert "(objective win: each seat maximises its win share, ties split)" in " ".join(r.stdout.split())
    line = next(x for x in r.stdout.splitlines() if x.startswith("line: "))
    assert "one of the optimal lines" in r.stdout
    doc = strict_json(run("endgame", "example:inventors-late", "--json").stdout)
    s = atelier.load_position("example:inventors-late")
    steps = []
    for step in doc["line"]:
        assert step["seat"] == (None if step["chance"] else s.current_player)
        steps.append(f"chance {step['move']}" if step["chance"] else f"seat {step['seat']} {step['move']}")
        s.apply(step["move"])
    assert line == "line: " + ", ".join(steps)
    assert len({st["seat"] for st in doc["line"]}) == 2
    margin = run("endgame", "example:inventors-late", "--objective", "margin")
    assert "its score minus the best other score" in " ".join(margin.stdout.split())
