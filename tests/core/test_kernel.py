"""sim/core/kernel.py: a kernel is compiled once however its callers pass integers (issue 42)."""

from numba import njit, types

from sim.core.kernel import leaf


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
