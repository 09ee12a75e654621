"""Review values worth reading (docs/records.md): the Wilson interval never collapses to zero
width, accuracy follows lichess's curve, every seat's accuracy reaches the JSON and the table,
and the settings say which leaf evaluation ran."""
import json
import math

import pytest

from atelier import review
from cli_helpers import one_error_line, run
from playout_helpers import greedy_record


def test_the_wilson_interval_is_never_zero_and_shrinks_with_visits():
    for p in (0.0, 1.0, 0.5, 0.93):
        widths = [review.wilson_half_width(p, n) for n in (1, 3, 10, 100, 10_000)]
        assert all(w > 0 for w in widths)
        assert widths == sorted(widths, reverse=True)
    # At 0% and 100%: about z^2 / 2n from a handful of agreeing visits, not 0.
    assert review.wilson_half_width(0.0, 3) > 0.2 and review.wilson_half_width(1.0, 3) > 0.2
    assert review.wilson_half_width(1.0, 3) == pytest.approx(review.wilson_half_width(0.0, 3))
    # In the middle it is the normal interval's width for large n.
    assert review.wilson_half_width(0.5, 10_000) == pytest.approx(1.96 * math.sqrt(0.25 / 10_000), rel=1e-3)
    assert review.wilson_half_width(0.0, 0) == 1.0   # never visited: nothing known


def test_accuracy_follows_lichess_curve():
    assert review.move_accuracy(0.0) == pytest.approx(99.9999, abs=1e-3)
    assert review.move_accuracy(0.05) == pytest.approx(103.1668 * math.exp(-0.04354 * 5) - 3.1669)
    assert review.move_accuracy(1.0) == 0.0
    acc = [review.move_accuracy(x) for x in (0.0, 0.0, 0.3)]
    harm = 3 / sum(1 / max(a, 1) for a in acc)
    assert review.accuracy([0.0, 0.0, 0.3]) == pytest.approx((sum(acc) / 3 + harm) / 2)
    # One blunder costs more than several small slips of the same total loss.
    assert review.accuracy([0.0, 0.0, 0.0, 0.4]) < review.accuracy([0.1, 0.1, 0.1, 0.1])
    assert review.accuracy([]) is None


def test_the_review_reports_accuracy_and_its_evaluation(tmp_path):
    rec = greedy_record(3)
    path = tmp_path / "g.json"
    rec.save(path)
    r = run("review", path, "--iterations", 60, "--seed", 2, "--exact-nodes", 0, "--rollout", "random", "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["settings"]["rollout"] == "random" and doc["settings"]["evaluation"] == ["random"]
    for s in doc["summary"]:
        assert 0.0 <= s["accuracy"] <= 100.0
    est = [d for d in doc["decisions"] if d["method"] in ("mcts", "ismcts")]
    assert est and all(d["evaluation"] == "random" for d in est)
    # Never a zero-width interval on an estimate, whatever its visits.
    assert all(d[v]["ci"] > 0 for d in est for v in ("played_value", "best_value") if not d[v]["exact"])
    table = run("review", path, "--iterations", 60, "--seed", 2, "--exact-nodes", 0, "--rollout", "random")
    assert table.exit_code == 0 and "accuracy %" in table.stdout


def test_review_help_explains_marks_and_the_noise_rule():
    out = run("review", "--help").stdout
    assert "Noise rule" in out and "Wilson" in out and "blunder >= 0.20" in out and "Accuracy" in out


def test_review_refuses_a_bad_model_before_judging(tmp_path):
    rec = greedy_record(3)
    path = tmp_path / "g.json"
    rec.save(path)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    assert one_error_line(run("review", path, "--model", bad)).startswith("error: model")
