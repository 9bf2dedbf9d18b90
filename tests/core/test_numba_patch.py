"""sim/core/numba_patch.py: numba's inliner without the copies nobody reads (issue 42)."""

import subprocess
import sys

import numpy as np
from numba import njit
from numba.core.inline_closurecall import InlineWorker

from sim.core import numba_patch


def test_the_installed_numba_is_patched():
    # importing sim.core.kernel applies it; a numba whose inliner source changed would leave
    # it unpatched and this fails, so the edits get looked at again
    import sim.core.kernel  # noqa: F401

    assert numba_patch.apply()
    assert getattr(InlineWorker.inline_ir, "menhir_patched", False)


@njit(inline="always")
def _branchy(xs, k):
    # several blocks, loops, an early return: the callee IR the inliner copies
    total = 0
    for x in xs:
        if x == k:
            return -total
        if x % 2 == 0:
            total += x
        else:
            total -= 1
    return total


@njit
def _caller(xs, k):
    return _branchy(xs, k) + _branchy(xs, k + 1) * 2


def test_inlined_kernels_compute_what_python_does():
    xs = np.arange(-5, 40, dtype=np.int64)
    for k in (-9, 0, 3, 17, 38):
        expected = _branchy.py_func(xs, k) + _branchy.py_func(xs, k + 1) * 2
        assert _caller(xs, k) == expected


def test_turned_off_numba_is_left_as_it_is():
    code = (
        "import sim.core.kernel\n"
        "from numba.core.inline_closurecall import InlineWorker\n"
        "print(getattr(InlineWorker.inline_ir, 'menhir_patched', False))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"MENHIR_NUMBA_PATCH": "0", "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"
