"""Matches and reviews spread over a Ray cluster (`atelier play --ray`, `atelier review --ray`,
docs/ray.md).

    from atelier import distributed
    distributed.connect()            # a local Ray on this machine; or "auto", "ray://host:10001", "host:6379"
    r = distributed.play("inventors", ["mcts:200", "greedy"], games=10_000, seed=1)

The results are those of `atelier.match.play` and `atelier.review.review` with the same
arguments, whatever the number of workers: every game's seeds and seat rotation (every
decision's search seed) derive from the seed and its index, assigned before dispatch, and the
results are put back in order by index. A task whose worker dies is run again (Ray's own
retries, then re-submission here), and a result is taken once per index, so no game is lost or
counted twice.

Ray is imported only here, and only when called: atelier runs without it.
"""
from __future__ import annotations

import os

from .errors import InputError

NOT_INSTALLED = "--ray: Ray is not installed; pip install 'atelier[ray]'"
MAX_RETRIES = 3        # Ray's retries of a task whose worker died
RESUBMITS = 3          # then ours, of a task that still failed from a dead worker
TASKS_PER_CPU = 8      # games are grouped in about this many tasks per CPU of the cluster
MAX_CHUNK = 50         # games per task at most (progress and re-runs stay fine-grained)
CRASH_ENV = "ATELIER_RAY_TEST_CRASH"   # tests only: "GAME:MARKER", see _crash_hook


def _ray():
    try:
        import ray
    except ImportError:
        raise InputError(NOT_INSTALLED) from None
    return ray


def connect(address: str | None = None, num_cpus: int | None = None):
    """Join a Ray cluster: None or "local" starts one on this machine (`num_cpus`, default all
    of them), "auto" the one the environment names (RAY_ADDRESS, else a `ray start` on this
    machine), "ray://host:port" (Ray Client) or "host:port" a given one. Already connected:
    nothing to do. Returns the ray module."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    import logging

    quiet = {"logging_level": logging.WARNING, "log_to_driver": False}
    # atelier gets every task's result and reports a failure itself (one line): Ray's own log of
    # "unhandled" errors from the tasks cancelled after it would only repeat it as tracebacks.
    os.environ.setdefault("RAY_IGNORE_UNHANDLED_ERRORS", "1")
    _check_reachable(address)
    try:
        if address in (None, "", "local"):
            ray.init(num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False, **quiet)
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = "a local Ray" if address in (None, "", "local") else f"the Ray cluster at {address!r}"
        msg = " ".join(str(exc).split())[:300]
        raise InputError(f"--ray: cannot connect to {where} ({msg})") from None
    return ray


def _check_reachable(address, timeout: float = 5.0) -> None:
    """InputError now when a HOST:PORT (or ray://HOST:PORT) does not answer: Ray itself would
    wait minutes for it."""
    if address in (None, "", "local", "auto"):
        return
    import socket

    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(f"--ray {address!r}: expected local, auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise InputError(f"--ray: cannot connect to the Ray cluster at {address!r} "
                         f"({exc.strerror or exc.__class__.__name__})") from None


def _cluster_cpus(ray) -> int:
    try:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception:   # noqa: BLE001  (a figure for chunking only)
        return 1


def _crash_hook(crash, games):
    """Tests only: with crash = (game, marker), the worker process dies (os._exit) on its first
    attempt of that game, leaving `marker` behind, so the re-run is seen to happen."""
    if crash is None:
        return
    game, marker = crash
    if game in games:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(fd)
        os._exit(17)


def _crash_setting():
    text = os.environ.get(CRASH_ENV)
    if not text:
        return None
    game, _, marker = text.partition(":")
    return int(game), marker


def _materialize_edition(edition):
    """A path to the edition file in this process: the driver sends the file's text, since the
    worker may be on a machine without the driver's files."""
    if edition is None or isinstance(edition, str):
        return edition
    import hashlib
    import tempfile

    text = edition["text"]
    name = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f"atelier-edition-{os.getuid() if hasattr(os, 'getuid') else 0}-{name}.json")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    return path


def _play_games(indices, game, bots, seed, threads, keep_moves, edition, crash=None):
    """The records of games `indices` of a match (run in a Ray worker)."""
    from . import match

    _crash_hook(crash, indices)
    path = _materialize_edition(edition)
    return [match.play_game(game, bots, i, seed, len(bots), threads, keep_moves, path) for i in indices]


def _judge_many(ks, record, settings, crash=None):
    """The Decisions of moves `ks` of a record dict (run in a Ray worker)."""
    from . import records, review

    _crash_hook(crash, ks)
    rec = records.from_dict(record)
    return [review.judge(rec, k, **settings) for k in ks]


def _selfplay(indices, game, players, spec, model, seed, gen, positions, epsilon, determinized, crash=None):
    """Training rows of self-play games `indices` (run in a Ray worker; atelier.train)."""
    from . import train

    _crash_hook(crash, indices)
    return train.selfplay_games(indices, game, players, spec, model, seed, gen, positions, epsilon, determinized)


def _is_crash(ray, exc) -> bool:
    """Did the task fail because its worker or node died (not because of the task's own error)?"""
    ex = ray.exceptions
    crashes = tuple(getattr(ex, n) for n in ("WorkerCrashedError", "NodeDiedError", "LocalRayletDiedError",
                                             "ObjectLostError", "OwnerDiedError", "ActorDiedError")
                    if hasattr(ex, n))
    if isinstance(exc, crashes):
        return True
    if isinstance(exc, ex.RayTaskError):
        cause = getattr(exc, "cause", None)
        return isinstance(cause, crashes) or "SystemExit" in type(cause).__name__
    return False


def _run(ray, remote, chunks, args, num_cpus, progress, total):
    """Run `remote(chunk, *args)` for every chunk (a list of indices); progress(done, total) as
    each task completes, done counting the items of the tasks finished; the results flattened.
    A task lost to a dead worker is retried by Ray (max_retries), then submitted again here."""
    task = remote.options(num_cpus=num_cpus, max_retries=MAX_RETRIES, retry_exceptions=False)
    pending = {}
    tries = {}
    for c, chunk in enumerate(chunks):
        pending[task.remote(chunk, *args)] = c
        tries[c] = 0
    results: dict[int, list] = {}
    done = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            c = pending.pop(ref)
            try:
                got = ray.get(ref)
            except Exception as exc:   # noqa: BLE001
                if _is_crash(ray, exc) and tries[c] < RESUBMITS:
                    tries[c] += 1
                    pending[task.remote(chunks[c], *args)] = c
                    continue
                cause = getattr(exc, "cause", None)
                if isinstance(cause, InputError):
                    raise cause from None
                # Anything else from a worker (atelier not installed there, a crash past the
                # retries) is one line for the user, not a remote traceback.
                lines = str(cause if cause is not None else exc).strip().splitlines() or [type(exc).__name__]
                what = lines[-1].strip()   # Ray wraps the worker's traceback: its last line says it
                if "No module named 'atelier" in str(exc):
                    what += "; every machine of the cluster needs atelier installed"
                for other in pending:
                    try:
                        ray.cancel(other, force=True)
                    except Exception:   # noqa: BLE001  (already finished or gone)
                        pass
                raise InputError(f"--ray: a task failed on the cluster ({what})") from None
            if c in results:    # cannot happen (one live task per chunk); never count twice
                continue
            results[c] = got
            done += len(chunks[c])
            if progress is not None:
                progress(done, total)
    return [x for c in range(len(chunks)) for x in results[c]]


def _chunks(indices, cpus, chunk=None):
    n = len(indices)
    if chunk is None:
        chunk = max(1, min(MAX_CHUNK, n // (TASKS_PER_CPU * cpus)))
    return [indices[j:j + chunk] for j in range(0, n, chunk)]


def runner(address=None, chunk=None, num_cpus=None):
    """A `runner` for atelier.match.play that plays the games on Ray (`connect(address)`),
    `chunk` games per task (default: about TASKS_PER_CPU tasks per CPU of the cluster)."""
    def run(game, bots, games, seed, threads, keep_moves, edition, progress):
        ray = connect(address, num_cpus)
        ed = edition
        if edition is not None:
            try:
                with open(edition, encoding="utf-8") as f:
                    ed = {"text": f.read()}
            except OSError:
                ed = edition   # already checked by match.play; let the worker say what is wrong
        remote = ray.remote(_play_games)
        chunks = _chunks(list(range(games)), _cluster_cpus(ray), chunk)
        return _run(ray, remote, chunks, (game, list(bots), seed, threads, keep_moves, ed, _crash_setting()),
                    threads, progress, games)

    return run


def review_runner(address=None, chunk=1, num_cpus=None):
    """A `runner` for atelier.review.review that judges the decisions on Ray, `chunk` per task."""
    def run(record, todo, settings, progress):
        ray = connect(address, num_cpus)
        remote = ray.remote(_judge_many)
        ref = ray.put(record)   # sent to the cluster once, not once per decision
        chunks = _chunks(list(todo), _cluster_cpus(ray), chunk)
        return _run(ray, remote, chunks, (ref, settings, _crash_setting()), settings.get("threads", 1),
                    progress, len(todo))

    return run


def selfplay_runner(address=None, chunk=None, num_cpus=None):
    """A `runner` for atelier.train.generate: the self-play games on Ray, the model sent to the
    cluster once; the rows are those of a local run (each game depends on its index only)."""
    def run(indices, args, progress):
        ray = connect(address, num_cpus)
        remote = ray.remote(_selfplay)
        game, players, spec, model, seed, gen, positions, epsilon, determinized = args
        ref = ray.put(model)
        chunks = _chunks(list(indices), _cluster_cpus(ray), chunk)
        return _run(ray, remote, chunks, (game, players, spec, ref, seed, gen, positions, epsilon, determinized,
                                          _crash_setting()),
                    1, progress, len(indices))

    return run


def play(game, bots, games=100, seed=0, threads=1, progress=None, keep_moves=False, edition=None,
         address=None, chunk=None):
    """atelier.match.play over Ray: the same arguments and the same MatchResult."""
    from . import match

    _ray()
    return match.play(game, bots, games=games, seed=seed, threads=threads, progress=progress,
                      keep_moves=keep_moves, edition=edition, runner=runner(address, chunk))


def review(record, seat=None, iterations=None, seconds=None, threads=1, seed=0, exact_nodes=None,
           progress=None, address=None, chunk=1):
    """atelier.review.review over Ray: the same arguments and the same Review."""
    from . import review as rv

    _ray()
    return rv.review(record, seat=seat, iterations=iterations, seconds=seconds, threads=threads, seed=seed,
                     exact_nodes=rv.DEFAULT_EXACT_NODES if exact_nodes is None else exact_nodes,
                     progress=progress, runner=review_runner(address, chunk))
