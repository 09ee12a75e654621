"""Jobs over local worker processes, for the long runs Ray does not take (training's self-play,
calibration's games, bench/judgement.py's matches): results in job order whatever the number of
workers, so a run on one process and on many gives the same result.

    from atelier.processes import run_jobs
    rows = run_jobs(play_one, jobs, workers=2, progress=lambda done, total: ...)
"""
from __future__ import annotations


def run_jobs(fn, jobs, workers: int = 1, progress=None, units=None) -> list:
    """[fn(job) for job in jobs], computed over `workers` spawned processes (in this one when
    workers <= 1), so fn must be a module-level function. progress(done, total) after each job
    finishes, counting units[k] for job k (default 1 each: jobs; a job of several games counts
    its games)."""
    jobs = list(jobs)
    units = [1] * len(jobs) if units is None else list(units)
    total, done = sum(units), 0
    got = [None] * len(jobs)
    if workers <= 1:
        for k, job in enumerate(jobs):
            got[k] = fn(job)
            done += units[k]
            if progress is not None:
                progress(done, total)
        return got
    import concurrent.futures as cf
    import multiprocessing as mp

    # spawn, not fork: a forked worker would inherit the parent's threads and locks mid-use
    with cf.ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as ex:
        futures = {ex.submit(fn, job): k for k, job in enumerate(jobs)}
        for f in cf.as_completed(futures):
            k = futures[f]
            got[k] = f.result()
            done += units[k]
            if progress is not None:
                progress(done, total)
    return got
