"""`atelier suggest` as text: full move texts (pasteable into `apply`), the best N rows, a mark on
moves not yet told apart from the best, "—" for moves without data, the best move last."""
import re

from cli_helpers import run, strict_json

ARGS = ["suggest", "example:inventors-mid", "--iterations", 3000, "--seed", 1]


def rows(stdout):
    """The table rows: lines starting with a move (notation has a ':' in its first word)."""
    return [line.split() for line in stdout.splitlines() if re.match(r"\s*[a-z]+:\S+\s", line)]


def test_every_row_is_a_full_legal_move_and_the_best_is_last():
    r = run(*ARGS, "--top", 200)
    assert r.exit_code == 0, r.stderr
    legal = set(run("moves", "example:inventors-mid").stdout.split())
    shown = [row[0] for row in rows(r.stdout)]
    assert "…" not in r.stdout
    assert sorted(shown) == sorted(legal)          # all 134, none cut at a fixed width
    best = r.stdout.splitlines()[-1]
    assert best == shown[0] == strict_json(run(*ARGS, "--json").stdout)["best"]
    assert run("apply", "example:inventors-mid", best).exit_code == 0


def test_top_n_rows_then_how_many_more():
    r = run(*ARGS, "--top", 5)
    assert len(rows(r.stdout)) == 5
    assert "and 129 more (--top 134 shows all)" in r.stdout
    assert len(rows(run(*ARGS).stdout)) == 10      # default


def test_close_moves_are_marked_and_explained():
    r = run(*ARGS, "--json")
    doc = strict_json(r.stdout)
    close = {m["move"] for m in doc["moves"] if m["overlaps_best"]}
    assert close and doc["best"] not in close
    text = run(*ARGS, "--top", 200).stdout
    marked = {row[0] for row in rows(text) if row[1] == "≈"}
    assert marked == close
    assert "≈: its 95% win interval overlaps the best move's" in text


def test_close_means_the_intervals_overlap():
    doc = strict_json(run(*ARGS, "--json").stdout)
    p, best = doc["player"], doc["moves"][doc["best_index"]]
    lo, hi = best["win"][p] - best["win_ci"], best["win"][p] + best["win_ci"]
    for m in doc["moves"]:
        if m is best or m["visits"] == 0:
            assert not m["overlaps_best"]
            continue
        overlap = m["win"][p] - m["win_ci"] <= hi and lo <= m["win"][p] + m["win_ci"]
        assert m["overlaps_best"] == overlap, m


def test_unvisited_moves_show_no_data():
    r = run("suggest", "example:inventors-mid", "--iterations", 50, "--top", 200)
    unvisited = [row for row in rows(r.stdout) if row[1] == "0"]
    assert unvisited and all(row[2:] == ["—"] * 4 for row in unvisited), unvisited[:3]
