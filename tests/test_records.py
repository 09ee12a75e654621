"""Game records (docs/records.md): round trips for every ruleset and player count, refusal at the
first illegal move, the embedded edition, viewpoints derived from the full record, the CLI."""
import json

import pytest

import atelier
from atelier import match, records
from cli_helpers import one_error_line, run

COUNTS = [("inventors", n) for n in (2, 3, 4, 5)] + [("leonardo", n) for n in (2, 3, 4, 5)] + \
         [("craftsmen", n) for n in (2, 3, 4)]


def _record(game, n, seed=1):
    r = match.play(game, ["greedy"] + ["random"] * (n - 1), games=1, seed=seed, keep_moves=True)
    m = r.records[0]
    final = match.replay(m, game)   # the match's own replay: the state the game ended in
    return records.from_match(m, game), final


@pytest.mark.parametrize("game,n", COUNTS)
def test_play_record_replay_gives_the_final_state(game, n):
    rec, final = _record(game, n, seed=n)
    text = rec.dumps()
    again = records.from_dict(json.loads(text))   # through JSON text, as a file would be
    assert again.replay() == final
    assert again.replay().is_terminal()
    doc = json.loads(text)
    assert doc["format"] == "atelier.record/1" and doc["result"]["scores"] == list(final.scores())
    assert "edition" in doc and "edition" not in doc["start"]
    # Chance outcomes are moves in notation, never seeds.
    chance = [e for e in doc["moves"] if e["seat"] == "chance"]
    prefixes = atelier.ruleset(game).CHANCE_PREFIXES
    assert all(isinstance(e["move"], str) and e["move"].lower().startswith(prefixes) for e in chance)
    # Replaying part of the way is the same as stopping the game there.
    k = len(doc["moves"]) // 2
    s = again.start_state()
    for e in doc["moves"][:k]:
        s.apply(e["move"])
    assert again.replay(to=k) == s


def test_an_illegal_move_is_refused_at_that_move(tmp_path):
    rec, _ = _record("inventors", 2)
    doc = rec.to_dict()
    k = next(i for i, e in enumerate(doc["moves"]) if e["seat"] == 0 and i > 10)
    doc["moves"][k]["move"] = "work:nobody:I01"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    line = one_error_line(run("replay", path))
    assert f"move {k + 1} 'work:nobody:I01'" in line and "bad.json" in line
    # A move in the wrong seat's name is refused as well, at that move.
    doc = rec.to_dict()
    doc["moves"][k]["seat"] = 1
    path.write_text(json.dumps(doc))
    assert f"move {k + 1} " in one_error_line(run("record", "show", path))
    # A wrong result is refused: the moves decide it.
    doc = rec.to_dict()
    doc["result"]["scores"][0] += 1
    path.write_text(json.dumps(doc))
    assert "result.scores" in one_error_line(run("replay", path))


def test_an_edited_edition_is_the_one_replayed():
    rec, final = _record("inventors", 2, seed=5)
    doc = rec.to_dict()
    # An Age III card is not in the start position, so only the embedded edition knows it.
    card = next(c for c in doc["edition"]["inventions"] if c["age"] == 3)
    card["name"] = "Edited Engine"
    doc.pop("result")
    again = records.from_dict(json.loads(json.dumps(doc)))
    ed = again.replay().game.edition.to_dict()
    assert ed["card_names"][ed["card_ids"].index(card["id"])] == "Edited Engine"
    assert list(again.replay().scores()) == list(final.scores())


def test_a_record_from_another_edition_file_needs_no_file(tmp_path):
    ed = json.loads((atelier.examples()["inventors-mid"].parent.parent / "editions" / "inventors.json").read_text())
    ed["inventions"][0]["name"] = "Bow of the test"
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(ed))
    out = tmp_path / "games"
    r = run("play", "--bots", "greedy,random", "--games", 2, "--edition", path, "--out", f"{out}/")
    assert r.exit_code == 0, r.output
    path.unlink()   # the records carry their edition
    for name in ("game-001.json", "game-002.json"):
        rec = records.load(out / name)
        ed = rec.replay().game.edition.to_dict()
        assert "Bow of the test" in ed["card_names"]


def test_viewpoint_of_any_move_from_the_full_record(tmp_path):
    rec, _ = _record("leonardo", 3)
    path = tmp_path / "leo.json"
    rec.save(path)
    k = len(rec.moves) // 2
    r = run("replay", path, "--to", k, "--seat", 1)
    assert r.exit_code == 0, r.output
    view = json.loads(r.stdout)
    assert view["viewpoint"] == 1
    assert view == json.loads(atelier.dump_position(rec.replay(to=k), viewpoint=1))
    assert json.loads(run("replay", path, "--to", k).stdout) == atelier.position_dict(rec.replay(to=k))
    # Inventors has nothing hidden: a viewpoint is refused, one line.
    rec2, _ = _record("inventors", 2)
    rec2.save(tmp_path / "inv.json")
    assert "no hidden information" in one_error_line(run("replay", tmp_path / "inv.json", "--seat", 0))


def test_record_new_and_add_at_the_table(tmp_path):
    path = tmp_path / "table.json"
    assert run("record", "new", path, "inventors", "--players", 2, "--seed", 7, "--seats", "ann,bob").exit_code == 0
    s = atelier.open("inventors", players=2, seed=7).start()
    moves = []
    for _ in range(6):
        m = s.move_to_string(s.legal_moves()[-1])
        moves.append(m)
        s.apply(m)
    assert run("record", "add", path, *moves[:3]).exit_code == 0
    assert run("record", "add", path, *moves[3:], "--comment", "a fine move").exit_code == 0
    rec = records.load(path)
    assert rec.seats == ["ann", "bob"] and [e["move"] for e in rec.moves] == moves
    assert rec.moves[-1]["comment"] == "a fine move" and rec.replay() == s
    before = path.read_bytes()
    line = one_error_line(run("record", "add", path, s.move_to_string(s.legal_moves()[0]), "work:nobody:I01"))
    assert f"move {len(moves) + 2} 'work:nobody:I01'" in line
    assert path.read_bytes() == before   # nothing of the refused call is written
    shown = run("record", "show", path).stdout
    assert "ann" in shown and moves[-1] in shown and "a fine move" in shown
    assert "exists already" in one_error_line(run("record", "new", path, "inventors"))


def test_record_add_samples_chance_with_a_seed(tmp_path):
    path = tmp_path / "c.json"
    assert run("record", "new", path, "craftsmen", "--players", 2, "--seed", 3).exit_code == 0
    for _ in range(400):
        rec = records.load(path)
        s = rec.replay()
        if s.is_terminal():
            break
        if s.is_chance():
            assert run("record", "add", path, "--seed", 5).exit_code == 0
            rec = records.load(path)
            assert rec.moves[-1]["seat"] == "chance" and rec.moves[-1]["move"].startswith("DRAW(")
            return
        assert run("record", "add", path, s.move_to_string(s.legal_moves()[0])).exit_code == 0
    pytest.fail("no chance node reached")


def test_play_out_file_with_several_games_and_game_index(tmp_path):
    out = tmp_path / "all.json"
    assert run("play", "--bots", "greedy,random", "--games", 3, "--seed", 2, "--out", out).exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "atelier.records/1" and len(doc["records"]) == 3
    assert "pick one with --game" in one_error_line(run("replay", out))
    final = json.loads(run("replay", out, "--game", 2, "--json").stdout)
    assert final["terminal"] and final["scores"] == doc["records"][1]["result"]["scores"]
    assert "--game" in one_error_line(run("replay", out, "--game", 4))


@pytest.mark.parametrize("text,needle", [
    ("{", "record"),
    ('{"format": "atelier.record/9"}', "format"),
    ('{"format": "atelier.record/1", "game": "chess", "players": 2, "seats": ["a","b"], "edition": {}, '
     '"start": {}, "moves": []}', "game"),
    ('{"format": "atelier.record/1", "game": "inventors", "players": 2, "seats": ["a"], "edition": {}, '
     '"start": {}, "moves": []}', "seats"),
])
def test_malformed_records_are_one_line_errors(tmp_path, text, needle):
    path = tmp_path / "r.json"
    path.write_text(text)
    assert needle in one_error_line(run("replay", path))


REPRO = __import__("pathlib").Path(__file__).parent / "repro"


def test_a_result_beside_unfinished_moves_is_refused():
    """The repro: a `result` with moves that stop before the end was accepted and the result
    silently ignored."""
    line = one_error_line(run("replay", REPRO / "inventors-record-result-unfinished.json"))
    assert line.startswith("error: record") and ".result: the record's" in line and "do not finish" in line


@pytest.mark.parametrize("game", ["inventors", "leonardo", "craftsmen"])
def test_a_result_is_checked_against_the_moves(game, tmp_path):
    rec, final = _record(game, 2)
    doc = rec.to_dict()
    assert doc["result"]["scores"] == list(final.scores())
    assert records.from_dict(json.loads(json.dumps(doc))).replay() == final   # a finished record loads
    unfinished = dict(doc, moves=doc["moves"][:-1])
    with pytest.raises(atelier.InputError, match=r"record\.result: the record's \d+ moves do not finish"):
        records.from_dict(unfinished)
    records.from_dict({k: v for k, v in unfinished.items() if k != "result"})   # without it: fine
    for bad, needle in [("won", "expected an object"), ({"scores": [0] * 2}, "result.scores")]:
        with pytest.raises(atelier.InputError, match=needle):
            records.from_dict(dict(doc, result=bad))
