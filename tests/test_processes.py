"""atelier.processes.run_jobs: the results in job order whatever the number of workers, and the
progress it reports (training, calibration and bench/judgement.py all rely on both)."""
import math

from atelier.processes import run_jobs


def test_results_come_back_in_job_order_on_one_process_and_on_two():
    jobs = [7, 3, 9, 1, 12, 0, 5]
    want = [math.factorial(j) for j in jobs]
    assert run_jobs(math.factorial, jobs, workers=1) == want
    assert run_jobs(math.factorial, jobs, workers=2) == want


def test_progress_counts_units_up_to_the_total():
    for workers in (1, 2):
        seen = []
        run_jobs(math.factorial, [4, 5, 6], workers=workers, progress=lambda d, t: seen.append((d, t)),
                 units=[2, 3, 5])
        assert [t for _, t in seen] == [10, 10, 10]
        assert sorted(d for d, _ in seen)[-1] == 10 and len(seen) == 3
        assert all(a < b for a, b in zip([d for d, _ in seen], [d for d, _ in seen][1:]))


def test_no_jobs_is_no_results():
    assert run_jobs(math.factorial, [], workers=2) == []
