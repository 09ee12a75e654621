"""The command line on Craftsmen: new, show, moves, apply (decisions and DRAW(..) outcomes),
play, suggest (ISMCTS), endgame's refusal before the last winter; bad positions and
moves are one `error:` line naming the field, exit code 2."""
import copy
import json

import pytest

import atelier
from cli_helpers import one_error_line, run


@pytest.fixture
def start(tmp_path):
    r = run("new", "craftsmen", "--players", 3, "--seed", 4, "--age-rank", "2,0,1")
    assert r.exit_code == 0, r.stderr
    path = tmp_path / "start.json"
    path.write_text(r.stdout)
    return path


def test_new_show_moves_apply_and_a_draw(start):
    doc = json.loads(start.read_text())
    assert doc["game"] == "craftsmen" and doc["players"] == 3 and doc["age_rank"] == [2, 0, 1]
    assert doc["phase"] == "MULLIGAN"
    shown = run("show", start)
    assert shown.exit_code == 0 and "Craftsmen · 3 players · year 1 of 3" in shown.stdout
    assert json.loads(run("show", start, "--json").stdout)["position"] == doc
    moves = run("moves", start).stdout.split()
    assert moves[0] == "KEEP" and any(m.startswith("SWAP_BASIC(") for m in moves)
    swap = next(m for m in moves if m.startswith("SWAP_BASIC("))
    at_draw = run("apply", start, swap)
    assert at_draw.exit_code == 0, at_draw.stderr
    assert json.loads(at_draw.stdout)["phase"] == "CHANCE"
    listed = run("moves", "-", input=at_draw.stdout)
    draws = listed.stdout.split()
    assert draws and all(d.startswith("DRAW(B") for d in draws) and "chance node" in listed.stderr
    after = run("apply", start, swap, draws[0].lower())   # notation is read in any case
    assert after.exit_code == 0, after.stderr
    card = draws[0][len("DRAW("):-1]
    seat = doc["actor"]
    assert card in json.loads(after.stdout)["seats"][seat]["hand"]
    a, b = run("apply", start, swap, "--seed", 5), run("apply", start, swap, "--seed", 5)
    assert a.exit_code == 0 and a.stdout == b.stdout and json.loads(a.stdout)["phase"] != "CHANCE"


def test_examples_show_and_list_moves():
    names = [line.split()[0] for line in run("examples").stdout.splitlines()]
    assert {"example:craftsmen-start", "example:craftsmen-year2-craft"} <= set(names)
    for name in ("example:craftsmen-start", "example:craftsmen-year2-craft"):
        assert run("show", name).exit_code == 0
        assert run("moves", name).stdout.split()


def test_play_with_random_and_greedy_bots():
    r = run("play", "--game", "craftsmen", "--bots", "random,greedy", "--games", 2, "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == 2 and [s["bot"] for s in out["summary"]] == ["random", "greedy"]


def test_suggest_searches_the_movers_view():
    r = run("suggest", "example:craftsmen-start", "--iterations", 300, "--seed", 1, "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["algorithm"] == "ismcts" and out["moves"]


def test_endgame_refuses_before_the_last_winter_in_one_line():
    assert "start at year 3's winter" in one_error_line(run("endgame", "example:craftsmen-start"))


def test_play_ismcts_against_greedy():
    r = run("play", "--game", "craftsmen", "--bots", "ismcts:10,greedy", "--games", 1, "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 1


def test_play_refuses_mcts_which_would_see_the_hidden_cards():
    assert "use ismcts" in one_error_line(run("play", "--game", "craftsmen", "--bots", "mcts:10,greedy", "--games", 1))


def test_bench_core_only_times_the_core():
    r = run("bench", "--game", "craftsmen", "--games", 10, "--core-only", "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["rows"][0]["games"] == 10


def bad(tmp_path, doc_or_text):
    path = tmp_path / "bad.json"
    path.write_text(doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text))
    return one_error_line(run("show", path))


def test_bad_positions_are_one_line_naming_the_field(tmp_path):
    doc = atelier.position_dict(atelier.load_position("example:craftsmen-year2-craft"))
    assert "JSON" in bad(tmp_path, json.dumps(doc)[:-3])

    d = copy.deepcopy(doc)
    d["seats"][2]["row"][0] = "B99"
    assert bad(tmp_path, d).startswith("error: seats[2].row[0]: unknown card 'B99'")

    d = copy.deepcopy(doc)
    d["money_deck"]["G3"] = d["money_deck"].get("G3", 0) + 2
    assert bad(tmp_path, d).startswith("error: money: ")

    d = copy.deepcopy(doc)
    hand = d["seats"][0]["money"]
    for t in ("P1", "P2", "P3", "G1", "G2", "G3", "B1", "B2", "B3", "R1", "R2", "R3"):
        for place in ("money_deck", "discard", "display"):
            while d[place].get(t, 0) and sum(hand.values()) < 11:
                d[place][t] -= 1
                hand[t] = hand.get(t, 0) + 1
    assert bad(tmp_path, d).startswith("error: seats[0].money: 11 cards, above the hand limit of 10")


def test_an_illegal_move_is_one_line(start):
    assert "PLACE(I)" in one_error_line(run("apply", start, "PLACE(I)"))
    assert "BUILD" in one_error_line(run("apply", start, "KEEP", "BUILD(Z1,L)"))


def test_show_draws_every_phase_with_every_card_in_place():
    import random

    rs = atelier.ruleset("craftsmen")
    s, rng = atelier.open("craftsmen", players=5, seed=11).start(), random.Random(11)
    k = 0
    while True:
        if k % 60 == 0 or s.is_chance() and k % 7 == 0 or s.is_terminal():
            text = rs.show(s, width=100)
            f = s.fields()
            for p, seat in enumerate(f["seats"]):
                for c in seat["row"] + seat["hand"]:
                    assert c in text, (k, p, c)
            if s.is_terminal():
                assert "scores: " in text and "ranking: " in text
                break
        if s.is_chance():
            s.sample_chance(k)
        else:
            s.apply(rng.choice(s.legal_moves()))
        k += 1


def test_a_bad_edition_and_another_seats_view_are_one_line(tmp_path):
    from atelier.games.craftsmen.edition import default_edition

    ed = json.loads(json.dumps(default_edition()))
    ed["ships"] = ed["ships"][:3]
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(ed))
    assert "edition: ships: " in one_error_line(run("new", "craftsmen", "--edition", path))
    assert "seat 3's view; it cannot show seat 0's" in one_error_line(
        run("view", "example:craftsmen-auction", "--seat", 0))
    assert "--age-rank" in one_error_line(run("new", "craftsmen", "--age-rank", "a,b"))
    assert "age_rank: expected a permutation" in one_error_line(run("new", "craftsmen", "--age-rank", "0,0"))


EXAMPLES = ["craftsmen-start", "craftsmen-year2-spring", "craftsmen-auction", "craftsmen-year2-craft", "craftsmen-winter"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_command_on_every_craftsmen_example(name):
    """No command meets a Craftsmen example with anything but an answer or one error line."""
    pos = f"example:{name}"
    s = atelier.load_position(pos)
    runs = [("show",), ("show", "--json"), ("moves",), ("moves", "--json"), ("view", "--seat", "1"),
            ("view", "--seat", "1", "--board"), ("apply", "--seed", "3", s.move_to_string(s.legal_moves()[0])),
            ("suggest", "--iterations", "200", "--json"), ("endgame", "--max-nodes", "20000", "--json")]
    for args in runs:
        r = run(args[0], pos, *args[1:])
        assert "Traceback" not in r.stdout + r.stderr, (args, r.stderr)
        if r.exit_code == 2:
            one_error_line(r)
        else:
            assert r.exit_code in (0, 3), (args, r.exit_code, r.stderr)
    detail = json.loads(run("show", pos, "--json").stdout)["score_detail"]
    assert [d["total"] for d in detail] == list(s.scores()) == [d["ap"] for d in detail]
    assert sorted(d["turn_position"] for d in detail) == list(range(len(detail)))


def test_the_winter_example_solves_exactly_from_its_view():
    r = run("endgame", "example:craftsmen-winter", "--determinizations", 3, "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["viewpoint"] == 1 and out["moves"]


def test_a_view_shows_no_hidden_money_value():
    r = run("show", "example:craftsmen-auction")
    assert r.exit_code == 0 and "unseen" in r.stdout
