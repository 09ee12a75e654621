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
    assert "cannot write" in one_error_line(run("play", "--bots", "random,random", "--out", tmp_path))


def test_a_match_that_fails_after_the_check_leaves_no_file(tmp_path):
    out = tmp_path / "r.json"
    # --out passes the check (which creates the file), then the edition fails: nothing left behind.
    one_error_line(run("play", "--bots", "random,random", "--out", out, "--edition", tmp_path / "no.json"))
    assert not out.exists()


def replay(record, edition=None):
    """A game rebuilt from its record with the public API only: start, then every move."""
    s = atelier.open("inventors", players=len(record["seating"]), seed=record["seed"], edition=edition).start()
    for mv in record["moves"]:
        s.apply(mv)
    return s


def test_records_replay_to_the_same_scores(tmp_path):
    out = tmp_path / "games.json"
    r = run("play", "--bots", "greedy,random,random", "--games", 3, "--seed", 4, "--out", out)
    assert r.exit_code == 0, r.stderr
    doc = strict_json(out.read_text())
    assert doc["format"] == "atelier.play.records/1" and len(doc["records"]) == 3
    for rec in doc["records"]:
        assert [doc["bots"][b] for b in rec["seating"]] == rec["bots"]
        reveals = [m for m in rec["moves"] if m.startswith("reveal:")]
        assert len(reveals) == 2          # Ages II and III (Age I is in the start position)
        end = replay(rec)
        assert end.is_terminal() and end.scores() == rec["scores"] and end.returns() == rec["returns"]
        assert match.replay(rec, "inventors").scores() == rec["scores"]


def test_records_replay_with_the_edition_they_were_played_with(tmp_path):
    from importlib import resources

    ed = json.loads((resources.files("atelier") / "data" / "editions" / "inventors.json").read_text())
    ed["notes"] = "a copy"
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(ed))
    out = tmp_path / "games.json"
    r = run("play", "--bots", "greedy,greedy", "--games", 2, "--out", out, "--edition", path)
    assert r.exit_code == 0, r.stderr
    for rec in json.loads(out.read_text())["records"]:
        assert replay(rec, edition=str(path)).scores() == rec["scores"]


def test_testgame_records_replay_through_chance_seeds():
    r = match.play("testgame", ["greedy", "random"], games=2, seed=5, keep_moves=True)
    for rec in r.records:
        assert any(isinstance(m, dict) for m in rec["moves"])   # no reveal text in the test game
        assert match.replay(rec, "testgame").scores() == rec["scores"]
