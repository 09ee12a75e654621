"""Every failure of the command line is one line `error: <field>: <reason>` with exit code 2:
click's own parsing errors, out-of-range numbers, and user text that would break the line."""
import subprocess
import sys

import pytest

from atelier.limits import SEED_MAX
from cli_helpers import one_error_line, run

USAGE = {
    "players out of range": (["new", "inventors", "--players", 6], "--players"),
    "unknown option": (["new", "inventors", "--bogus"], "--bogus"),
    "missing argument": (["apply"], "POS"),
    "missing option value": (["new", "inventors", "--players"], "--players"),
    "bad choice": (["bench", "--game", "chess"], "--game"),
    "bad choice of reward": (["suggest", "example:inventors-mid", "--reward", "most"], "--reward"),
    "unknown command": (["sugest"], "suggest"),
    "missing required option": (["play"], "--bots"),
    "not a number": (["suggest", "example:inventors-mid", "--iterations", "lots"], "--iterations"),
}


@pytest.mark.parametrize("case", list(USAGE))
def test_click_usage_errors_are_one_line(case):
    args, names = USAGE[case]
    assert names in one_error_line(run(*args))


HUGE = SEED_MAX + 1
RANGES = {
    "new --seed": (["new", "inventors", "--seed", HUGE], "0..18446744073709551615"),
    "new --seed negative": (["new", "inventors", "--seed", -1], "0..18446744073709551615"),
    "apply --seed": (["apply", "CHANCE", "--seed", HUGE], "0..18446744073709551615"),
    "suggest --seed": (["suggest", "example:inventors-mid", "--seed", HUGE], "0..18446744073709551615"),
    "play --seed": (["play", "--bots", "random,random", "--seed", HUGE], "0..18446744073709551615"),
    "bench --seed": (["bench", "--seed", HUGE], "0..18446744073709551615"),
    "play --games": (["play", "--bots", "random,random", "--games", 0], "1..1,000,000,000"),
    "bench --games": (["bench", "--games", 10**10], "1..1,000,000,000"),
    # The engine's range (visit counts are 32-bit): 10**12 was advertised, and refused later.
    "suggest --iterations": (["suggest", "example:inventors-mid", "--iterations", 0], "1..4,294,967,294"),
    "suggest --iterations above": (["suggest", "example:inventors-mid", "--iterations", 2**32 - 1], "1..4,294,967,294"),
    "review --iterations": (["review", "r.json", "--iterations", 10**12], "1..4,294,967,294"),
    "play --hint-iterations": (["play", "--bots", "random", "--human", 0, "--hint-iterations", 2**32 - 1],
                               "1..4,294,967,294"),
    "suggest --threads": (["suggest", "example:inventors-mid", "--threads", 65], "1..64"),
    "play --threads": (["play", "--bots", "random,random", "--threads", 0], "1..64"),
    "new --players": (["new", "inventors", "--players", 1], "2..5"),
    "bench --players": (["bench", "--players", 9], "2..5"),
    "suggest --memory": (["suggest", "example:inventors-mid", "--memory", 10**9], "1..65,536"),
    "suggest --top": (["suggest", "example:inventors-mid", "--top", 0], "1..100,000"),
    "show --width": (["show", "example:inventors-mid", "--width", 20], "60..1000"),
    "suggest --time": (["suggest", "example:inventors-mid", "--time", "inf"], "at most 1,000,000"),
}


@pytest.mark.parametrize("case", list(RANGES))
def test_numbers_out_of_range_say_the_range(case, tmp_path):
    import atelier

    chance = tmp_path / "chance.json"
    chance.write_text(atelier.dump_position(atelier.open("inventors", players=2, seed=1).initial_state()))
    args, accepted = RANGES[case]
    args = [chance if a == "CHANCE" else a for a in args]
    line = one_error_line(run(*args))
    option = case.split()[1]
    assert line.startswith(f"error: {option}: ") and accepted in line, line


def test_iterations_are_advertised_as_the_engine_takes_them():
    from atelier import solvers
    from atelier.limits import MAX_ITERATIONS

    assert MAX_ITERATIONS == solvers.MAX_ITERATIONS == 4_294_967_294
    for command in (["suggest"], ["review"], ["play"]):
        assert "1..4,294,967,294" in " ".join(run(*command, "--help").stdout.split())
    assert solvers.make_bot(f"mcts:{MAX_ITERATIONS}").iterations == MAX_ITERATIONS


def test_the_largest_seed_is_accepted(tmp_path):
    assert run("new", "inventors", "--seed", SEED_MAX).exit_code == 0
    import atelier

    chance = tmp_path / "chance.json"
    chance.write_text(atelier.dump_position(atelier.open("inventors", players=2, seed=1).initial_state()))
    # The bound itself is a valid seed, for a reveal too.
    r = run("apply", chance, "--seed", SEED_MAX)
    assert r.exit_code == 0, r.stderr


def test_help_still_works():
    for args in (["--help"], ["suggest", "--help"], ["play", "-h"]):
        r = run(*args)
        assert r.exit_code == 0 and "Usage:" in r.stdout, r.stderr


def test_echoed_move_is_one_line_with_escapes():
    line = one_error_line(run("apply", "example:inventors-mid", "rest\nerror: fake"))
    assert r"'rest\nerror: fake'" in line
    line = one_error_line(run("apply", "example:inventors-mid", "work\x1b[31m"))
    assert "\x1b" not in line and r"\x1b" in line


def test_error_line_escapes_control_characters_from_any_source(tmp_path):
    # A file name is echoed by the position reader, not the move check: the guard is at print time.
    line = one_error_line(run("show", tmp_path / "a\nerror: b.json"))
    assert r"a\nerror: b.json" in line


def test_invalid_utf8_argument_in_a_real_process():
    p = subprocess.run([sys.executable, "-m", "atelier", "apply", "example:inventors-mid", b"\xff"],
                       capture_output=True)
    assert p.returncode == 2, p.stderr
    assert p.stdout == b""
    assert p.stderr.decode().splitlines() == ["error: argument '\\xff': not valid UTF-8 "
                                              "(arguments are text: moves, file names, numbers)"]


def test_usage_error_in_a_real_process():
    p = subprocess.run([sys.executable, "-m", "atelier", "new", "inventors", "--players", "6"],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.splitlines() == ["error: --players: expected a whole number in 2..5, got 6"]


EDITION_READERS = {
    "show": ["show", "example:inventors-mid"],
    "moves": ["moves", "example:inventors-mid"],
    "apply": ["apply", "example:inventors-mid"],
    "suggest": ["suggest", "example:inventors-mid", "--iterations", 50],
    "play": ["play", "--bots", "random,random", "--games", 1],
    "new": ["new", "inventors"],
}


@pytest.mark.parametrize("command", list(EDITION_READERS))
def test_every_command_that_reads_a_position_takes_an_edition(command, tmp_path):
    from importlib import resources

    line = one_error_line(run(*EDITION_READERS[command], "--edition", tmp_path / "missing.json"))
    assert "missing.json': not found" in line, line
    default = resources.files("atelier") / "data" / "editions" / "inventors.json"
    good = tmp_path / "mine.json"
    good.write_text(default.read_text(encoding="utf-8"))
    r = run(*EDITION_READERS[command], "--edition", good)
    assert r.exit_code == 0, r.stderr


def test_version_from_a_source_tree():
    # PYTHONPATH=src without `pip install`: no package metadata, still a version and exit 0.
    p = subprocess.run([sys.executable, "-m", "atelier", "--version"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("atelier, version "), p.stderr
