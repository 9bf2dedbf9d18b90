"""``leaf``: ``@njit(cache=True)`` for kernels that allocate no array, without reference counting.

numba counts the references to every array a compiled function receives: an atomic increment on
entry and a decrement on every exit, in every call, plus one pair per slice or row taken, which
LLVM's reference-count pruning removes only in the simplest functions. In the games' hot loops (a
step, a bot's choice and their helpers, hundreds of calls per game) those atomics took a third of
the time (perf, issue 20). A kernel that creates no array and returns none needs no counting: its
callers hold every array it sees, and its slices and views die before it returns. ``leaf``
compiles it with numba's ``_nrt=False``; an allocation inside (``np.zeros``, ``np.empty``,
``.copy()``) then fails to compile, so the rule cannot be broken silently.

Both compile without numba's C-callable wrapper (``no_cfunc_wrapper``): nothing here takes a
kernel's address, and the wrapper cost about 5% of a game's cold compile (issue 42).

Both compile one version of a kernel where numba compiles many: numba types a constant argument
(``xr(data, X_NTILES)``, ``_conquer(s, data, -1)``) as its own literal type and an int32 read from
an array apart from an int64, and compiled a kernel called from compiled code once for each: 24
versions of one Celtic Quest accessor, 7 of Celtic Trader's goal search, about a fifth of the
game's cold compile (issue 42). Here a compiled caller's constants and signed integers narrower
than 64 bits reach the kernel as int64 (numba computes with int64 anyway); other types keep their
own versions.

A leaf whose one caller is another leaf, and whose own compiled module is large (a whole subtree of
kernels), is declared ``inline="always"``: numba compiles every kernel as a module of its own that
links, optimises and emits its callees' code again, so a middle layer called once costs a module
for nothing. Celtic Quest's greedy middle layers (``planned_move``, ``_move``, ``_quest_phase`` and
their single-use helpers) cost 3-5 s of its 40 s cold compile that way, and 9 s of its search
level's (issue 42). Inlining every single-use leaf, the small ones too, made it slower (59 s):
numba re-types and re-simplifies the caller for each kernel inlined into it. Nor may the kernel
be reached another way (a re-export, a kernel handed to the search): it is then compiled twice,
once inlined and once on its own. Celtic Quest's ``greedy_action`` inlined into the policy
dispatch added 12 s to the search level's cold compile, Catan's ``advance`` inlined into ``step``
2 s.

Kernels that allocate keep ``@njit(cache=True)`` and may call leaves. A leaf may call one of them
only if it is ``@counted``: numba compiles a callee that does not say otherwise with its caller's
setting, so a plain ``@njit`` kernel that allocates fails to compile under a leaf.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64
from numba.core import types
from numba.core.registry import CPUDispatcher

from sim.core import lazy_codegen, numba_patch

numba_patch.apply()  # a faster inline="always" (sim/core/numba_patch.py), before any compile
lazy_codegen.apply()  # a callee's machine code only if it runs (sim/core/lazy_codegen.py)


def _widened(ty):
    """The type a kernel is compiled for when a compiled caller passes ``ty``."""
    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and ty.signed and ty.bitwidth < 64:
        return types.int64
    return ty


class _OneVersionDispatcher(CPUDispatcher):
    """numba's dispatcher, compiled once for every constant and narrow signed integer that
    compiled callers pass (a call from Python is typed as before)."""

    def get_call_template(self, args, kws):
        args = tuple(_widened(a) for a in args)
        kws = {k: _widened(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def __init__(self, *args, **kwargs):  # a copy (sim.core.specialize) compiles lazily too
        super().__init__(*args, **kwargs)
        lazy_codegen.register(self.py_func)

    def compile(self, sig):
        with lazy_codegen.compiling():
            return super().compile(sig)

    def add_overload(self, cres):
        if lazy_codegen.is_pending(cres.library):
            self._menhir_lazy_versions = True
        super().add_overload(cres)

    def __call__(self, *args, **kws):
        if self.__dict__.get("_menhir_lazy_versions"):  # emitted before a call from Python
            self._menhir_lazy_versions = False
            lazy_codegen.materialize_dispatcher(self)
        return super().__call__(*args, **kws)


def one_version(kernel):
    """``kernel`` (an njit dispatcher) compiled once for every constant and narrow signed
    integer its compiled callers pass (:class:`_OneVersionDispatcher`)."""
    if isinstance(kernel, CPUDispatcher):  # not with NUMBA_DISABLE_JIT (a Python function)
        kernel.__class__ = _OneVersionDispatcher  # njit's own checks and options, then ours
        lazy_codegen.register(kernel.py_func)
    return kernel


def leaf(func=None, **options):
    """``@leaf`` or ``@leaf(inline="always")``: a cached njit kernel without reference counts."""

    def wrap(f):
        return one_version(njit(cache=True, _nrt=False, no_cfunc_wrapper=True, **options)(f))

    return wrap(func) if func is not None else wrap


def counted(func=None, **options):
    """``@counted``: ``@njit(cache=True)`` with reference counting on explicitly, for a kernel
    that allocates and is called from a leaf."""

    def wrap(f):
        return one_version(njit(cache=True, _nrt=True, no_cfunc_wrapper=True, **options)(f))

    return wrap(func) if func is not None else wrap


WIDE_COPY_WORDS = 256  # copy_part: from this many items, a copy the processor does wide


@leaf
def copy_wide(dst, src, start, stop):
    """:func:`copy_part` by wide loads and stores: the index is unsigned (``start`` is never
    negative). A signed one is wrapped when negative, so LLVM could not tell the items apart in
    memory and copied them by masked gather and scatter, 11% of Troy's search (issue 42)."""
    for i in range(uint64(start), uint64(stop)):
        dst[i] = src[i]


@leaf
def copy_part(dst, src, start, stop):
    """``dst[start:stop] = src[start:stop]`` as a plain loop. numba's slice assignment is several
    times slower, and for its shape check's error message it compiles numba's string formatting:
    about a second of each game's cold compile of the search (issue 42). From
    :data:`WIDE_COPY_WORDS` items it is :func:`copy_wide`; below, a signed loop: Celtica's
    176-word positions, copied wide, ran its search 8% slower (the time went to the rollout's
    next call, not to the copy), and the search's 4-word stream copies gained nothing."""
    if stop - start >= WIDE_COPY_WORDS:
        copy_wide(dst, src, start, stop)
        return
    for i in range(start, stop):
        dst[i] = src[i]


@leaf
def copy_state(state, out):
    """``out[:] = state``: the whole array, as :func:`copy_part` copies (the games' ``step`` copies
    its input before it applies an action in place)."""
    copy_part(out, state, 0, state.shape[0])


def work_arrays(n_players: int, state_len: int, max_actions: int) -> tuple:
    """``(streams, state, buf)``, zeroed: the work arrays a leaf chunk loop gets from its caller
    (it may not allocate them itself): the chance streams (the game's, then one per seat), the
    int32 state it plays in place and the int32 action buffer."""
    streams = np.zeros((1 + n_players, 4), np.uint64)
    return streams, np.zeros(state_len, np.int32), np.zeros(max_actions, np.int32)
