"""Every move prints as written (issue 21): rich once turned Leonardo's `:a:` / `:b:` into emoji
(`place:b:2` as `place🅱2`). For every ruleset, at random states of a random game, every legal
move comes out of `suggest`, `play --human` (its numbered list), `record show`, `review` and
`replay` byte for byte as `atelier moves` prints it."""
import random
import re

import pytest

import atelier
from atelier import records
from atelier.solvers import make_bot
from cli_helpers import run

EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF]")
GAMES = [("inventors", 3), ("leonardo", 4), ("craftsmen", 3)]


def _game(game, players, seed, length):
    """A record of a random game's first `length` moves."""
    s = atelier.open(game, players=players, seed=seed).start()
    rec = records.new(s)
    bot = make_bot("random")
    for k in range(length):
        if s.is_terminal():
            break
        s = rec.add_sampled(seed * 1000 + k) if s.is_chance() else rec.add(s.move_to_string(bot.choose(s, k)))
    return rec


def _moves(path):
    r = run("moves", path)
    assert r.exit_code == 0, r.output
    return r.stdout.splitlines()


@pytest.mark.parametrize("game,players", GAMES)
def test_every_legal_move_prints_as_written(game, players, tmp_path):
    rec = _game(game, players, 11, 160)
    rng = random.Random(5)
    rec.save(tmp_path / "rec.json")
    decisions = [k for k, e in enumerate(rec.moves) if e["seat"] != "chance"]
    for k in sorted(rng.sample(decisions, 3)):
        s = rec.replay(k)
        pos = tmp_path / f"p{k}.json"
        pos.write_text(atelier.dump_position(s))
        legal = _moves(pos)
        assert legal == [s.move_to_string(m) for m in s.legal_moves()]
        # suggest: every move in the table's first column, as written.
        r = run("suggest", pos, "--iterations", 30, "--top", 1000, "--seed", 1)
        assert r.exit_code == 0, r.output
        assert not EMOJI.search(r.stdout)
        first = [line.split()[0] for line in r.stdout.splitlines() if line.strip()]
        assert set(legal) <= set(first), set(legal) - set(first)
        # play --human from this position: the numbered list is the legal moves, in order.
        r = run("play", "--start", pos, "--human", s.current_player, "--bots", "random",
                "--out", tmp_path / f"h{k}.json", input="quit\n")
        assert r.exit_code == 0, r.output
        numbered = re.findall(r"\d+\. (\S+)", r.stdout.split("your move")[0])
        assert numbered == legal and not EMOJI.search(r.stdout)
        # replay: the position after k moves lists the same moves; its board has no emoji.
        r = run("replay", tmp_path / "rec.json", "--to", k)
        (tmp_path / "r.json").write_text(r.stdout)
        assert _moves(tmp_path / "r.json") == legal
        board = run("replay", tmp_path / "rec.json", "--to", k, "--board").stdout
        assert board and not EMOJI.search(board)


@pytest.mark.parametrize("game,players", GAMES)
def test_record_show_and_review_print_the_moves_as_written(game, players, tmp_path):
    rec = _game(game, players, 12, 24)
    path = tmp_path / "rec.json"
    rec.save(path)
    r = run("record", "show", path)
    assert r.exit_code == 0, r.output
    shown = re.findall(r"^\s*\d+\. (?:chance|seat \d+)\s+(\S+)", r.stdout, re.M)
    assert shown == [e["move"] for e in rec.moves]
    r = run("review", path, "--iterations", 10, "--exact-nodes", 0, "--seed", 1)
    assert r.exit_code == 0, r.output
    assert not EMOJI.search(r.stdout)
    table = r.stdout.split("per seat")[0]   # the decisions' table, not the per-seat summary
    rows = [[c.strip() for c in line.split("│")] for line in table.splitlines() if line.startswith("│")]
    played = {int(row[1]): row[3] for row in rows if len(row) > 4 and row[1].isdigit() and row[3]}
    decisions = {k + 1: e["move"] for k, e in enumerate(rec.moves) if e["seat"] != "chance"}
    assert played == decisions


def test_every_console_comes_from_the_one_place():
    """Only atelier.console makes rich Consoles (no emoji codes, no markup there)."""
    from pathlib import Path

    from atelier.console import make_console

    src = Path(atelier.__file__).parent
    makers = [str(p.relative_to(src)) for p in src.rglob("*.py") if re.search(r"\bConsole\(", p.read_text())]
    assert makers == ["console.py"], makers
    c = make_console(width=80)
    with c.capture() as cap:
        c.print("place:b:2 [bold]x[/bold] :smile:")
    assert cap.get() == "place:b:2 [bold]x[/bold] :smile:\n"
