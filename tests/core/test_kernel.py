"""sim/core/kernel.py: a kernel is compiled once however its callers pass integers (issue 42)."""

import numpy as np
from numba import njit, types

from sim.core.kernel import WIDE_COPY_WORDS, copy_part, copy_wide, leaf


@leaf
def _double(x):
    return 2 * x


@njit
def _double_plain(x):
    return 2 * x


def _called_with(kernel, *arg_types):
    """The versions ``kernel`` holds after compiled callers pass it each of ``arg_types``."""
    for ty in arg_types:
        kernel.get_call_template((ty,), {})
    return set(kernel.signatures)


def test_constants_and_narrow_integers_share_one_version():
    passed = (types.literal(3), types.literal(-1), types.int32, types.int64, types.int16)
    assert _called_with(_double, *passed) == {(types.int64,)}
    # numba's own dispatch compiles one version per constant and per width
    assert len(_called_with(_double_plain, *passed)) == 5


def test_other_types_keep_their_own_version():
    assert _called_with(_double, types.float64, types.uint64) >= {
        (types.float64,),
        (types.uint64,),
    }


@leaf
def _caller(x):
    return _double(7) + _double(x)


def test_a_caller_gets_the_widened_kernel_and_the_right_value():
    assert _caller(5) == 24


def test_copy_part_copies_that_part_only():
    """The search's copies (issue 42: a plain loop, not numba's slice assignment)."""
    src = np.arange(10, dtype=np.int32)
    dst = np.full(10, -1, np.int32)
    copy_part(dst, src, 3, 7)
    assert dst.tolist() == [-1, -1, -1, 3, 4, 5, 6, -1, -1, -1]
    streams = np.array([1, 2, 3, 4], np.uint64)
    into = np.zeros(4, np.uint64)
    copy_part(into, streams, 0, 4)
    assert into.tolist() == [1, 2, 3, 4]


def test_copy_part_copies_nothing_for_an_empty_part():
    dst = np.zeros(5, np.int32)
    copy_part(dst, np.arange(5, dtype=np.int32), 4, 2)  # stop before start
    copy_part(dst, np.arange(5, dtype=np.int32), 3, 3)
    assert dst.tolist() == [0, 0, 0, 0, 0]


def test_copy_part_copies_long_parts_whole_too():
    """From WIDE_COPY_WORDS items copy_part copies by copy_wide."""
    n = WIDE_COPY_WORDS + 37
    src = np.arange(2 * n, dtype=np.int32)
    dst = np.full(2 * n, -1, np.int32)
    copy_part(dst, src, 5, 5 + n)
    assert (dst[5 : 5 + n] == src[5 : 5 + n]).all()
    assert (dst[:5] == -1).all() and (dst[5 + n :] == -1).all()


def test_a_long_copy_is_a_contiguous_copy_not_a_gather():
    """With a signed index numba wraps a negative one, so LLVM could not prove the words
    contiguous and copied a Troy position by masked gather and scatter, 11% of its search
    (issue 42). The optimised IR of the wide copy must have neither (on a processor without
    vector gathers the old copy had none either, so there this only checks the new)."""
    state = np.zeros(8, np.int32)
    copy_wide(state, state, 0, 8)
    ir = copy_wide.inspect_llvm()[(types.Array(types.int32, 1, "C"),) * 2 + (types.int64,) * 2]
    assert "masked.gather" not in ir and "masked.scatter" not in ir
