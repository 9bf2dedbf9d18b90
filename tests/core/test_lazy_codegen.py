"""Issue 42: a kernel compiled for its callers is linked into them and emits no machine code of
its own until something runs it (sim/core/lazy_codegen.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sim.core import lazy_codegen
from sim.core.specialize import specialized
from tests.core import split_kernels
from tests.core.test_split_compile import by_hand

ROOT = Path(__file__).resolve().parents[2]

PENDING = """
import json
from sim.core.lazy_codegen import is_pending
from tests.core import split_kernels as k
pending = lambda kernel: [is_pending(c.library) for c in kernel.overloads.values()]
"""

FIRST = (
    PENDING
    + """
value = int(k.loop(k.state(), 10))
before = {"loop": pending(k.loop), "policy": pending(k.policy), "rules": pending(k.rules)}
policy = int(k.policy(k.state(), 1))  # called from Python: emitted first
entry = list(k.rules.overloads.values())[0].entry_point  # called past the dispatcher
direct = int(entry(k.state(), 2))
print(json.dumps({"value": value, "before": before, "policy": policy,
                  "after": pending(k.policy), "direct": direct, "rules": pending(k.rules)}))
"""
)

SECOND = """
import json
from tests.core import split_kernels as k
rules = int(k.rules(k.state(), 5))  # loaded from the cache, where it is bitcode
loop = int(k.loop(k.state(), 10))
hits = [sum(kernel._cache_hits.values()) for kernel in (k.rules, k.loop)]
print(json.dumps({"rules": rules, "loop": loop, "hits": hits}))
"""


def run_in(cache, script: str, lazy: str = "1") -> dict:
    """The JSON ``script`` prints last, in a new process with numba's cache in ``cache``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NUMBA_CACHE_DIR": str(cache),
        "MENHIR_SPLIT_COMPILE": "0",
        "MENHIR_LAZY_CODEGEN": lazy,
    }
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_callees_are_linked_without_machine_code_until_called_from_python(tmp_path):
    run = run_in(tmp_path, FIRST)
    assert run["before"] == {"loop": [False], "policy": [True], "rules": [True]}
    assert run["value"] == by_hand(10)
    assert run["policy"] == 1 * 3 + 1 and run["after"] == [False]
    assert run["direct"] == 2 and run["rules"] == [False]  # its entry point emitted it


def test_turned_off_every_kernel_emits_its_code(tmp_path):
    run = run_in(tmp_path, FIRST, lazy="0")
    assert run["before"] == {"loop": [False], "policy": [False], "rules": [False]}
    assert run["value"] == by_hand(10)


def test_a_callee_cached_as_bitcode_runs_from_python_in_the_next_process(tmp_path):
    run_in(tmp_path, FIRST)
    run = run_in(tmp_path, SECOND)
    assert run["hits"] == [1, 1]  # both loaded, none compiled again
    assert run["rules"] == 5 and run["loop"] == by_hand(10)


def test_a_specialized_copy_of_a_leaf_compiles_lazily_as_the_leaf_does():
    """Celtic Trader plays copies of its kernels made by sim.core.specialize (a copy with
    Celtic Quest's hooks off): they are linked without machine code as the originals are."""
    copy = specialized(split_kernels.hooked, {"HOOKS": False}, "nohooks")
    assert copy is not split_kernels.hooked
    assert copy.py_func in lazy_codegen._ELIGIBLE
    assert split_kernels.hooked.py_func in lazy_codegen._ELIGIBLE


PROFILE = (
    PENDING
    + """
from benchmarks.perf_profile import kernel_symbols
k.loop(k.state(), 10)
names = sorted(set(kernel_symbols().values()))
print(json.dumps({"names": names, "pending": pending(k.policy) + pending(k.rules)}))
"""
)


def test_the_profilers_symbol_map_leaves_callees_unemitted(tmp_path):
    """benchmarks/perf_profile.py names the code that runs: asking a callee's library for its
    addresses would emit it, at other addresses than its caller's copy (the profile then put
    most of Catan's time in one setup function)."""
    run = run_in(tmp_path, PROFILE)
    assert run["pending"] == [True, True]
    assert any("loop" in name for name in run["names"])


RAW_HEADER = """
import json
from tests.core import split_kernels as k
raw = lambda kernel: [getattr(c.library, "_menhir_raw", False) for c in kernel.overloads.values()]
"""

RAW_FIRST = (
    RAW_HEADER
    + """
from sim.core.split_compile import compile_parts
compile_parts([(k.policy, (k.state(), 0)), (k.rules, (k.state(), 0))])  # a split compile's half
before = {"policy": raw(k.policy), "rules": raw(k.rules)}
value = int(k.loop(k.state(), 10))  # optimises the raw tree once
loop = raw(k.loop)
policy = int(k.policy(k.state(), 1))  # called from Python: optimised, then emitted
print(json.dumps({"before": before, "value": value, "loop": loop, "policy": policy,
                  "after": raw(k.policy)}))
"""
)

RAW_SECOND = (
    RAW_HEADER
    + """
rules = int(k.rules(k.state(), 5))  # raw bitcode from the cache: optimised, then emitted
print(json.dumps({"rules": rules, "raw": raw(k.rules), "loop": int(k.loop(k.state(), 10))}))
"""
)


def test_a_split_compiles_kernels_stay_raw_until_the_loop_or_python_optimises_them(tmp_path):
    run = run_in(tmp_path, RAW_FIRST)
    assert run["before"] == {"policy": [True], "rules": [True]}
    assert run["value"] == by_hand(10) and run["loop"] == [False]
    assert run["policy"] == 1 * 3 + 1 and run["after"] == [False]
    cached = [f for f in tmp_path.rglob("*.nbc") if lazy_codegen.RAW.encode() in f.read_bytes()]
    assert {f.name.split(".")[1].split("-")[0] for f in cached} == {"policy", "rules"}
    again = run_in(tmp_path, RAW_SECOND)
    assert again == {"rules": 5, "raw": [False], "loop": by_hand(10)}


def test_kernels_compiled_outside_a_split_compile_are_not_raw(tmp_path):
    script = (
        PENDING
        + """
value = int(k.loop(k.state(), 10))
print(json.dumps([getattr(c.library, "_menhir_raw", None) for c in k.policy.overloads.values()]))
"""
    )
    assert run_in(tmp_path, script) == [False]
