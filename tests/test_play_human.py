"""`atelier play --human`: a whole game against bots driven through stdin, written as a record."""
import json

import pytest

from atelier import records
from cli_helpers import one_error_line, run


@pytest.mark.parametrize("game,players", [("inventors", 2), ("leonardo", 3), ("craftsmen", 2)])
def test_a_scripted_game_against_bots_writes_a_valid_record(tmp_path, game, players):
    out = tmp_path / "me.json"
    bots = "greedy" if game == "inventors" else "ismcts:20"
    # help, a bad move, a hint, an undo with nothing to undo; then moves by number (the first legal
    # move) and by text is not needed: "1" until the game ends. Extra lines are never read.
    script = "help\nnot-a-move\nhint\nundo\n" + "1\n" * 3000
    r = run("play", "--game", game, "--human", 0, "--players", players, "--bots", bots, "--seed", 2,
            "--hint-iterations", 50, "--out", out, input=script)
    assert r.exit_code == 0, r.output
    assert "hint: play" in r.stdout and "not played:" in r.stdout and "nothing to undo" in r.stdout
    assert "game over: scores" in r.stdout and f"record saved to {out}" in r.stdout
    rec = records.load(out)
    assert rec.seats[0] == "you" and rec.replay().is_terminal()
    assert any(e["seat"] == 1 for e in rec.moves) and any(e["seat"] == 0 for e in rec.moves)
    doc = json.loads(out.read_text())
    assert doc["result"]["scores"] == list(rec.replay().scores())


def test_undo_and_quit_save_an_unfinished_record(tmp_path):
    out = tmp_path / "q.json"
    r = run("play", "--human", 1, "--bots", "greedy", "--seed", 4, "--out", out,
            input="1\n2\nundo\nundo\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("undone back to move") == 2
    rec = records.load(out)
    mine = [e for e in rec.moves if e["seat"] == 1]
    assert len(mine) == 1 and not rec.replay().is_terminal()


def test_end_of_input_is_quit(tmp_path):
    out = tmp_path / "eof.json"
    r = run("play", "--human", 0, "--bots", "greedy", "--out", out, input="")
    assert r.exit_code == 0 and "record saved" in r.stdout
    assert records.load(out).moves == []


def test_human_options_are_checked(tmp_path):
    assert "--bots" in one_error_line(run("play", "--human", 0, "--players", 3, "--bots", "greedy,greedy,greedy"))
    assert "--human" in one_error_line(run("play", "--human", 4, "--bots", "greedy"))
    assert "ismcts" in one_error_line(run("play", "--game", "leonardo", "--human", 0, "--bots", "mcts:10",
                                          "--out", tmp_path / "x.json"))
