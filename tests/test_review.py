"""`atelier review` (docs/records.md, Review): a blunder built from an exact endgame is marked a
blunder with exact values; the review is the same for the same seed; hidden information is
judged from the mover's view; the CLI's table, JSON and errors."""
import json

import pytest

import atelier
from atelier import records, review, solvers
from cli_helpers import one_error_line, run, strict_json
from playout_helpers import greedy_record



def _with_blunder():
    """A record whose move B is the worst move of a position where the exact win value of the best
    move exceeds the worst's by at least 0.5: walk a greedy game back from its end, solve exactly,
    play the worst move there, then greedy to the end."""
    for seed in range(1, 40):
        game = greedy_record(seed)
        for k in range(len(game.moves) - 1, 0, -1):
            s = game.replay(to=k)
            if s.is_chance() or len(s.legal_moves()) < 2:
                continue
            if not solvers.engine.chance_free(s):
                break
            try:
                r = solvers.solve(s, max_nodes=100_000)
            except solvers.TooLarge:
                break
            p = s.current_player
            worst = min(r.moves, key=lambda m: m.win[p])
            if r.best.win[p] - worst.win[p] < 0.5:
                continue
            rec = records.from_dict(game.to_dict())
            rec.undo(len(rec.moves) - k)
            s = rec.add(worst.text)
            while not s.is_terminal():
                s = rec.add(s.move_to_string(solvers.greedy_move(s, len(rec.moves))))
            return rec, k, worst.text, r.best.win[p], worst.win[p], p
    pytest.fail("no position with a blunder of 0.5 found")


@pytest.fixture(scope="module")
def blunder():
    return _with_blunder()


def test_a_known_blunder_is_marked_with_exact_values(blunder):
    rec, k, worst, best_win, worst_win, seat = blunder
    rv = review.review(rec, seat=seat, iterations=300, seed=3)
    d = rv.by_index()[k]
    assert d.played == worst and d.mark == "blunder"
    assert d.played_value.exact and d.best_value.exact
    assert d.played_value.win == pytest.approx(worst_win) and d.best_value.win == pytest.approx(best_win)
    assert d.loss == pytest.approx(best_win - worst_win) and d.method == "alphabeta"
    assert all(x.seat == seat for x in rv.decisions)
    s = next(x for x in rv.summary if x.seat == seat)
    assert s.marks["blunder"] >= 1 and s.average_loss > 0


def test_the_review_is_the_same_for_the_same_seed(blunder, tmp_path):
    rec = blunder[0]
    path = tmp_path / "g.json"
    rec.save(path)
    a = run("review", path, "--iterations", 200, "--seed", 9, "--json", "--exact-nodes", 20000)
    b = run("review", path, "--iterations", 200, "--seed", 9, "--json", "--exact-nodes", 20000)
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout
    doc = strict_json(a.stdout)
    assert doc["format"] == "atelier.review/1"
    assert {d["seat"] for d in doc["decisions"]} == {0, 1}
    decisions = [k for k, e in enumerate(rec.moves) if e["seat"] != "chance"]
    assert [d["index"] for d in doc["decisions"]] == decisions
    assert doc["thresholds"] == {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}


def test_marks_follow_the_thresholds():
    assert review.mark_for(0.5, True, None) == "blunder"
    assert review.mark_for(0.2, True, None) == "blunder"
    assert review.mark_for(0.15, True, None) == "mistake"
    assert review.mark_for(0.07, True, None) == "inaccuracy"
    assert review.mark_for(0.04, True, None) is None
    # An estimate's loss inside the estimate's own noise is not called a mistake.
    assert review.mark_for(0.15, False, 0.2) is None
    assert review.mark_for(0.15, False, 0.05) == "mistake"
    # The loss's noise comes from both estimates; an exact side adds none.
    est = review.Value(win=0.5, score=None, exact=False, ci=0.03)
    assert review._noise(est, review.Value(win=0.7, score=None, exact=False, ci=0.04)) == pytest.approx(0.05)
    assert review._noise(est, review.Value(win=0.7, score=None, exact=True)) == pytest.approx(0.03)
    assert review._noise(review.Value(0.1, None, True), review.Value(0.7, None, True)) is None


def _decision(best, played, method="mcts"):
    v = lambda w: review.Value(win=w, score=None, exact=False, ci=0.01)
    return review.Decision(0, 0, "x", "y", v(played), v(best), max(0.0, best - played), None, method)


def test_only_contested_decisions_count_toward_loss_and_accuracy():
    # Lost whatever the seat plays, won whatever it plays: nothing to lose, not counted.
    assert not review.contested(_decision(0.03, 0.0))
    assert not review.contested(_decision(1.0, 0.97))
    # Open, or a won game thrown away, or a lost one that the best move would have saved.
    assert review.contested(_decision(0.5, 0.45))
    assert review.contested(_decision(0.97, 0.5))
    assert review.contested(_decision(0.2, 0.01))
    assert not review.contested(_decision(0.5, 0.5, method="forced"))


def test_a_seat_lost_early_is_not_averaged_into_accuracy(monkeypatch):
    """Three contested decisions with losses 0.1, 0.2, 0.0, then twenty decided ones: the
    average and the accuracy are those of the three."""
    decs = [_decision(0.4, 0.3), _decision(0.3, 0.1), _decision(0.1, 0.1)] + [_decision(0.01, 0.0)] * 20
    rec = greedy_record(1)
    monkeypatch.setattr(review, "judge_state", lambda s, k, played, **kw: decs[k % len(decs)])
    rv = review.review(rec, seat=0, iterations=10)
    x = rv.summary[0]
    judged = [d for d in (decs[k % len(decs)] for k, e in enumerate(rec.moves) if e["seat"] == 0)
              if review.contested(d)]
    assert x.contested == len(judged) < x.decisions
    assert x.average_loss == pytest.approx(sum(d.loss for d in judged) / len(judged))
    assert x.accuracy == pytest.approx(review.accuracy(d.loss for d in judged))


def test_hidden_information_is_judged_from_the_movers_view():
    from atelier import match

    m = match.play("leonardo", ["greedy", "random"], games=1, seed=4, keep_moves=True).records[0]
    rec = records.from_match(m, "leonardo")
    rv = review.review(rec, seat=0, iterations=60, seed=1, exact_nodes=0)
    judged = [d for d in rv.decisions if d.method != "forced"]
    assert judged and {d.method for d in judged} <= {"ismcts", "mcts"}
    hidden = [d for d in judged if solvers.engine.hidden_information(rec.replay(to=d.index))]
    assert hidden and all(d.method == "ismcts" for d in hidden)


def test_review_table_and_errors(blunder, tmp_path):
    rec = blunder[0]
    path = tmp_path / "g.json"
    rec.save(path)
    r = run("review", path, "--seat", blunder[5], "--iterations", 100, "--exact-nodes", 20000)
    assert r.exit_code == 0, r.output
    assert "blunder" in r.stdout and "per seat" in r.stdout and "ann" in r.stdout
    assert "--seat" in one_error_line(run("review", path, "--seat", 9))
    assert "seat" in one_error_line(run("review", path, "--seat", 3))
    assert "cannot write" in one_error_line(run("review", path, "--html", tmp_path / "no" / "x.html"))


def test_annotate_writes_the_marks_into_a_copy_of_the_record(blunder, tmp_path):
    rec, k, worst = blunder[:3]
    path, out = tmp_path / "g.json", tmp_path / "annotated.json"
    rec.save(path)
    r = run("review", path, "--seat", blunder[5], "--iterations", 100, "--exact-nodes", 100_000, "--annotate", out)
    assert r.exit_code == 0, r.output
    ann = records.load(out)   # a valid record: it replays
    assert ann.replay() == rec.replay()
    e = ann.moves[k]
    assert e["mark"] == "blunder" and e["review"]["played"]["exact"] and e["review"]["loss"] >= 0.5
    assert e["move"] == worst and "review" not in records.load(path).moves[k]


@pytest.mark.parametrize("game", ["leonardo", "craftsmen"])
def test_a_decision_is_judged_only_on_what_the_mover_knew(game):
    """Two full positions the mover cannot tell apart (what it cannot see resampled) get the same
    verdict: the review never reads a hand, a hidden lab or a deck order the mover did not see."""
    from atelier import match

    m = match.play(game, ["greedy", "random"], games=1, seed=6, keep_moves=True).records[0]
    rec = records.from_match(m, game)
    checked = 0
    for k, s, entry in rec.states():
        if entry["seat"] == "chance" or len(s.legal_moves()) < 2 or not solvers.engine.hidden_information(s):
            continue
        p = s.current_player
        other = s.clone()
        other.determinize(p, 1234 + k)
        if other == s:
            continue
        assert other.infoset_key(p) == s.infoset_key(p)
        a = review.judge_state(s, k, entry["move"], iterations=80, seed=2, exact_nodes=0)
        b = review.judge_state(other, k, entry["move"], iterations=80, seed=2, exact_nodes=0)
        assert (a.best, a.played_value, a.best_value, a.mark) == (b.best, b.played_value, b.best_value, b.mark)
        checked += 1
        if checked == 3:
            return
    pytest.fail(f"fewer than 3 decisions with something hidden from the mover ({checked})")
