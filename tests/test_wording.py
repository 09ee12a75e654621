"""Counts and seat labels as the CLI and the boards print them: "1 game", never "1 games";
"seat 0", never "seat 0 seat 0" (atelier.wording, used by every command and board)."""
import re

import atelier
from atelier import records
from atelier.wording import count, seat_label
from cli_helpers import run

# A number then a plural noun that must be singular after 1, anywhere in printed text.
ONE_PLURAL = re.compile(r"(?<![\d.,/])\b1 (games|moves|seats|cards|cubes|tokens|Florins|apprentices|nodes|iterations|"
                        r"threads|decisions|weeks|work tokens|mechanical men)\b")
SEAT_TWICE = re.compile(r"seat (\d+) seat \1\b")


def test_count_and_seat_label():
    assert count(1, "game") == "1 game" and count(0, "game") == "0 games" and count(2, "Florin") == "2 Florins"
    assert count(12000, "node") == "12,000 nodes" and count(1, "mechanical man") == "1 mechanical man"
    assert count(3, "mechanical man") == "3 mechanical men"
    assert seat_label(0, "seat 0") == "seat 0" and seat_label(1, "") == "seat 1" and seat_label(2, "ann") == "seat 2 ann"


def test_one_game_match_and_record_show(tmp_path):
    out = tmp_path / "g.json"
    r = run("play", "--bots", "greedy,random", "--games", 1, "--seed", 3, "--out", out)
    assert r.exit_code == 0, r.output
    assert "1 game," in r.stdout and not ONE_PLURAL.search(r.stdout)
    rec = records.new(atelier.open("inventors", players=2, seed=7).start())   # default names: "seat 0", ...
    rec.add("work:boyle:I04")
    rec.save(tmp_path / "r.json")
    shown = run("record", "show", tmp_path / "r.json")
    assert shown.exit_code == 0 and shown.stdout.startswith("inventors, 2 players: seat 0, seat 1\n"), shown.stdout
    added = run("record", "add", tmp_path / "r.json")
    assert "r.json: 1 move;" in added.stderr, added.stderr


def test_boards_say_one_in_the_singular():
    """Every board of random games (all three rulesets) and the review page's header."""
    from playout_helpers import playout

    for game, players in (("inventors", 2), ("inventors", 4), ("leonardo", 3), ("leonardo", 5),
                          ("craftsmen", 2), ("craftsmen", 3), ("craftsmen", 5)):
        for st in playout(game, players, 3, lambda ply, s: ply % 23 == 0):
            text = atelier.ruleset(game).show(st, width=110, color=False)
            assert not ONE_PLURAL.search(text) and not SEAT_TWICE.search(text), text
            svg = atelier.board_svg(st)
            assert not ONE_PLURAL.search(svg), ONE_PLURAL.search(svg)
