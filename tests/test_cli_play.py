"""`atelier play --out`: the file is checked before any game is played, and its records replay."""
import json

import atelier
from atelier import match
from cli_helpers import one_error_line, run, strict_json


def test_unwritable_out_fails_before_playing(tmp_path, monkeypatch):
    def must_not_play(*a, **k):
        raise AssertionError("played before checking --out")

    monkeypatch.setattr(match, "play", must_not_play)
    line = one_error_line(run("play", "--bots", "random,random", "--out", tmp_path / "no" / "dir.json"))
    assert "cannot write" in line
    (tmp_path / "f").write_text("")
    assert "cannot make the folder" in one_error_line(run("play", "--bots", "random,random", "--out",
                                                          f"{tmp_path / 'f' / 'games'}/"))


def test_a_match_that_fails_after_the_check_leaves_no_file(tmp_path):
    out = tmp_path / "r.json"
    # --out passes the check (which creates the file), then the edition fails: nothing left behind.
    one_error_line(run("play", "--bots", "random,random", "--out", out, "--edition", tmp_path / "no.json"))
    assert not out.exists()


def replay(record):
    """A game rebuilt from its record (docs/records.md) with the public API only: the start
    position with the record's edition, then every move."""
    s = atelier.load_position({**record["start"], "edition": record["edition"]})
    for mv in record["moves"]:
        s.apply(mv["move"])
    return s


def test_records_replay_to_the_same_scores(tmp_path):
    out = tmp_path / "games.json"
    r = run("play", "--bots", "greedy,random,random", "--games", 3, "--seed", 4, "--out", out)
    assert r.exit_code == 0, r.stderr
    doc = strict_json(out.read_text())
    assert doc["format"] == "atelier.records/1" and len(doc["records"]) == 3
    assert doc["summary"]["format"] == "atelier.play/1" and doc["summary"]["games"] == 3
    for rec in doc["records"]:
        assert rec["format"] == "atelier.record/1"
        assert sorted(rec["seats"]) == sorted(doc["summary"]["bots"])
        reveals = [m for m in rec["moves"] if m["move"].startswith("reveal:")]
        assert len(reveals) == 2          # Ages II and III (Age I is in the start position)
        assert all(m["seat"] == "chance" for m in reveals)
        end = replay(rec)
        assert end.is_terminal() and end.scores() == rec["result"]["scores"]
        assert end.returns() == rec["result"]["returns"]


def test_one_game_is_one_record_and_a_folder_gets_one_file_per_game(tmp_path):
    one = tmp_path / "one.json"
    assert run("play", "--bots", "greedy,random", "--games", 1, "--out", one).exit_code == 0
    assert strict_json(one.read_text())["format"] == "atelier.record/1"
    folder = tmp_path / "games"
    folder.mkdir()
    assert run("play", "--bots", "greedy,random", "--games", 3, "--out", folder).exit_code == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["game-001.json", "game-002.json", "game-003.json"]
    assert replay(strict_json((folder / "game-003.json").read_text())).is_terminal()


def test_the_test_game_has_no_records(tmp_path):
    assert "no records" in one_error_line(run("play", "--game", "testgame", "--bots", "random,random",
                                              "--out", tmp_path / "t.json"))


def test_testgame_records_replay_through_chance_seeds():
    r = match.play("testgame", ["greedy", "random"], games=2, seed=5, keep_moves=True)
    for rec in r.records:
        assert any(isinstance(m, dict) for m in rec["moves"])   # no reveal text in the test game
        assert match.replay(rec, "testgame").scores() == rec["scores"]
