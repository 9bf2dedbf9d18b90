"""Issue 42: a cold compile splits a chunk loop's kernels over two processes
(sim/core/split_compile.py), and every game names halves of the types its loop compiles."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import types
from numba.core.caching import NullCache

from sim.core import split_compile
from sim.core.check import NO_CORRUPTION, invariants_module
from sim.core.registry import GAME_MODULES, get_game, make_setup
from strategies.search import search_parts
from tests.core import split_kernels

ROOT = Path(__file__).resolve().parents[2]

COLD = """
import json
from sim.core.split_compile import prepare
from tests.core import split_kernels as k
state = k.state()
prepare(k.loop, (state, 10), k.halves, False)
print(json.dumps({
    "value": int(k.loop(k.state(), 10)),
    "policy": [sum(k.policy._cache_hits.values()), sum(k.policy._cache_misses.values())],
    "rules": [sum(k.rules._cache_hits.values()), sum(k.rules._cache_misses.values())],
}))
"""


def in_fresh_cache(script: str, cache, split: str):
    """The JSON ``script`` prints last, run in a new process with an empty numba cache and
    ``MENHIR_SPLIT_COMPILE=split``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NUMBA_CACHE_DIR": str(cache),
        "MENHIR_SPLIT_COMPILE": split,
    }
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def by_hand(n: int) -> int:
    """What ``split_kernels.loop`` returns, in plain Python."""
    state, total = list(split_kernels.state()), 0
    for i in range(n):
        seat = i % len(state)
        state[0] += state[seat] * 3 + seat
        total += state[0]
    return total


def test_the_second_half_compiles_in_another_process_and_is_loaded_from_the_cache(tmp_path):
    run = in_fresh_cache(COLD, tmp_path, "1")
    assert run["rules"] == [1, 0]  # loaded: the second process compiled it
    assert run["policy"] == [0, 1]  # compiled here
    assert run["value"] == by_hand(10)


def test_turned_off_everything_compiles_here(tmp_path):
    run = in_fresh_cache(COLD, tmp_path, "0")
    assert run["rules"] == [0, 1] and run["policy"] == [0, 1]
    assert run["value"] == by_hand(10)


def test_nothing_is_split_when_the_loop_is_cached(monkeypatch):
    calls = []
    monkeypatch.setattr(split_compile, "_PREPARED", set())
    monkeypatch.setattr(split_compile, "enabled", lambda: True)
    monkeypatch.setattr(split_compile, "is_cached", lambda kernel: True)
    halves = lambda args, search: calls.append(search) or ([], [])  # noqa: E731
    split_compile.prepare(split_kernels.loop, (split_kernels.state(), 1), halves, False)
    assert calls == []
    monkeypatch.setattr(split_compile, "_PREPARED", set())
    monkeypatch.setattr(split_compile, "is_cached", lambda kernel: False)
    split_compile.prepare(split_kernels.loop, (split_kernels.state(), 1), halves, False)
    assert calls == [False]  # not cached: the halves are asked for (and are empty here)


def test_an_int_argument_is_typed_as_a_compiled_caller_passes_it():
    state = np.zeros(3, np.int32)
    assert split_compile.signature((state, 5, np.int32(2), np.int8(1))) == (
        types.Array(types.int32, 1, "C"),
        types.int64,
        types.int64,
        types.int64,
    )


def first_prepare(module, plays) -> tuple:
    """``(kernel, args, halves, search)`` of the first loop call ``plays()`` makes through
    ``module``'s ``prepare`` (warm cache: nothing compiles)."""
    assert hasattr(module, "prepare"), f"{module.__name__} does not split its cold compile"
    seen = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "prepare", lambda *call: seen.append(call))
        plays()
    assert seen, f"{module.__name__} never called prepare"
    return seen[0]


def loop_calls(game: str, bots: str) -> tuple:
    """The first ``prepare`` call of one game's chunk loop with these bots."""
    g = get_game(game)
    players = 4 if g.min_players <= 4 <= g.max_players else g.max_players
    setup = make_setup(game, players, {}, bots)
    play = importlib.import_module(f"{GAME_MODULES[game]}.play")
    return first_prepare(play, lambda: g.play(setup, np.arange(1, dtype=np.uint64)))


def checked_calls(game: str) -> tuple:
    """The first ``prepare`` call of one game's checked loop, as the test session warms it."""
    g = get_game(game)
    setup = make_setup(game, g.min_players, {}, "random")
    module = invariants_module(game)
    seeds = np.arange(1, dtype=np.uint64)
    return first_prepare(module, lambda: module.checked(setup, seeds, 10_000, NO_CORRUPTION))


def assert_cached(game: str, what: str, parts) -> None:
    """Every ``(kernel, arguments)`` of ``parts`` is in numba's cache under the signature a
    half computes for it."""
    for part, part_args in parts:
        assert part.targetoptions.get("inline") != "always", (game, what, part)
        cache = part._cache
        if isinstance(cache, NullCache):  # a closure, compiled in the loop's own process:
            continue  # test_celtic_quest_s_search_loop_compiles_only_itself_after_its_halves
        key = cache._index_key(split_compile.signature(part_args), part.targetctx.codegen())
        assert key in cache._cache_file._load_index(), (game, what, part.py_func.__qualname__)


def assert_cached_as_halves(game: str, what: str, args, halves, search) -> None:
    here, there = halves(args, search)
    assert here and there, (game, what)
    assert_cached(game, what, (*here, *there))


NUMBA_GAMES = [g for g, m in GAME_MODULES.items() if m.startswith("sim.games.")]


@pytest.mark.parametrize("game", NUMBA_GAMES)
def test_each_half_is_of_the_types_the_loop_compiles(game):
    """Every kernel a game hands to a half (its chunk loops' and its checked loop's) is in
    numba's cache under the signature the half computes, as the test session's warm-up
    compiled it (both halves in one process, then the loop, which loaded them). That the loop
    calls them with those types (a half of other types would be compiled for nothing, and the
    loop would compile the kernel again) is what the tests below see, for three games: after
    the halves the loop compiles only itself."""
    for bots, search in (("greedy", False), ("search", True)):
        _, args, halves, searching = loop_calls(game, bots)
        assert searching == search, game
        assert_cached_as_halves(game, bots, args, halves, search)
    _, args, halves, searching = checked_calls(game)
    assert not searching, game
    assert_cached_as_halves(game, "checked", args, halves, False)


@pytest.mark.parametrize("game", NUMBA_GAMES)
def test_the_search_parts_are_of_the_types_every_games_search_compiles(game):
    """strategies.search.search_parts names the search's own kernels with the types the
    search passes them (a half compiling them for other types would compile for nothing), in
    every game's search loop, not only in Celtic Quest's, which uses it: meaningful on the
    cache ``make test`` warms, as above."""
    *_, streams, state, _ = loop_calls(game, "search")[1]
    assert_cached(game, "search_parts", search_parts(state, streams[1]))


AFTER_HALVES = (
    "import json, importlib\n"
    "import numpy as np\n"
    "from numba.core import event\n"
    "from sim.core import split_compile\n"
    "from sim.core.registry import get_game, make_setup\n"
    "play = importlib.import_module({module!r})\n"
    "calls, after = [], []\n"
    "def spy(kernel, args, halves, search):\n"
    "    calls.append(halves(args, search))\n"
    "    split_compile.prepare(kernel, args, halves, search)\n"
    "    event.register('numba:compile', Late())\n"
    "class Late(event.Listener):\n"
    "    def on_start(self, ev):\n"
    "        after.append(ev.data['dispatcher'].py_func.__name__)\n"
    "    def on_end(self, ev):\n"
    "        pass\n"
    "play.prepare = spy\n"
    "get_game({game!r}).play(make_setup({game!r}, 4, {{}}, {bots!r}), np.arange(1))\n"
    "here, there = calls[0]\n"
    "def count(kernel, args):\n"
    "    sig = split_compile.signature(args)\n"
    "    return [kernel._cache_hits[sig], kernel._cache_misses[sig]]\n"
    "print(json.dumps([[count(*p) for p in here], [count(*p) for p in there], after]))\n"
)


@pytest.mark.parametrize("split", ["1", "0"])
def test_a_real_game_compiles_each_half_in_one_process_only(tmp_path, split):
    """Celtica's greedy loop, cold: the rules come from the second process (loaded here,
    never compiled here) and the policies compile here, once each. The loop's own compile,
    after both halves, compiles the loop and its two one-line queries only: its results,
    decision kinds and seeding are in a half (they compiled there, on one core, before).
    Turned off (one core, or ``MENHIR_SPLIT_COMPILE=0`` as the test session warms), both
    halves compile here, once each, and the loop's own compile is the same, so LLVM inlines
    the same way (left to the loop's nested compile, the code ran slower)."""
    script = AFTER_HALVES.format(module="sim.games.celtica.play", game="celtica", bots="greedy")
    here, there, after = in_fresh_cache(script, tmp_path, split)
    assert here and all(c == [0, 1] for c in here), here  # compiled here, once
    # split: loaded, never compiled here; turned off: compiled here too, once
    assert there and all(c == ([1, 0] if split == "1" else [0, 1]) for c in there), there
    assert sorted(after) == ["_play_kernel_plain", "current_player", "is_over"], after


def test_the_second_process_imports_the_sources_this_one_runs(monkeypatch):
    """It runs in the folder that holds sim/: ``-m`` puts the working directory first on its
    path, so a command run from another checkout's folder compiled that checkout's kernels."""
    started = []

    class Recorder:
        def __init__(self, argv, **options):
            started.append((argv, options))
            self.stdin = open(os.devnull, "wb")  # noqa: SIM115

    monkeypatch.setattr(split_compile.subprocess, "Popen", Recorder)
    split_compile._start(split_kernels.halves, (split_kernels.state(), 1), False)
    ((argv, options),) = started
    assert argv[1:] == ["-m", "sim.core.split_compile"]
    assert (
        Path(options["cwd"]) / "sim" / "core" / "split_compile.py"
        == Path(split_compile.__file__).resolve()
    )


def test_celtic_quest_s_search_loop_compiles_only_itself_after_its_halves(tmp_path):
    """Celtic Quest's search loop, cold (issue 42: the slowest cold compile). After both halves
    only the loop itself compiles, on one core: the search's small closures (its clock and
    values) and numba's kernels that it calls (allocations, int, min, max) compile in this
    process's half (a closure is never cached, so only this process can compile them), and so do
    the rules' small queries. Each kernel of this half compiles here, once; the second
    process's are loaded, never compiled here."""
    script = AFTER_HALVES.format(
        module="sim.games.celtic_quest.play", game="celtic_quest", bots="search"
    )
    here, there, after = in_fresh_cache(script, tmp_path, "1")
    assert here and all(c == [0, 1] for c in here), here  # compiled here, once
    # never compiled here: loaded (Celtic Trader's greedy comes with Celtic Quest's, its caller)
    assert there and all(misses == 0 for _, misses in there) and [1, 0] in there, there
    assert after == ["_play_kernel"], after


SEARCH_CLOSURES = {"follows_plan", "clock", "evaluate", "value_of"}  # make_search_bot's


def test_a_search_loop_leaves_only_the_search_s_closures_to_its_own_compile(tmp_path):
    """Celtae's search loop, cold: its rules' half ends first and compiles the search's small
    cached kernels too (the rules' queries, the position hash, the rollout values and the race
    statistics), so after both halves the loop compiles only itself, the search's closures
    (never cached) and numba's own kernels (``impl``). Catan and Troy hand the same kernels to
    their rules' half (the types test above checks them: each cold run costs 15 s of the
    suite)."""
    game, left = "celtae", SEARCH_CLOSURES
    module = f"{GAME_MODULES[game]}.play"
    script = AFTER_HALVES.format(module=module, game=game, bots="search")
    here, there, after = in_fresh_cache(script, tmp_path, "1")
    assert here and all(c == [0, 1] for c in here), here  # compiled here, once
    assert there and all(misses == 0 for _, misses in there) and [1, 0] in there, there
    assert set(after) - {"impl"} == {"_play_kernel", *left}, after
