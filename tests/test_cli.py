"""The command line: the happy paths, and every kind of bad input answered by one `error:` line
on stderr with exit code 2 and no traceback."""
import json
import subprocess
import sys

import pytest

from cli_helpers import run


@pytest.fixture
def start_file(tmp_path):
    r = run("new", "inventors", "--players", 3, "--seed", 5)
    assert r.exit_code == 0, r.stderr
    path = tmp_path / "start.json"
    path.write_text(r.stdout)
    return path


def test_new_show_moves_apply(start_file):
    doc = json.loads(start_file.read_text())
    assert doc["game"] == "inventors" and doc["players"] == 3 and doc["active"] == 0
    shown = run("show", start_file)
    assert shown.exit_code == 0 and "Age I" in shown.stdout
    listed = run("moves", start_file)
    moves = listed.stdout.split()
    assert listed.exit_code == 0 and moves and all(m.startswith("work:") for m in moves)
    as_json = json.loads(run("moves", start_file, "--json").stdout)
    assert as_json["format"] == "atelier.moves/1"
    assert [m["move"] for m in as_json["moves"]] == moves
    applied = run("apply", start_file, moves[0])
    assert applied.exit_code == 0, applied.stderr
    second = run("moves", "-", input=applied.stdout).stdout.split()[-1]  # seat 1's move
    applied = run("apply", start_file, moves[0], second)
    assert applied.exit_code == 0, applied.stderr
    after = json.loads(applied.stdout)
    assert after["active"] == 2 and sum(sum(c["cubes"]) for c in after["display"]) > 0


def test_stdin_and_examples(start_file):
    r = run("moves", "-", input=start_file.read_text())
    assert r.exit_code == 0 and r.stdout.split()
    names = [line.split()[0] for line in run("examples").stdout.splitlines()]
    assert {"example:inventors-start", "example:inventors-mid", "example:inventors-late"} <= set(names)
    for name in names:
        assert run("show", name).exit_code == 0
        assert run("moves", name).exit_code == 0


def test_apply_samples_chance_nodes_with_a_seed(tmp_path):
    import atelier

    chance = atelier.open("inventors", players=2, seed=1).initial_state()
    path = tmp_path / "chance.json"
    path.write_text(atelier.dump_position(chance))
    r = run("apply", path)
    assert r.exit_code == 0 and json.loads(r.stdout)["phase"] == "CHANCE_REVEAL"
    a, b = run("apply", path, "--seed", 3), run("apply", path, "--seed", 3)
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert json.loads(a.stdout)["phase"] == "MAIN"
    moved = run("apply", path, "--seed", 3, "rest")
    assert moved.exit_code == 2  # sampled, then REST is illegal at the start (S14)


def test_bench_json():
    r = run("bench", "--games", 20, "--players", 2, "--json", "--core-only")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["cpu_count"] >= 1
    row = out["rows"][0]
    assert row["decisions_per_s"] > 0 and row["games_per_s"] > 0
    assert out["rows"][1]["state_bytes"] <= 256 and out["rows"][1]["clone_ns"] > 0
    # --core-only: no search rows (OpenSpiel's hearts row only where OpenSpiel is installed)
    assert [r["what"] for r in out["rows"][2:]] in ([], ["OpenSpiel hearts, its C++ random bots (pyspiel.evaluate_bots)"])


def test_bench_includes_search_figures():
    r = run("bench", "--games", 20, "--players", 2, "--json")
    assert r.exit_code == 0, r.stderr
    whats = [row["what"] for row in json.loads(r.stdout)["rows"]]
    assert any(w.startswith("mcts (start)") for w in whats), whats
    assert any(w.startswith("mcts (mid-game)") for w in whats), whats
    assert any(w.startswith("expectimax") for w in whats), whats


def write(tmp_path, text, name="pos.json"):
    path = tmp_path / name
    path.write_text(text)
    return path


def mutated(start_file, tmp_path, mutate):
    doc = json.loads(start_file.read_text())
    mutate(doc)
    return write(tmp_path, json.dumps(doc), "bad.json")


BAD = {
    "malformed JSON": lambda f, t: ["show", write(t, '{"game": "inventors",')],
    "not an object": lambda f, t: ["show", write(t, "[1, 2]")],
    "missing file": lambda f, t: ["show", t / "nope.json"],
    "empty stdin": lambda f, t: ["show", "-"],
    "unknown example": lambda f, t: ["show", "example:nope"],
    "unknown game": lambda f, t: ["show", mutated(f, t, lambda d: d.update(game="chess"))],
    "unknown card": lambda f, t: ["show", mutated(f, t, lambda d: d["display"][0].update(card="I77"))],
    "level 5": lambda f, t: ["moves", mutated(
        f, t, lambda d: next(iter(d["seats"][0]["inventors"].values()))["levels"].update(P=5))],
    "impossible cube count": lambda f, t: ["moves", mutated(f, t, lambda d: d["display"][0].update(cubes=[9, 0, 0]))],
    "impossible token count": lambda f, t: ["moves", mutated(f, t, lambda d: d["bag"].update(P2=15))],
    "both forms disagree": lambda f, t: ["show", mutated(
        f, t, lambda d: d["display"][0].update(placed={"0": {"P": 1}}))],
    "unparsable move": lambda f, t: ["apply", f, "fly:away"],
    "illegal move": lambda f, t: ["apply", f, "rest"],
    "reveal outside chance": lambda f, t: ["apply", f, "reveal:I01=P2+P2"],
    "unknown game for new": lambda f, t: ["new", "chess"],
    "unknown team": lambda f, t: ["new", "inventors", "--teams", "green,orange"],
    "team count": lambda f, t: ["new", "inventors", "--players", 3, "--teams", "green,red"],
    "missing edition": lambda f, t: ["new", "inventors", "--edition", t / "ed.json"],
    "bad edition": lambda f, t: ["new", "inventors", "--edition", write(t, '{"game": "inventors"}', "ed.json")],
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_exit_2(case, start_file, tmp_path):
    r = run(*BAD[case](start_file, tmp_path), input="")
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert r.stdout == ""


def test_real_process_has_no_traceback(tmp_path):
    # Through a real interpreter too: exceptions must not escape as tracebacks outside CliRunner.
    bad = write(tmp_path, '{"game": "inventors", "format": 1, "players": 9}')
    p = subprocess.run([sys.executable, "-m", "atelier", "show", str(bad)], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip() == "error: players: 9 is out of range 2..5"
