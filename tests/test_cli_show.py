"""`atelier show`: --color forces colour even when piped; a narrow --width keeps every datum."""
import collections
import random
import re

import pytest

import atelier
from cli_helpers import run

ANSI = "\x1b["


def test_color_is_forced_when_piped_and_off_by_default():
    # CliRunner's stdout is not a terminal, like a pipe.
    assert ANSI in run("show", "example:inventors-mid", "--color").stdout
    assert ANSI not in run("show", "example:inventors-mid").stdout
    assert ANSI not in run("show", "example:inventors-mid", "--no-color").stdout


def test_color_is_forced_on_a_dumb_terminal_too():
    assert ANSI in run("show", "example:inventors-mid", "--color", env={"TERM": "dumb"}).stdout


def words(text):
    return collections.Counter(re.findall(r"\w+", text))


def positions():
    for name in atelier.examples():
        yield f"example:{name}", atelier.load_position(f"example:{name}")
    g = atelier.open("inventors", players=5, seed=2)
    s, rnd = g.start(), random.Random(2)
    for k in range(400):
        if s.is_terminal():
            break
        if s.is_chance():
            s.sample_chance(k)
        else:
            s.apply(rnd.choice(s.legal_moves()))
        if k % 40 == 0:
            yield f"5 players, step {k}", s.clone()


@pytest.mark.parametrize("name,state", list(positions()), ids=lambda x: x if isinstance(x, str) else "")
def test_narrow_width_keeps_every_card_and_number(name, state, tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(atelier.dump_position(state))
    full = run("show", path, "--width", 200).stdout
    narrow = run("show", path, "--width", 60).stdout
    assert "…" not in narrow
    assert max(map(len, narrow.splitlines())) <= 60
    lost = words(full) - words(narrow)          # every card id, name, number, as often as before
    assert not lost, lost
