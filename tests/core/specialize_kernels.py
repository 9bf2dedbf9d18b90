"""Kernels for tests/core/test_specialize.py: a hook behind a module constant, as Celtic
Trader's rules carry Celtic Quest's (``QUEST_HOOKS``)."""

from numba import njit

HOOKS = True


@njit
def hook(x):
    return x + 100


@njit
def plain(x):
    return x + 1


@njit
def middle(x, on):
    if HOOKS and on:
        return hook(x)
    return plain(x)


@njit
def top(x, on):
    return 2 * middle(x, on)


@njit
def unrelated(x):
    return plain(x)


def caller_of(kernel):
    """A closure that calls ``kernel`` (the search bot calls the game's kernels so)."""

    @njit
    def call(x, on):
        return kernel(x, on) + 1000

    return call


@njit
def dispatch(x, on):
    """Stands for a game's bot dispatch (``choose_action``, which reaches the search)."""
    return hook(x)


@njit
def loop(x, on):
    """Stands for a checked loop calling the dispatch by its global name."""
    return dispatch(x, on) + middle(x, on)
