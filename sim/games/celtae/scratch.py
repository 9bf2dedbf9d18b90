"""Stack work arrays for leaf kernels: moved to sim/core/scratch.py (shared by the games)."""

from sim.core.scratch import stack_float64, stack_int32, stack_int64

__all__ = ["stack_float64", "stack_int32", "stack_int64"]
