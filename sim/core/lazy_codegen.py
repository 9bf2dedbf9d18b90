"""Machine code only for kernels that run: a kernel compiled for its callers is linked, not emitted.

numba compiles every kernel into a module of its own, links its callees' optimised LLVM IR in,
optimises the whole and then emits its machine code, even for a kernel that only other kernels
call. Its callers never run that code: each links its own copy of the callee's IR and emits it
again in its own module. Emitting kernels that never run took 4.8 s of Celtic Quest's 31.8 s
cold compile on one core and 3.0 s of the Great Wall search's 22.2 s (issue 42, llvmlite's
``LLVMPY_FinalizeObject``).

:func:`apply` makes that emission lazy for the kernels of :func:`sim.core.kernel.leaf` and
``counted`` that compile while another of them is compiling (a callee typed for its caller),
and for any of them compiled under :func:`lazy_roots` (:mod:`sim.core.split_compile`'s halves,
compiled only for the loop to link). Such a library is linked and optimised as before, but its
module does not go to the execution engine until something needs its code: a call from Python
(the dispatcher's ``__call__`` emits first), numba asking for a function's address, or its entry
point called directly (a trampoline emits, then calls). numba's cache keeps it as bitcode, which
its callers link as they linked an object file's bitcode before; loaded to be called from Python,
it is emitted at once. A chunk loop compiles from Python, so it is emitted as before.

Nor is the module of a split compile's kernels optimised on its own. numba optimises a kernel's
module with its callees' IR linked in, so a callee deep in a loop's tree was optimised again for
every kernel above it, and only the loop's module is ever emitted. A library compiled under
:func:`lazy_roots` (a half of :mod:`sim.core.split_compile`, and every kernel compiled for it) is
raw: it keeps its IR as lowered (numba's function passes only), and the loop's compile optimises
the whole tree once, with the same passes; a raw library that must run after all (a call from
Python) is optimised before it is emitted. Other kernels are optimised as numba does: a process
that compiles many kernels called from Python (the tests) would optimise each one's raw tree
again. Measured (issue 42, quiet 2-core machine, empty cache, ``bench.start_time``): Celtic
Quest's greedy 15.7 -> 12.6 s, its search 20.7 -> 17.6 s, every other game and level 0.2-1.8 s
shorter; the tables are the same (fixed-seed hashes of every game and level) and the games per
second within the noise. ``MENHIR_LAZY_CODEGEN=0`` turns all of it off, to measure against.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import weakref

ENV = "MENHIR_LAZY_CODEGEN"

_ELIGIBLE: weakref.WeakSet = weakref.WeakSet()  # py_funcs of the leaf and counted kernels
_DEPTH = [0]  # kernels of _ELIGIBLE being compiled, nested (numba compiles one at a time)
_ROOTS_LAZY = [False]  # lazy_roots(): a kernel compiled from Python is lazy too
_ENVS: dict = {}  # every environment numba set or asked to set, by its global's name
_APPLIED = [False]
_NUMBA_SET_ENV = [None]  # numba's own set_env, which the patched one calls
_NUMBA_OPTIMIZE = [None]  # numba's own module optimisation, which raw libraries skip
RAW = "#raw"  # ends the cached name of a raw library's bitcode


def register(py_func) -> None:
    """Let ``py_func``'s kernel be compiled lazily when its callers compile it."""
    _ELIGIBLE.add(py_func)


@contextlib.contextmanager
def compiling():
    """Around a registered kernel's ``compile``: nested ones are compiled for their callers."""
    _DEPTH[0] += 1
    try:
        yield
    finally:
        _DEPTH[0] -= 1


@contextlib.contextmanager
def lazy_roots():
    """Kernels compiled inside (for the cache, not to run) emit no machine code either."""
    saved = _ROOTS_LAZY[0]
    _ROOTS_LAZY[0] = True
    try:
        yield
    finally:
        _ROOTS_LAZY[0] = saved


def _nested() -> bool:
    """Is the kernel being compiled now compiled for a caller (or under lazy_roots)?"""
    return _DEPTH[0] > 1 or (_ROOTS_LAZY[0] and _DEPTH[0] > 0)


def is_pending(library) -> bool:
    """Is ``library`` linked but not yet emitted?"""
    return getattr(library, "_menhir_pending", False)


def materialize(library) -> None:
    """Emit ``library``'s machine code now (what numba's finalize deferred) and set its
    environments."""
    if not is_pending(library):
        return
    library._menhir_pending = False
    if getattr(library, "_menhir_raw", False):  # linked as lowered (the module docstring)
        library._menhir_raw = False
        _NUMBA_OPTIMIZE[0](library)
    module = library._final_module
    module._CPUCodeLibrary__library = weakref.proxy(library)  # numba's object-cache hooks
    cleanup = library._codegen._add_module(module)
    if cleanup:
        weakref.finalize(library, cleanup)
    library._finalize_specific()
    _set_envs(library)


def materialize_dispatcher(dispatcher) -> None:
    """Before a call from Python: emit every pending version of ``dispatcher`` and give
    numba's type dispatch their real entry points."""
    pending = [(args, c) for args, c in dispatcher.overloads.items() if is_pending(c.library)]
    if not pending:
        return
    for args, cres in pending:
        materialize(cres.library)
        context = cres.target_context
        cfunc = context.get_executable(cres.library, cres.fndesc, cres.environment)
        context.insert_user_function(cfunc, cres.fndesc, [cres.library])  # compiled callers
        dispatcher.overloads[args] = cres._replace(entry_point=cfunc)
    dispatcher._clear()
    for cres in dispatcher.overloads.values():
        codes = [a._code for a in cres.signature.args]
        dispatcher._insert(codes, cres.entry_point, cres.objectmode)


def _set_envs(library) -> None:
    """Point the environment globals ``library``'s module defines at their environments."""
    codegen = library._codegen
    for gv in library._final_module.global_variables:
        env = _ENVS.get(gv.name)
        if env is not None and not gv.is_declaration:
            _NUMBA_SET_ENV[0](codegen, gv.name, env)


_TRAMPOLINE = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
_INCREF = ctypes.pythonapi.Py_IncRef
_INCREF.argtypes = [ctypes.py_object]


def _trampoline(emit):
    """A C entry point for a kernel not emitted yet, as numba's wrappers are called
    (``closure, args, kwargs``): it emits the kernel (``emit()`` returns the real entry point)
    and calls it. numba's dispatcher emits before any call from Python, so this only serves a
    path that calls a version's entry point directly (none in menhir); an exception raised
    there is printed and the call returns None, as ctypes' callbacks do."""

    def call(closure, args, kws):
        args = ctypes.cast(args, ctypes.py_object).value
        kws = ctypes.cast(kws, ctypes.py_object).value if kws else {}
        result = emit()(*args, **kws)
        _INCREF(result)  # the caller owns the reference it gets
        return id(result)

    return _TRAMPOLINE(call)


def apply() -> bool:
    """Patch numba once per process; returns whether emission is lazy."""
    if _APPLIED[0]:
        return True
    if os.environ.get(ENV, "1") == "0":
        return False
    from numba.core import typed_passes
    from numba.core.codegen import CPUCodeLibrary, JITCodeLibrary, JITCPUCodegen
    from numba.core.cpu import CPUContext

    lowering_run = typed_passes.BaseNativeLowering.run_pass
    finalize_module = CPUCodeLibrary._finalize_final_module
    _NUMBA_OPTIMIZE[0] = CPUCodeLibrary._optimize_final_module
    get_pointer = JITCodeLibrary.get_pointer_to_function
    serialize = CPUCodeLibrary.serialize_using_object_code
    unserialize = CPUCodeLibrary._unserialize.__func__
    get_executable = CPUContext.get_executable
    _NUMBA_SET_ENV[0] = JITCPUCodegen.set_env

    def run_pass(self, state):
        if state.library is None and _nested() and state.func_id.func in _ELIGIBLE:
            state.library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
            state.library.enable_object_caching()
            state.library._menhir_lazy = True
            state.library._menhir_raw = _ROOTS_LAZY[0]
        return lowering_run(self, state)

    def _finalize_final_module(self):
        if not getattr(self, "_menhir_lazy", False):
            finalize_module(self)
            _set_envs(self)
            return
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._menhir_pending = True
        self._finalized = True

    def _optimize_final_module(self):
        if not getattr(self, "_menhir_raw", False):  # a raw one: by the loop that links it
            _NUMBA_OPTIMIZE[0](self)

    def get_pointer_to_function(self, name):
        materialize(self)
        return get_pointer(self, name)

    def serialize_using_object_code(self):
        if is_pending(self):  # no object code: the bitcode, which callers link
            name, kind, bitcode = self.serialize_using_bitcode()
            return (name + RAW if getattr(self, "_menhir_raw", False) else name), kind, bitcode
        return serialize(self)

    def _unserialize(cls, codegen, state):
        if state[1] == "bitcode":  # a callee's: linked, emitted only if called
            self = codegen.create_library(state[0])
            self._final_module = ll_parse_bitcode(state[2])
            self._menhir_lazy = True
            self._menhir_raw = state[0].endswith(RAW)
            self._finalize_final_module()
            if not _nested():  # loaded to be called from Python
                materialize(self)
            return self
        return unserialize(cls, codegen, state)

    def get_executable_lazy(self, library, fndesc, env):
        if getattr(library, "_menhir_lazy", False):
            library._ensure_finalized()  # linked and optimised, not emitted
        if not is_pending(library):
            return get_executable(self, library, fndesc, env)
        from numba import _dynfunc

        _ENVS[self.get_env_name(fndesc)] = env

        def emit():
            materialize(library)
            return get_executable(self, library, fndesc, env)

        entry = _trampoline(emit)
        address = ctypes.cast(entry, ctypes.c_void_p).value
        doc = f"compiled wrapper for {fndesc.qualname!r} (not emitted yet)"
        name = fndesc.qualname.split(".")[-1]
        return _dynfunc.make_function(
            fndesc.lookup_module(), name, doc, address, env, (library, entry)
        )

    def set_env(self, env_name, env):
        _ENVS[env_name] = env
        if self._engine.is_symbol_defined(env_name):
            _NUMBA_SET_ENV[0](self, env_name, env)

    from llvmlite import binding as ll

    ll_parse_bitcode = ll.parse_bitcode
    typed_passes.BaseNativeLowering.run_pass = run_pass
    CPUCodeLibrary._optimize_final_module = _optimize_final_module
    CPUCodeLibrary._finalize_final_module = _finalize_final_module
    JITCodeLibrary.get_pointer_to_function = get_pointer_to_function
    CPUCodeLibrary.serialize_using_object_code = serialize_using_object_code
    CPUCodeLibrary._unserialize = classmethod(_unserialize)
    CPUContext.get_executable = get_executable_lazy
    JITCPUCodegen.set_env = set_env
    _APPLIED[0] = True
    return True
