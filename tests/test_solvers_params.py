"""Every search parameter of every public entry point is checked at the door: a bad one is an
InputError naming it and its range, never a crash. Also the failures below the door that no
parameter should reach: an arena that cannot be allocated, a selection with no comparable
value, a position kind the search does not know."""
import ctypes
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import atelier
from atelier import limits, solvers
from atelier.errors import InputError
from atelier.solvers import testgame
from solver_helpers import dealt

from test_cli import run

NAN, INF = float("nan"), float("inf")
ASAN = "asan" in os.environ.get("LD_PRELOAD", "")
SRC = str(Path(atelier.__file__).resolve().parents[1])


@pytest.fixture(params=["testgame", "inventors"])
def state(request):
    if request.param == "testgame":
        return dealt(3, 8, 2, 3, 1, 0)
    return atelier.load_position("example:inventors-mid")


SEARCH_BAD = [
    ("iterations", [0, -5, 2**32 - 1, 10**30, 1.5, "100", True, NAN]),
    ("time", [0, -1.0, NAN, INF, -INF, 1e7, "1", True]),
    ("threads", [0, 65, -1, 1.0, "2", True]),
    ("seed", [-1, 2**64, 10**30, 1.0, "3", True, None]),
    ("reward", ["points", "", None, 1, ["win"]]),
    ("memory_mb", [0, -1, NAN, INF, 2**21, "512", True, 1e-6]),
    ("exploration", [NAN, -INF, INF, -0.5, 101, "1", True, None]),
    ("rollout", ["smart", None, 0]),
    ("progress", [1, "bar"]),
]


@pytest.mark.parametrize("search", [solvers.mcts, solvers.ismcts], ids=["mcts", "ismcts"])
@pytest.mark.parametrize("name, values", SEARCH_BAD, ids=[n for n, _ in SEARCH_BAD])
def test_search_parameters_are_checked(state, search, name, values):
    for v in values:
        with pytest.raises(InputError, match=f"^{name}: ") as err:
            search(state, **{"iterations": 50, name: v})
        assert "\n" not in str(err.value)


def test_search_parameter_bounds_are_accepted(state):
    p = state.current_player
    for kwargs in (dict(iterations=64, seed=2**64 - 1), dict(iterations=64, exploration=0.0),
                   dict(iterations=64, exploration=100), dict(iterations=64, threads=2),
                   dict(time=0.05, memory_mb=1)):
        r = solvers.mcts(state, **kwargs)
        assert r.best_move in state.legal_moves() and r.player == p


EXACT_BAD = [
    ("max_nodes", [0, -1, 10**12 + 1, 99999999999999999999999, 1.0, "10", True]),
    ("objective", ["points", None, 0]),
    ("paranoid", ["no", 1, None]),
    ("prune", ["yes", 0]),
    ("ordering", ["random", 2, None]),
    ("determinizations", [-1, 100_001, 2.0, "3", True]),
    ("seed", [-1, 2**64, "0", 0.5]),
    ("progress", [5]),
]


@pytest.mark.parametrize("name, values", EXACT_BAD, ids=[n for n, _ in EXACT_BAD])
def test_expectimax_parameters_are_checked(name, values):
    s = dealt(2, 6, 2, 3, 1, 0)
    for v in values:
        with pytest.raises(InputError, match=f"^{name}: "):
            solvers.expectimax(s, **{name: v})


@pytest.mark.parametrize("bot", [solvers.random_move, solvers.greedy_move])
def test_bot_seeds_are_checked(state, bot):
    assert bot(state, seed=2**64 - 1) in state.legal_moves()
    for v in (-1, 2**64, 1.5, "7", True):
        with pytest.raises(InputError, match=r"^seed: expected an integer 0\.\.18446744073709551615"):
            bot(state, seed=v)


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:-5", "mcts:0", "ismcts:4294967295",
                                  "mcts:99999999999999999999", "mcts:nans", "mcts:infs",
                                  "mcts:-1s", "mcts:0s", "mcts:1e9s", "mcts:1.5", "mcts::greedy:x"])
def test_bad_bot_budgets(spec):
    with pytest.raises(InputError, match=r"budget must be iterations 1\.\.4,294,967,294"):
        solvers.make_bot(spec)


def test_bot_threads_are_checked():
    for v in (0, 65, "2", 1.0):
        with pytest.raises(InputError, match="^threads: "):
            solvers.make_bot("mcts:10", threads=v)
    assert solvers.make_bot("mcts:2.5s:greedy", threads=2).time == 2.5


def test_seed_range_is_one_function():
    assert limits.check_seed(0) == 0 and limits.check_seed(2**64 - 1) == 2**64 - 1
    for v in (-1, 2**64, 3.0, "1", True, None):
        with pytest.raises(InputError, match=r"^seed: expected an integer 0\.\.18446744073709551615 \(2\*\*64-1\)"):
            limits.check_seed(v)
    with pytest.raises(InputError, match="^game seed: "):
        limits.check_seed(-3, "game seed")


# --- below the door -------------------------------------------------------------------------

def test_selection_without_comparable_values_picks_a_real_child(state):
    # NaN exploration makes every UCB value NaN: no comparison succeeds. The selection must
    # still pick a real child, so every iteration is backed up through a root child.
    for ismcts in (False, True):
        t = solvers.engine.Tree(state, seed=1, max_nodes=200_000, ismcts=ismcts)
        t._set_exploration_unchecked(NAN)
        done = t.run(3000)
        kids = t.children(0)
        legal = set(state.legal_moves())
        assert done == t.iterations == 3000
        assert sum(v for _, _, v in kids) == 3000
        assert all(m in legal for _, m, _ in kids)


def test_engine_tree_checks_its_own_parameters(state):
    for kwargs in (dict(exploration=NAN), dict(exploration=-1.0), dict(exploration=INF),
                   dict(pw_c=NAN), dict(pw_c=0.0), dict(pw_alpha=2.0), dict(max_nodes=1),
                   dict(max_nodes=2**31), dict(reward="x"), dict(rollout="x")):
        with pytest.raises(ValueError):
            solvers.engine.Tree(state, **kwargs)


def test_tree_init_twice_starts_over(state):
    t = solvers.engine.Tree(state, seed=1, max_nodes=10_000)
    t.run(500)
    other = dealt(2, 6, 2, 3, 1, 0)
    t.__init__(other, seed=1, max_nodes=10_000)
    assert t.iterations == 0 and t.nodes == 1 + len(other.legal_moves())
    assert t.run(200) == 200


class _Foreign:
    """A state of a ruleset the search does not know (a third one, say)."""

    def __init__(self, name: bytes):
        self.name = ctypes.create_string_buffer(name)   # the capsule keeps only pointers
        self.pos = ctypes.create_string_buffer(64)
        new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
            ("PyCapsule_New", ctypes.pythonapi))
        self.cap = new(ctypes.addressof(self.pos), ctypes.addressof(self.name), None)

    def _capsule(self):
        return self.cap


def test_unknown_position_kind_is_refused():
    foreign = _Foreign(b"atelier.unknown.Position")
    calls = [lambda s: solvers.mcts(s, iterations=10), lambda s: solvers.ismcts(s, iterations=10),
             solvers.expectimax, solvers.random_move, solvers.greedy_move,
             solvers.engine.hidden_information, solvers.engine.position_info,
             lambda s: solvers.engine.Tree(s), solvers.engine.expectimax_search,
             lambda s: solvers.engine.random_playouts(s, 3)]
    for call in calls:
        with pytest.raises(InputError, match=r"position: unknown kind 'atelier\.unknown\.Position' "
                                             r"\(the search knows atelier\.inventors\.Position"):
            call(foreign)
    with pytest.raises(InputError, match="not a game state"):
        solvers.engine.position_info(object())


def test_kind_table_matches_the_rulesets_capsules():
    name_of = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", ctypes.pythonapi))
    states = [atelier.load_position("example:inventors-mid"), dealt(2, 6, 2, 3, 1, 0),
              atelier.open("leonardo", players=3, seed=1).start(), atelier.open("craftsmen", players=3, seed=1).start()]
    kinds = solvers.engine.position_kinds()
    assert sorted(name_of(s._capsule()).decode() for s in states) == sorted(kinds)
    assert all(size > 0 for size in kinds.values())


_ARENA_SCRIPT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))   # 3 GiB of address space
{body}
"""


def _limited(body, *args):
    cmd = [sys.executable, "-c", _ARENA_SCRIPT.format(body=body), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": SRC})


@pytest.mark.skipif(ASAN, reason="ASan reserves terabytes of address space; tools/asan_check.sh "
                                 "runs this failure with max_allocation_size_mb instead")
def test_arena_that_cannot_be_allocated_is_one_error():
    body = """
import atelier
from atelier import solvers
s = atelier.load_position("example:inventors-mid")
for threads in (1, 2):
    try:
        solvers.mcts(s, time=0.2, memory_mb=8000, threads=threads)
    except atelier.InputError as exc:
        print(exc)
print(solvers.mcts(s, iterations=200, memory_mb=64).iterations)   # and the process is fine
"""
    r = _limited(body)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "memory_mb: cannot allocate 8000 MB for the search tree on this machine; try a smaller budget"
    assert lines[1].startswith("memory_mb: cannot allocate 8000 MB for the search trees")
    assert lines[2] == "200"
    r = _limited("from atelier.cli import main; main()", "suggest", "example:inventors-mid",
                 "--memory", "8000", "--time", "0.2")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == ["error: memory_mb: cannot allocate 8000 MB for the search tree "
                                     "on this machine; try a smaller budget"]


# --- expectimax progress ----------------------------------------------------------------------

def test_expectimax_reports_progress_and_can_be_stopped():
    s = dealt(3, 8, 3, 4, 2, 0)
    seen = []
    x = solvers.expectimax(s, progress=lambda n, sec: seen.append((n, sec)))
    assert x.nodes > 2 * 65536 and [n for n, _ in seen] == [65536 * (k + 1) for k in range(len(seen))]
    assert len(seen) == x.nodes // 65536 and all(sec >= 0 for _, sec in seen)
    assert [m.value for m in solvers.expectimax(s).moves] == [m.value for m in x.moves]

    class Stop(Exception):
        pass

    def stop(n, sec):
        raise Stop(n)

    with pytest.raises(Stop):
        solvers.expectimax(s, progress=stop)


def test_determinizations_of_a_perfect_information_position_solve_once():
    s = atelier.load_position("example:inventors-late")
    assert not solvers.engine.hidden_information(s)
    x = solvers.expectimax(s, determinizations=5)
    once = solvers.expectimax(s)
    assert x.determinizations == 0 and x.nodes == once.nodes
    assert [m.value for m in x.moves] == [m.value for m in once.moves]


# --- the endgame command ----------------------------------------------------------------------

def test_endgame_too_large_goes_to_stderr():
    r = run("endgame", "example:inventors-mid", "--max-nodes", 20)
    assert r.exit_code == 3 and r.stdout == ""
    assert r.stderr.startswith("too large for exact search (")
    r = run("endgame", "example:inventors-mid", "--max-nodes", 20, "--json")
    assert r.exit_code == 3 and json.loads(r.stdout)["too_large"] is True


def test_endgame_determinizations_on_perfect_information_is_a_note():
    r = run("endgame", "example:inventors-late", "--determinizations", 7)
    assert r.exit_code == 0
    assert r.stderr.splitlines() == ["note: determinizations: seat 1 sees the whole position, "
                                     "nothing to sample; solving it once"]
    plain = run("endgame", "example:inventors-late")
    assert plain.stdout.splitlines()[-1] == r.stdout.splitlines()[-1]
    assert "mean of" not in r.stdout


# The CLI names its options as the user typed them (cli/options.py), the API its parameters.
@pytest.mark.parametrize("args, message", [
    (["--max-nodes", "99999999999999999999999"], "error: --max-nodes: expected a whole number in "
                                                  "1..1,000,000,000,000, got 99999999999999999999999"),
    (["--max-nodes", "0"], "error: --max-nodes: expected a whole number in 1..1,000,000,000,000, got 0"),
    (["--seed", "18446744073709551616", "--determinizations", "2"],
     "error: --seed: expected a whole number in 0..18446744073709551615, got 18446744073709551616"),
    (["--determinizations", "100001"], "error: --determinizations: expected a whole number in 0..100,000, got 100001"),
])
def test_endgame_bad_numbers_are_one_line(args, message):
    r = run("endgame", "example:inventors-late", *args)
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.splitlines() == [message]


def test_suggest_seed_range():
    r = run("suggest", "example:inventors-mid", "--iterations", 50, "--seed", 2**64)
    assert r.exit_code == 2 and r.stderr.splitlines() == [
        "error: --seed: expected a whole number in 0..18446744073709551615, got 18446744073709551616"]
    r = run("suggest", "example:inventors-mid", "--iterations", 50, "--seed", 2**64 - 1)
    assert r.exit_code == 0, r.stderr


def test_endgame_reads_an_edition(tmp_path):
    edition = Path(atelier.__file__).parent / "data" / "editions" / "inventors.json"
    r = run("endgame", "example:inventors-late", "--edition", edition)
    assert r.exit_code == 0 and r.stdout.splitlines()[-1] == run("endgame", "example:inventors-late").stdout.splitlines()[-1]
    r = run("endgame", "example:inventors-late", "--edition", tmp_path / "none.json")
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1 and "none.json" in r.stderr


def test_endgame_progress_line_after_a_second():
    import io

    from rich.console import Console

    from atelier.cli.search import _EndgameProgress

    out = io.StringIO()
    with _EndgameProgress(Console(file=out, force_terminal=True, width=80), "alpha-beta") as progress:
        progress(65536, 0.4)
        assert out.getvalue() == ""
        progress(131072, 1.2)
        progress(196608, 1.7, 3, 40)
    assert "solving (alpha-beta): 196,608 nodes searched, 1.7 s, 3 of 40 moves resolved" in out.getvalue()
    assert "65,536 nodes" not in out.getvalue()


def _chance_free_leonardo():
    """A 2-player Leonardo decision from which no draw can be reached: alpha-beta's ground."""
    import random

    from atelier.solvers.exact import alphabeta_applies

    rng, s = random.Random(3), atelier.open("leonardo", players=2, seed=3).start()
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(rng.getrandbits(64))
            continue
        if alphabeta_applies(s, False) is None:
            return s
        s.apply(rng.choice(s.legal_moves()))
    raise AssertionError("no chance-free decision in the game")


def test_the_transposition_table_is_no_bigger_than_the_node_budget_can_fill():
    from atelier.solvers import engine
    s = atelier.load_position("example:inventors-late")
    small = engine.alphabeta_search(s, max_nodes=1000, memory_mb=256)
    assert small["tt_capacity"] == 2 * 4096   # buckets: the first power of two at 4x the budget
    # A budget that could fill any table: memory_mb decides (16 MB holds 2^18 buckets of two
    # 24-byte entries; 2^19 would need 24 MB).
    full = engine.alphabeta_search(s, max_nodes=10**12, memory_mb=16)
    assert full["tt_capacity"] == 2 * 2**18


def test_the_table_grows_with_the_search_and_keeps_every_value():
    # A solve starts on 1.5 MB of its table and uses 8 times more whenever its nodes pass twice
    # the entries in use: a small solve stays small, a large one reaches the whole table, and
    # the values are those of a solve on a table that never grows.
    from atelier.solvers import engine
    from atelier.solvers.endgame_bench import greedy_tail
    tiny = engine.alphabeta_search(atelier.load_position("example:inventors-late"), max_nodes=10**12)
    assert tiny["tt_entries"] == 2 * 32768 < tiny["tt_capacity"]
    s = greedy_tail("inventors", 2, 13)[-8]
    big = engine.alphabeta_search(s, max_nodes=10**12, memory_mb=64)
    assert big["nodes"] > 2 * 2**20 and big["tt_entries"] == big["tt_capacity"] == 2 * 2**20
    fixed = engine.alphabeta_search(s, max_nodes=10**12, memory_mb=1.6)   # 32768 buckets: no growth
    assert fixed["tt_entries"] == fixed["tt_capacity"] == 2 * 32768
    assert [(m["lo"], m["hi"]) for m in big["moves"]] == [(m["lo"], m["hi"]) for m in fixed["moves"]]


@pytest.mark.skipif(ASAN, reason="ASan reserves terabytes of address space; tools/asan_check.sh "
                                 "runs this failure with max_allocation_size_mb instead")
def test_a_transposition_table_that_cannot_be_allocated_is_one_error(tmp_path):
    """endgame --memory / solvers.solve(memory_mb=...) beyond what the machine gives: the line
    suggest gives for its trees (it was a MemoryError traceback), in Inventors and Leonardo."""
    leo = tmp_path / "leo.json"
    leo.write_text(atelier.dump_position(_chance_free_leonardo()))
    body = """
import sys
import atelier
from atelier import solvers
for pos in sys.argv[1:]:
    s = atelier.load_position(pos)
    try:
        solvers.solve(s, memory_mb=8000, max_nodes=10**9)   # a budget that could fill it
    except atelier.InputError as exc:
        print(exc)
    print(solvers.solve(s, memory_mb=16, max_nodes=10**6).complete)   # and the process is fine
"""
    r = _limited(body, "example:inventors-late", str(leo))
    assert r.returncode == 0, r.stderr
    want = "memory_mb: cannot allocate 8000 MB for the transposition table on this machine; try a smaller budget"
    assert r.stdout.splitlines() == [want, "True"] * 2
    for pos in ("example:inventors-late", str(leo)):
        r = _limited("from atelier.cli import main; main()", "endgame", pos, "--memory", "8000",
                     "--max-nodes", "1000000000")
        assert r.returncode == 2 and r.stdout == "" and r.stderr.splitlines() == ["error: " + want], r.stderr
