"""sim/core/specialize.py: copies of a kernel with a module constant changed (issue 42)."""

import os
import subprocess
import sys
from pathlib import Path

from sim.core.specialize import specialized
from tests.core import specialize_kernels as K

ROOT = Path(__file__).resolve().parents[2]


def _in_fresh_cache(script: str, cache) -> str:
    """What ``script`` prints, run in a new process with an empty numba cache (so what it
    compiles is compiled there, never loaded, and none of it in a second process:
    sim/core/split_compile.py is turned off)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NUMBA_CACHE_DIR": str(cache),
        "MENHIR_SPLIT_COMPILE": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_copy_drops_the_branch_and_the_original_keeps_it():
    copy = specialized(K.top, {"HOOKS": False}, "nohooks")
    assert copy(1, True) == 4  # 2 * plain(1): the hook's branch is gone
    assert K.top(1, True) == 202  # the original still calls the hook
    assert K.top(1, False) == copy(1, False) == 4


def test_only_kernels_that_read_the_constant_are_copied():
    copy = specialized(K.top, {"HOOKS": False}, "nohooks")
    assert copy is not K.top
    assert copy.py_func.__qualname__ == "top__nohooks"  # cached under its own name
    assert copy.py_func.__globals__["middle"].py_func.__qualname__ == "middle__nohooks"
    assert copy.py_func.__globals__["middle"].py_func.__globals__["HOOKS"] is False
    assert specialized(K.unrelated, {"HOOKS": False}, "nohooks") is K.unrelated
    assert specialized(K.top, {"HOOKS": False}, "nohooks") is copy  # one copy per kernel
    assert K.middle.py_func.__globals__["HOOKS"] is True  # the module is untouched


def test_a_closure_calls_the_copies():
    call = K.caller_of(K.middle)
    copy = specialized(call, {"HOOKS": False}, "nohooks")
    assert copy(1, True) == 1002
    assert call(1, True) == 1101


def test_celtic_traders_copies_never_compile_celtic_quests_code(tmp_path):
    """In a fresh cache: Celtic Trader's score copy compiles without Celtic Quest's scoring,
    which the shared kernel (Celtic Quest's) compiles."""
    script = (
        "import numpy as np\n"
        "from sim.games.celtic_trader.board import scores\n"
        "from sim.games.celtic_trader.play import trader_kernel\n"
        "from sim.games.celtic_quest.scoring import score\n"
        "state, data = np.zeros(600, np.int32), np.zeros(4000, np.int32)\n"
        "out = np.zeros(5, np.int32)\n"
        "trader_kernel(scores)(state, data, out)\n"
        "print(len(score.signatures))\n"
        "scores(state, data, out)\n"
        "print(len(score.signatures))\n"
    )
    assert _in_fresh_cache(script, tmp_path).split() == ["0", "1"]


def test_celtic_traders_loop_compiles_nothing_of_celtic_quest(tmp_path):
    """In a fresh cache, a greedy Celtic Trader game compiles its rules and bots and not one
    Celtic Quest kernel: a new hook in the shared engine that forgets ``QUEST_HOOKS`` fails."""
    script = (
        "import numpy as np\n"
        "from numba.core import event\n"
        "from sim.core.registry import get_game, make_setup\n"
        "names = []\n"
        "class Listen(event.Listener):\n"
        "    def on_start(self, ev):\n"
        "        names.append(ev.data['dispatcher'].py_func.__module__)\n"
        "    def on_end(self, ev):\n"
        "        pass\n"
        "event.register('numba:compile', Listen())\n"
        "setup = make_setup('celtic_trader', 4, {}, 'greedy')\n"
        "get_game('celtic_trader').play(setup, np.arange(1, dtype=np.uint64))\n"
        "print(len(names), sorted({n for n in names if 'celtic_quest' in n}))\n"
    )
    compiled, quest = _in_fresh_cache(script, tmp_path).split(" ", 1)
    assert int(compiled) > 50 and quest.strip() == "[]"


def test_a_kernel_put_in_anothers_place_is_called_and_copied_in_turn():
    """The checked loops call ``choose_plain`` where they call ``choose_action``; a kernel put
    in place that reads a constant is copied with it too."""
    plain = specialized(K.loop, {"dispatch": K.middle}, "plain")
    assert plain(1, True) == 101 + 101  # middle's hook twice, dispatch never
    assert K.loop(1, True) == 101 + 101
    assert K.loop(1, False) == 101 + 2
    assert plain(1, False) == 2 + 2
    both = specialized(K.loop, {"dispatch": K.middle, "HOOKS": False}, "both")
    assert both(1, True) == 2 + 2  # the kernel put in place is the copy without the hook
    assert both.py_func.__globals__["dispatch"].py_func.__qualname__ == "middle__both"


def test_a_checked_run_with_random_seats_never_compiles_the_search(tmp_path):
    """In a fresh cache, ``menhir check``'s loop with random seats compiles Celtica's rules and
    bots but no kernel of the search (strategies/search.py's checked_loop)."""
    script = (
        "import numpy as np\n"
        "from numba.core import event\n"
        "from sim.core.check import NO_CORRUPTION, invariants_module\n"
        "from sim.core.registry import make_setup\n"
        "names = []\n"
        "class Listen(event.Listener):\n"
        "    def on_start(self, ev):\n"
        "        names.append(ev.data['dispatcher'].py_func.__qualname__)\n"
        "    def on_end(self, ev):\n"
        "        pass\n"
        "event.register('numba:compile', Listen())\n"
        "setup = make_setup('celtica', 3, {}, 'random')\n"
        "invariants_module('celtica').checked(setup, np.arange(1, dtype=np.uint64), 10_000,"
        " NO_CORRUPTION)\n"
        "print(len(names), sum('search_action' in n for n in names),"
        " sum('checked_kernel__plain' in n for n in names))\n"
    )
    compiled, searches, plain_loops = map(int, _in_fresh_cache(script, tmp_path).split())
    assert compiled > 10 and searches == 0 and plain_loops == 1
