"""Kernels for tests/core/test_split_compile.py: a loop over two subtrees, as a game's chunk
loop calls its policy and its rules."""

import numpy as np

from sim.core.kernel import leaf


@leaf
def policy(state, seat):
    return state[seat] * 3 + seat


@leaf
def rules(state, action):
    state[0] += action
    return state[0]


@leaf
def loop(state, n):
    total = 0
    for i in range(n):
        total += rules(state, policy(state, i % state.shape[0]))
    return total


def halves(args, search):
    """``policy`` here, ``rules`` in the second process (``search`` adds nothing)."""
    state, _ = args
    return [(policy, (state, 0))], [(rules, (state, 0))]


def state() -> np.ndarray:
    return np.arange(4, dtype=np.int32)


HOOKS = True  # a module constant for sim.core.specialize (tests/core/test_lazy_codegen.py)


@leaf
def hooked(state):
    return state[0] + (1 if HOOKS else 0)
