"""Where chunks are played: in this process, in joblib's process pool, or on a Dask cluster.

Each backend offers ``submit(fn, *args) -> future``, ``wait_any(futures) -> finished futures``,
``result(future)`` and ``capacity`` (chunks kept in flight). Results never depend on the backend:
a chunk's rows depend on its game indices only.

Local workers end with the run (issue 19, defect 6): they are started with SIGINT blocked (a
Ctrl-C in the terminal reaches the whole process group; the runner alone answers it), the pool
is killed when the run ends by an exception or a signal, and a worker asks the kernel to kill
it when its parent dies (``guard_worker``), which covers ``kill -9`` of the runner.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import sys
import threading
from contextlib import contextmanager

from experiments.config import UserError

CONNECT_TIMEOUT = "20s"  # to reach a Dask scheduler
PR_SET_PDEATHSIG = 1  # linux/prctl.h

_guarded = False


def guard_worker(parent: int | None) -> None:
    """In a local worker (a child of the runner ``parent``): die with the parent, ignore SIGINT.

    Runs at the start of every chunk, acts once per process. A remote Dask worker (another
    parent) and the runner itself (the inline backend) are left alone.
    """
    global _guarded
    if _guarded or parent is None or os.getpid() == parent:
        return
    _guarded = True
    if os.getppid() != parent:
        if os.getppid() == 1:  # the runner already died: nobody will read this chunk
            os._exit(1)
        return
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # died between the check and the prctl
            os._exit(1)


@contextmanager
def sigint_blocked():
    """Processes and threads started inside inherit a blocked SIGINT (restored here after)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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

        with sigint_blocked():  # threads and workers started here inherit a blocked SIGINT
            self.executor = get_memmapping_executor(jobs, timeout=60)
        self.capacity = 2 * jobs

    def submit(self, fn, *args):
        with sigint_blocked():  # loky starts workers (and its manager thread) on submit
            return self.executor.submit(fn, *args)

    def wait_any(self, futures):
        done, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, future):
        return future.result()

    def kill(self):
        """Stop every worker now (the run ended by an exception or a signal)."""
        self.executor.shutdown(wait=False, kill_workers=True)


class DaskBackend:
    """A Dask distributed cluster: an existing scheduler, or a LocalCluster of ``jobs`` workers."""

    def __init__(self, scheduler: str | None, jobs: int):
        from distributed import Client, LocalCluster

        self.cluster = None
        if scheduler is None:
            with sigint_blocked():
                self.cluster = LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    # any free port: None still binds the scheduler's HTTP server to 8787
                    # (dask/distributed#8136), and a second run at the same time warned
                    # "Port 8787 is already in use. Perhaps you already have a cluster running?"
                    dashboard_address=":0",
                )
            scheduler = self.cluster.scheduler_address
        try:
            self.client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except ValueError as exc:  # not an address at all ("missing port number", a bad scheme)
            self.close()
            raise UserError(
                f"--scheduler {scheduler!r}: not a scheduler address ({exc}); "
                "give one such as tcp://HOST:8786"
            ) from None
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
        backend = LokyBackend(jobs)
        try:
            yield backend
        except BaseException:
            backend.kill()
            raise
