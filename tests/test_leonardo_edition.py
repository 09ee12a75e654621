"""Leonardo da Vinci: the edition checks of the rules spec §1.9 (one line each, first error)
and the warnings. The default edition passes with no warning."""
import copy
import pathlib

import pytest

from atelier._core import leonardo as L
from leonardo_helpers import edition, game


def broken(change):
    d = copy.deepcopy(edition())
    change(d)
    return d


def card(d, n):
    return next(c for c in d["inventions"] if c["number"] == n)


def test_default_edition_has_no_warning():
    assert L.check_edition(edition()) == []


@pytest.mark.parametrize("change,message", [
    (lambda d: card(d, 3).__setitem__("number", 4), "edition: card numbers must be 1..25, each once"),
    (lambda d: card(d, 7).__setitem__("tier", "platinum"), 'edition: card 7: tier "platinum" is not in tiers'),
    (lambda d: card(d, 7).__setitem__("materials", {"wood": 1, "rope": 2}), "edition: card 7: 3 materials, tier copper needs 2"),
    (lambda d: card(d, 7).__setitem__("type", "F"), 'edition: card 7: type "F" is not in types'),
    (lambda d: card(d, 7).__setitem__("weeks", 16), "edition: card 7: weeks must be 1..15"),
    (lambda d: d["setup"]["deck_building"]["piles"]["value"]["middle"]["cards"].__setitem__(2, 3),
     "edition: card 3: in the middle pile but tier silver"),
    (lambda d: d["setup"]["deck_building"]["piles"]["value"]["middle"]["plus_lower_tier"].__setitem__("silver", 6),
     "edition: basic 2p: 4 silver cards outside the row, the middle pile needs 6"),
    (lambda d: d["setup"]["deck_building"]["piles"]["value"]["middle"]["plus_lower_tier"].update({"bronze": 3, "copper": 4}),
     "edition: expert 2p: top pile 2 cards, the row needs 3"),
    (lambda d: d["setup"]["basic"]["seats"]["c"]["labs"].__setitem__(0, {"lab": "small", "side": 3}),
     "edition: kit c: mechanical man on small lab side 3 (no free space)"),
])
def test_edition_errors(change, message):
    with pytest.raises(ValueError) as e:
        L.check_edition(broken(change))
    assert str(e.value) == message


def test_type_cards_must_match():
    d = broken(lambda d: d["types"][0]["cards"].append(2))
    with pytest.raises(ValueError, match="type A"):
        L.check_edition(d)


def test_warnings():
    d = broken(lambda d: card(d, 14).__setitem__("materials", {"rope": 2, "wood": 1}))
    w = L.check_edition(d)
    assert "edition warning: cards 3 and 14 need the same materials" in w
    d = broken(lambda d: card(d, 2).__setitem__("reward_later", 9))
    w = L.check_edition(d)
    assert any("card 2: reward_later > reward_first" in x for x in w)


# ---- material names: they are printed inside moves (docs/notation.md), so they follow its rule --

def renamed(i, name):
    """The default edition with material i renamed everywhere it is used."""
    d = copy.deepcopy(edition())
    kinds = d["constants"]["material_kinds"]["value"]
    old = kinds[i]
    kinds[i] = name

    def walk(x):
        if isinstance(x, dict):
            if "materials" in x and isinstance(x["materials"], dict) and old in x["materials"]:
                x["materials"][name] = x["materials"].pop(old)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(d["inventions"])
    walk(d["setup"])
    return d


@pytest.mark.parametrize("name", ["Iron", "ir on", "é", "\t", "x" * 200, "", "a:b", "a+b", "IRON", "abcdefghijklm"])
def test_material_names_outside_the_notation_are_refused(name):
    with pytest.raises(ValueError) as e:
        L.check_edition(renamed(0, name))
    msg = str(e.value)
    assert msg.startswith("edition: material_kinds[0]: ") and "\n" not in msg
    assert "not a valid material name" in msg


def test_duplicate_material_names_are_refused():
    d = renamed(1, "iron")
    with pytest.raises(ValueError, match=r'material_kinds\[1\]: "iron" is listed twice'):
        L.check_edition(d)


def test_a_valid_renamed_material_round_trips_through_the_notation():
    import random
    g = game(4, ed=renamed(0, "ferro_2-abcd"))
    rng = random.Random(1)
    s = g.start(3)
    seen = 0
    for _ in range(300):
        if s.is_terminal():
            break
        if s.is_chance():
            s.sample_chance(rng.randrange(1 << 30))
            continue
        ms = s.legal_move_strings()
        for m in ms:
            t = s.clone()
            t.apply(m)          # every listed move is accepted as printed
            t = s.clone()
            t.apply(m.upper())  # and in any letter case
        seen += sum("ferro_2-abcd" in m for m in ms)
        s.apply(rng.choice(ms))
    assert seen > 0


def test_repro_material_Iron_is_refused_through_the_cli():
    from cli_helpers import one_error_line, run
    path = pathlib.Path(__file__).parent / "repro" / "leonardo-edition-material-Iron.json"
    line = one_error_line(run("new", "leonardo", "--players", "3", "--edition", path))
    assert line.startswith('error: edition: material_kinds[0]: "Iron" is not a valid material name')


# ---- §1.9 warnings reach the user: stderr through the CLI, EditionWarning through the API ----

def warned_edition(tmp_path):
    d = broken(lambda d: card(d, 2).__setitem__("reward_later", 9))
    path = tmp_path / "ed.json"
    path.write_text(__import__("json").dumps(d))
    return path


WARNINGS = ["warning: edition: card 2: weeks or rewards differ from its tier",
            "warning: edition: card 2: reward_later > reward_first"]


def test_warnings_print_on_stderr_with_edition_file(tmp_path):
    from cli_helpers import run
    path = warned_edition(tmp_path)
    r = run("new", "leonardo", "--players", "3", "--edition", path)
    assert r.exit_code == 0, r.stderr
    assert r.stderr.splitlines() == WARNINGS
    pos = tmp_path / "pos.json"
    pos.write_text(r.stdout)
    # A position over that edition embeds it: reading it warns again, once per line.
    for args in (("moves", pos), ("show", pos), ("moves", pos, "--edition", path)):
        r = run(*args)
        assert r.exit_code == 0, r.stderr
        assert r.stderr.splitlines() == WARNINGS, args


def test_warnings_are_edition_warnings_in_the_api(tmp_path):
    import atelier
    path = warned_edition(tmp_path)
    with pytest.warns(atelier.EditionWarning) as rec:
        atelier.open("leonardo", players=3, edition=str(path))
    assert [str(w.message) for w in rec] == [w[len("warning: "):] for w in WARNINGS]


def test_the_bundled_edition_prints_no_warning():
    from cli_helpers import run
    r = run("new", "leonardo", "--players", "3")
    assert r.exit_code == 0 and r.stderr == ""


def test_warnings_print_when_a_record_embeds_the_edition(tmp_path):
    from cli_helpers import run
    path = warned_edition(tmp_path)
    rec = tmp_path / "rec.json"
    r = run("play", "--game", "leonardo", "--bots", "random,random", "--games", "1", "--seed", "2",
            "--edition", path, "--out", rec)
    assert r.exit_code == 0, r.stderr
    assert r.stderr.splitlines()[:2] == WARNINGS
    r = run("record", "show", rec)
    assert r.exit_code == 0, r.stderr
    assert r.stderr.splitlines() == WARNINGS
