"""A faster inliner for numba's ``inline="always"`` (issue 42: cold compile).

numba inlines a kernel marked ``inline="always"`` by copying the callee's IR block by block with
``copy.deepcopy``, each block on its own, and each copy drags along the callee's whole variable
scope (every variable of the function with its source location): the copy grows with blocks
times variables. It then copies the copy once more, for a return value both of numba's callers
discard. In Celtic Quest's cold compile, whose greedy inlines its middle layers, that copying
was about a fifth of the time numba spent.

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
_applied = False


def apply() -> bool:
    """Patch numba's inliner once per process; returns whether it is patched."""
    global _applied
    if _applied:
        return True
    if os.environ.get(ENV, "1") == "0":
        return False
    try:
        from numba.core import inline_closurecall as module
    except ImportError:
        return False
    worker = module.InlineWorker
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
    )  # noqa: S102
    patched = namespace["inline_ir"]
    patched.menhir_patched = True
    worker.inline_ir = patched
    _applied = True
    return True
