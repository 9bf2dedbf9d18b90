"""Two cores for one cold compile: half of a chunk loop's kernels compile in a second process.

numba compiles a chunk loop as a tree of cached kernels, each callee before its caller, one
after the other on one core: a game's rules (``init_state``, ``advance``) and its greedy policy
are two large subtrees that share little. On a cold cache, :func:`prepare` (called by a game's
``play`` before the loop's first call) hands one of them to a second process: the game's play
module names the halves (``compile_halves(args, search) -> (here, there)``, each a list of
``(kernel, arguments)`` with arguments of the types the loop passes); the second process
compiles ``there`` into numba's on-disk cache while this one compiles ``here``, then the loop's
own compile loads the second process's kernels from the cache. A cached kernel keeps its LLVM
bitcode for its callers to inline, so the loop is optimised as when both halves compiled in
this process before it (below): the compiled code, and every table, are the same. Measured
(issue 42, quiet 2-core machine, empty cache, Troy's plain loop): 19.2 s on one core, 10.5 s
split.

It is skipped when the loop is in the cache already (its index file exists) and under
``NUMBA_DISABLE_JIT``. With one core, or ``MENHIR_SPLIT_COMPILE=0`` (the test session's warm-up
compiles one game per core already), both halves compile in this process, one after the other,
before the loop: LLVM then inlines within the loop as it does after a split compile. Left to the
loop's own nested compile, it inlined otherwise (Celtica's ``reach_limits`` stayed out of its
greedy policy, ``seed_streams`` out of the loop) and the code ran slower: Celtica search 4
players, one process, caches compiled each way, interleaved: 77-85 games/s against 91-95,
Celtic Trader search 110-117 against 115-121; the tables are the same. The second process runs
in the folder that holds ``sim/``, so it imports the sources this process runs (``-m`` puts the
working directory first on its path: a command run from another checkout's folder had its
second process compile that checkout's kernels, and this one compiled them all again, the
slower way). The second process is best effort: if it fails or is slow, this process compiles
what it left. It ends as soon as its kernels are in the cache
(``os._exit``): the interpreter's teardown, which frees every compiled module, kept the loop
waiting 0.5 s more (issue 42).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numba import typeof
from numba.core.dispatcher import Dispatcher

from sim.core.kernel import _widened
from sim.core.lazy_codegen import lazy_roots
from sim.core.rng import seed_streams

ENV = "MENHIR_SPLIT_COMPILE"
WAIT_SECONDS = 900  # the second process's limit (its kernels then compile here)

Part = tuple[Dispatcher, tuple]  # a kernel and arguments of the types its loop passes
Halves = Callable[[tuple, bool], tuple[Sequence[Part], Sequence[Part]]]

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds sim/ and strategies/
_PREPARED: set[int] = set()  # loops already prepared (or found cached) in this process


def signature(args: tuple) -> tuple:
    """numba's argument types for ``args`` as a compiled caller passes them (an int as int64)."""
    return tuple(_widened(typeof(a)) for a in args)


def enabled() -> bool:
    """Whether a cold compile may use a second process (two cores, not turned off)."""
    if os.environ.get(ENV, "1") == "0":
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores >= 2


def index_path(kernel) -> Path | None:
    """Where numba keeps the index of ``kernel``'s cached versions (None: not a cached kernel)."""
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    return Path(index) if index else None


def is_cached(kernel) -> bool:
    """Whether numba's cache holds a compiled version of ``kernel`` (its index file exists)."""
    index = index_path(kernel)
    return index is None or index.exists()


def policy_and_rules(args, search, policies, init_state, advance, determinize) -> tuple:
    """The halves of a loop called as ``(data, n_players, codes, params, ..., streams, a, buf)``
    that calls ``init_state(data, n_players, streams[0], a)``, ``advance(a, action, data,
    streams[0])``, each of ``policies`` as ``policy(a, data, seat, params[seat], streams[1 +
    seat], buf)`` and, in its search, ``determinize(a, data, seat, rng, out)``: the policies
    here, the rules in the second process (the two largest subtrees, and the rules are called
    last, after the policy, so the second process has the most time)."""
    data, n_players, _, params, *_, streams, a, buf = args
    rules = [(init_state, (data, n_players, streams[0], a)), (advance, (a, 0, data, streams[0]))]
    if search:
        rules.append((determinize, (a, data, 0, streams[0], a)))
    return [(policy, (a, data, 0, params[0], streams[1], buf)) for policy in policies], rules


def loop_callees(args, write_results, decision_kind, with_data: bool, seeds_at=4) -> list[Part]:
    """The small callees of a loop called as ``(data, ..., seeds, *results, actions, streams,
    a, buf)`` (``seeds`` at ``seeds_at``: ``(data, n_players, codes, params, seeds, ...)``
    by default): ``write_results(a, data, g, *results)``, ``decision_kind(a, data, action)``
    (``decision_kind(a, action)`` without ``with_data``) and the seeding. Compiled in the
    half that ends first, they are cached when the loop's own compile reaches them; left out,
    the loop compiled them after both halves, on one core (0.3-0.9 s of a cold start, issue
    42)."""
    data, seeds = args[0], args[seeds_at]
    *results, _, streams, a, _ = args[seeds_at + 1 :]
    kind_args = (a, data, 0) if with_data else (a, 0)
    return [
        (write_results, (a, data, 0, *results)),
        (decision_kind, kind_args),
        (seed_streams, (streams, seeds[0])),
    ]


def checked_halves(data, n_players, params, policies, init_state, roles, step) -> tuple:
    """The halves of a checked loop (sim/core/check.py): the policies its random and greedy
    seats play (``policy(state, data, seat, params[seat], rng, buf)``) here, ``init_state(data,
    n_players, *roles, rng, state)`` and ``step(state, action, data, rng, out)`` in the second
    process. The loop allocates its state, buffers and chance streams itself: arrays of their
    types stand in."""
    state, buf, rng = np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(4, np.uint64)
    here = [(policy, (state, data, 0, params[0], rng, buf)) for policy in policies]
    rules = [
        (init_state, (data, n_players, *roles, rng, state)),
        (step, (state, 0, data, rng, state)),
    ]
    return here, rules


def compile_parts(parts: Sequence[Part]) -> None:
    """Compile each kernel for its arguments' types (not one that its callers inline: it would
    compile on its own for nothing)."""
    with lazy_roots():  # for the loop to link: no machine code (sim/core/lazy_codegen.py)
        for kernel, args in parts:
            if kernel.targetoptions.get("inline") != "always":
                kernel.compile(signature(args))


def prepare(kernel, args: tuple, halves: Halves, search: bool) -> None:
    """Before ``kernel(*args)``: on a cold cache, compile ``halves(args, search)``'s first half
    here and its second in a second process (the module docstring); then the call compiles the
    loop itself, which loads both. Does nothing when the loop is cached or in memory."""
    if not isinstance(kernel, Dispatcher) or id(kernel) in _PREPARED:
        return
    _PREPARED.add(id(kernel))
    if kernel.overloads or is_cached(kernel):
        return
    here, there = halves(args, search)
    if not enabled():  # both halves here, as the loop links them after a split compile
        compile_parts([*here, *there])
        return
    helper = _start(halves, args, search) if there else None
    try:
        compile_parts(here)
    except BaseException:
        _stop(helper)
        raise
    if helper is None:
        return
    try:
        helper.wait(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:  # too slow: its kernels then compile here
        _stop(helper)
    except BaseException:
        _stop(helper)
        raise


def _start(halves: Halves, args: tuple, search: bool) -> subprocess.Popen | None:
    """The second process, given the job on its stdin (None if it could not be started)."""
    try:
        job = pickle.dumps((halves, args, search))
        helper = subprocess.Popen(
            [sys.executable, "-m", "sim.core.split_compile"],
            cwd=PACKAGE_ROOT,  # first on its path: the same sources as this process's
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, pickle.PicklingError, AttributeError, TypeError):
        return None
    try:
        helper.stdin.write(job)
        helper.stdin.close()
    except OSError:
        _stop(helper)
        return None
    return helper


def _stop(helper: subprocess.Popen | None) -> None:
    if helper is not None:
        with contextlib.suppress(OSError):
            helper.kill()
        helper.wait()


def main() -> None:
    """The second process: compile the second half of the job on stdin into the cache."""
    halves, args, search = pickle.load(sys.stdin.buffer)
    _, there = halves(args, search)
    compile_parts(there)
    os._exit(0)  # the kernels are in the cache: no teardown (the module docstring)


if __name__ == "__main__":
    main()
