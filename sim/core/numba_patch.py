"""A faster inliner for numba's ``inline="always"`` (issue 42: cold compile).

numba inlines a kernel marked ``inline="always"`` by copying the callee's IR block by block with
``copy.deepcopy``, each block on its own, and each copy drags along the callee's whole variable
scope (every variable of the function with its source location): the copy grows with blocks
times variables. It then copies the copy once more, for a return value both of numba's callers
discard. Celtic Quest's greedy inlines its middle layers: its kernels compiled in one process
from an empty cache took 34.9-35.9 s with numba's copies, 33.1 s without.

:func:`apply` rewrites ``InlineWorker.inline_ir`` from numba's own source with two changes:
the blocks of one copy share one ``deepcopy`` memo (the scope is copied once, as the callee's
blocks share one scope), and the discarded second copy is not made (``None`` is returned in
its place). The inlined IR is the same, so the compiled code is too: every table is identical.
If numba's source is not as expected (another numba version), nothing is changed;
``MENHIR_NUMBA_PATCH=0`` leaves numba as it is.
"""

from __future__ import annotations

import inspect
import os
import textwrap

_EDITS = (
    (
        "for block_label, block in the_ir.blocks.items():\n"
        "                new_block = copy.deepcopy(the_ir.blocks[block_label])",
        "memo = {}\n"
        "            for block_label, block in the_ir.blocks.items():\n"
        "                new_block = copy.deepcopy(the_ir.blocks[block_label], memo)",
    ),
    ("callee_ir_original = copy_ir(callee_ir)", "callee_ir_original = None"),
)

ENV = "MENHIR_NUMBA_PATCH"  # 0: numba's own inliner (to measure against)


def apply() -> bool:
    """Patch numba's inliner once per process; returns whether it is patched."""
    try:
        from numba.core import inline_closurecall as module
    except ImportError:
        return False
    worker = module.InlineWorker
    if getattr(worker.inline_ir, "menhir_patched", False):
        return True
    if os.environ.get(ENV, "1") == "0":
        return False
    try:
        source = inspect.getsource(worker.inline_ir)
    except (OSError, TypeError):
        return False
    for old, new in _EDITS:
        if source.count(old) != 1:
            return False
        source = source.replace(old, new)
    source = textwrap.dedent(source)
    namespace: dict = {}
    exec(
        compile(source, "<numba inline_ir, sim/core/numba_patch.py>", "exec"),
        module.__dict__,
        namespace,
    )
    patched = namespace["inline_ir"]
    patched.menhir_patched = True
    worker.inline_ir = patched
    return True
