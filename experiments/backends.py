"""Where chunks are played: in this process, in joblib's process pool, or on a Dask cluster.

Each backend offers ``submit(fn, *args) -> future``, ``wait_any(futures) -> finished futures``,
``result(future)`` and ``capacity`` (chunks kept in flight). Results never depend on the backend:
a chunk's rows depend on its game indices only.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from contextlib import contextmanager

from experiments.config import UserError

CONNECT_TIMEOUT = "20s"  # to reach a Dask scheduler


class InlineBackend:
    """One job: play each chunk here, when it is submitted (no worker start-up cost)."""

    capacity = 1

    def submit(self, fn, *args) -> cf.Future:
        future: cf.Future = cf.Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # re-raised by result(), like a pool would
            future.set_exception(exc)
        return future

    def wait_any(self, futures):
        return futures

    def result(self, future):
        return future.result()


class LokyBackend:
    """``jobs`` worker processes from joblib's (loky) reusable process pool.

    The pool comes from joblib's own factory, not loky's: joblib's ``Parallel`` (the ladder,
    ``menhir bench``) reuses the same process-wide pool and expects what joblib attaches to it;
    a pool made by loky directly made a later ``Parallel`` in the same process fail.
    """

    def __init__(self, jobs: int):
        from joblib.executor import get_memmapping_executor

        self.executor = get_memmapping_executor(jobs, timeout=60)
        self.capacity = 2 * jobs

    def submit(self, fn, *args):
        return self.executor.submit(fn, *args)

    def wait_any(self, futures):
        done, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, future):
        return future.result()


class DaskBackend:
    """A Dask distributed cluster: an existing scheduler, or a LocalCluster of ``jobs`` workers."""

    def __init__(self, scheduler: str | None, jobs: int):
        from distributed import Client, LocalCluster

        self.cluster = None
        if scheduler is None:
            self.cluster = LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            scheduler = self.cluster.scheduler_address
        try:
            self.client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise UserError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
        try:
            self.client.wait_for_workers(1, timeout=60)
        except TimeoutError:
            self.close()
            raise UserError(f"--scheduler {scheduler}: no worker joined within 60 s") from None
        threads = sum(w["nthreads"] for w in self.client.scheduler_info()["workers"].values())
        self.capacity = 2 * max(1, threads)

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait_any(self, futures):
        from distributed import wait

        return list(wait(futures, return_when="FIRST_COMPLETED").done)

    def result(self, future):
        value = future.result()
        future.release()
        return value

    def close(self):
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()


def default_jobs() -> int:
    return os.cpu_count() or 1


@contextmanager
def make_backend(name: str, jobs: int | None, scheduler: str | None):
    """The backend a run asked for; jobs defaults to every core."""
    jobs = jobs or default_jobs()
    if name == "dask":
        backend = DaskBackend(scheduler, jobs)
        try:
            yield backend
        finally:
            backend.close()
    elif jobs == 1:
        yield InlineBackend()
    else:
        yield LokyBackend(jobs)
