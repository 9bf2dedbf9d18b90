"""Small work arrays on the stack, for kernels compiled without reference counting.

A ``leaf`` kernel (sim/core/kernel.py) may not allocate, yet some need a few work values (Celtae's
``settle`` lists the options of each phase it passes through, Catan's longest-road search keeps
its trail on a stack). ``stack_int32(n)``, ``stack_int64(n)``, ``stack_uint64(n)`` and
``stack_float64(n)`` (``n`` a literal) return an uninitialised 1-d array of ``n`` items held in
the calling function's stack frame (an ``alloca`` in its entry block, made once per call of the
caller, however often the line runs): no heap, no meminfo, nothing to count or free. The array
must not outlive that call (never returned or stored), which is how ``np.empty`` work arrays
were used here anyway.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


def _stack_array(dtype):
    """An intrinsic ``f(n)`` returning a C-contiguous ``dtype`` array of literal length ``n``
    in the caller's frame."""
    arr_type = types.Array(dtype, 1, "C")

    @intrinsic
    def stack_array(typingctx, size):
        if not isinstance(size, types.IntegerLiteral):
            return None
        n = size.literal_value

        def codegen(context, builder, sig, args):
            item = context.get_value_type(dtype)
            data = cgutils.alloca_once(builder, item, size=n)
            intp = context.get_value_type(types.intp)
            width = context.get_abi_sizeof(item)
            arr = make_array(arr_type)(context, builder)
            populate_array(
                arr,
                data=data,
                shape=[intp(n)],
                strides=[intp(width)],
                itemsize=intp(width),
                meminfo=None,
            )
            return arr._getvalue()

        return arr_type(size), codegen

    return stack_array


stack_int32 = _stack_array(types.int32)
stack_int64 = _stack_array(types.int64)
stack_float64 = _stack_array(types.float64)
stack_uint64 = _stack_array(types.uint64)
