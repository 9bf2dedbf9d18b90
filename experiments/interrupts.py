"""Ctrl-C and SIGTERM for long commands: one shared helper (issue 36, defects 12 and 18).

Inside :func:`sigterm_raises`, SIGTERM raises :class:`Terminated` (a KeyboardInterrupt), so a
command unwinds exactly as on Ctrl-C: its ``with make_backend(...)`` block stops every worker
process, its folder lock is released, and the command prints one line saying what it kept and
exits 143 (130 for Ctrl-C).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager


class Terminated(KeyboardInterrupt):
    """Raised by the SIGTERM handler, so a command unwinds as on Ctrl-C."""


def exit_code(exc: BaseException) -> int:
    """128 + the signal: 143 for SIGTERM, 130 for Ctrl-C."""
    return 143 if isinstance(exc, Terminated) else 130


def how(exc: BaseException) -> str:
    return "terminated" if isinstance(exc, Terminated) else "interrupted"


def _drop_thread_error(args) -> None:
    """``threading.excepthook`` once a signal ends the command: nothing is printed."""


def quiet_threads() -> None:
    """From now on a background thread's exception prints nothing. Once SIGTERM ends a command,
    its worker pool is torn down under its own threads: loky's manager thread then sometimes
    fails (a KeyError in ``add_call_item_to_queue``), and its traceback buried the one line the
    command prints (seen once in CI, issue 42). The process is ending; the line says what it
    kept."""
    threading.excepthook = _drop_thread_error


@contextmanager
def sigterm_raises(exc_type=Terminated):
    """While inside: SIGTERM raises ``exc_type`` so the command unwinds (workers stopped, lock
    released, one line printed) as it does on Ctrl-C; after it, background threads fail
    silently (:func:`quiet_threads`)."""

    def on_term(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one unwinding, not two
        quiet_threads()
        raise exc_type()

    try:
        previous = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread (e.g. a test runner's thread): leave it
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
