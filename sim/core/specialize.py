"""``specialized``: a copy of a compiled kernel with some module constants changed.

numba reads a module's global as a constant when it compiles a kernel, and drops a branch whose
test is such a constant (``if QUEST_HOOKS and ...:``) before it types anything: what only that
branch calls is never compiled. Celtic Trader's rules and greedy carry Celtic Quest's hooks
behind ``QUEST_HOOKS`` (True in the source, so Celtic Quest plays on them) and a test of the
data; ``specialized(kernel, {"QUEST_HOOKS": False}, "trader")`` is a copy of ``kernel``, and of
every kernel it reaches that reads the constant itself or through its callees, compiled with
the constant False. Celtic Trader's loops then compile none of Celtic Quest's code (issue 42:
its cold compile went from about 54 s to 13 s).

A copy is the same Python code with its own globals (the constants, and the copies of its
callees in place of the originals: a module it reads a callee from is replaced by a copy of that
module's namespace) and its own name, ``<qualname>__<tag>``: numba caches it beside the original
without a collision, and its compiled symbols never meet the original's. Kernels that read none
of the constants are shared, not copied.
"""

from __future__ import annotations

import types

from numba.core.caching import NullCache
from numba.core.dispatcher import Dispatcher

_COPIES: dict[tuple, Dispatcher] = {}  # (kernel, constants, tag) -> its copy
_READS: dict[tuple, bool] = {}  # (kernel, constant names) -> reads one, itself or below
_MODULES: dict[tuple, types.ModuleType] = {}  # (module name, constants, tag) -> its copy


def specialized(kernel: Dispatcher, constants: dict, tag: str) -> Dispatcher:
    """``kernel`` compiled with the module globals ``constants`` (name -> value) replaced
    (``kernel`` itself under ``NUMBA_DISABLE_JIT``: the source's values, tested at run time).
    A value may be a kernel: every copy then calls it in place of the one the name held (the
    checked loops call ``choose_plain`` in place of ``choose_action``: no search compiled)."""
    if not isinstance(kernel, Dispatcher):
        return kernel
    return _Copier(constants, tag).copy(kernel)


def _names(code: types.CodeType) -> set[str]:
    """Every global and attribute name a function's code (and its nested code) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _callees(kernel: Dispatcher):
    """``(place, callee)`` for each kernel ``kernel`` may call; ``place`` is ``("global",
    name)``, ``("module", name)`` (read as an attribute of the module global ``name``) or
    ``("cell", i)`` (a closure's)."""
    func = kernel.py_func
    names = _names(func.__code__)
    for name in names:
        value = func.__globals__.get(name)
        if isinstance(value, Dispatcher):
            yield ("global", name), value
        elif isinstance(value, types.ModuleType):
            for attr in names:
                callee = getattr(value, attr, None)
                if isinstance(callee, Dispatcher):
                    yield ("module", name), callee
    for i, cell in enumerate(func.__closure__ or ()):
        if isinstance(cell.cell_contents, Dispatcher):
            yield ("cell", i), cell.cell_contents


class _Copier:
    def __init__(self, constants: dict, tag: str):
        self.constants = dict(constants)
        self.tag = tag
        self.key = (tuple(sorted(self.constants.items())), tag)

    def reads(self, kernel: Dispatcher, seen: frozenset = frozenset()) -> bool:
        """Whether ``kernel`` reads one of the constants, itself or through a kernel it calls."""
        key = (kernel, tuple(sorted(self.constants)))
        if key in _READS:
            return _READS[key]
        if kernel in seen:  # recursion: decided where it started
            return False
        func = kernel.py_func
        names = _names(func.__code__)
        found = any(n in names and n in func.__globals__ for n in self.constants) or any(
            self.reads(callee, seen | {kernel}) for _, callee in _callees(kernel)
        )
        _READS[key] = found
        return found

    def copy(self, kernel: Dispatcher) -> Dispatcher:
        """``kernel``'s copy with the constants, or ``kernel`` if it reads none of them."""
        if not self.reads(kernel):
            return kernel
        key = (kernel, *self.key)
        if key in _COPIES:
            return _COPIES[key]
        func = kernel.py_func
        namespace = dict(func.__globals__)
        cells = [types.CellType(c.cell_contents) for c in func.__closure__ or ()]
        clone = types.FunctionType(
            func.__code__, namespace, func.__name__, func.__defaults__, tuple(cells) or None
        )
        clone.__kwdefaults__ = func.__kwdefaults__
        clone.__qualname__ = f"{func.__qualname__}__{self.tag}"
        clone.__module__ = func.__module__
        clone.__doc__ = func.__doc__
        copied = type(kernel)(
            py_func=clone,
            locals=kernel.locals,
            targetoptions=kernel.targetoptions,
            pipeline_class=kernel._compiler.pipeline_class,
        )
        if not isinstance(kernel._cache, NullCache):
            copied.enable_caching()
        _COPIES[key] = copied  # before its callees are copied: a cycle finds it
        for (where, name), callee in _callees(kernel):
            if not self.reads(callee) or (where == "global" and name in self.constants):
                continue
            if where == "global":
                namespace[name] = self.copy(callee)
            elif where == "module":
                namespace[name] = self.module(func.__globals__[name])
            else:
                cells[name].cell_contents = self.copy(callee)
        for name, value in self.constants.items():
            if name in namespace:  # a kernel put in another's place is copied in its turn
                namespace[name] = self.copy(value) if isinstance(value, Dispatcher) else value
        return copied

    def module(self, module: types.ModuleType) -> types.ModuleType:
        """A copy of ``module``'s namespace whose kernels that read a constant are copies."""
        key = (module.__name__, *self.key)
        if key in _MODULES:
            return _MODULES[key]
        proxy = types.ModuleType(module.__name__, module.__doc__)
        _MODULES[key] = proxy
        proxy.__dict__.update(vars(module))
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and self.reads(value):
                setattr(proxy, name, self.copy(value))
        return proxy
