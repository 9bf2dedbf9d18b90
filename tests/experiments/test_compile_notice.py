"""Issue 42: the line a command prints while a game's loop compiles, and its estimate."""

from __future__ import annotations

import io
import os
from types import SimpleNamespace

import pytest

import experiments.compile_notice as notice
from sim import numba_cache
from sim.core.registry import GAME_MODULES, make_setup
from sim.core.split_compile import index_path


def fake_kernel(index_path):
    """numba's attributes as a cached dispatcher has them."""
    return SimpleNamespace(
        _cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index_path)))
    )


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A menhir cache root in tmp_path, and one game whose loops are fakes indexed there."""
    root = tmp_path / "menhir" / "numba"
    (root / "digest").mkdir(parents=True)
    monkeypatch.setattr(numba_cache, "cache_root", lambda: root)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root / "digest"))
    loops = (fake_kernel(root / "every.nbi"), fake_kernel(root / "plain.nbi"))
    monkeypatch.setattr(notice, "loop_kernels", lambda game: loops)
    return root


def test_every_numba_game_exposes_its_two_loops():
    games = [g for g, module in GAME_MODULES.items() if module.startswith("sim.games.")]
    assert len(games) >= 7
    for game in games:
        loops = notice.loop_kernels(game)
        assert loops is not None, game
        every, plain = loops
        assert every is not plain
        for kernel in loops:  # a real cached kernel: its index lies in the numba cache folder
            index = index_path(kernel)
            assert index is not None and index.suffix == ".nbi", game
            assert str(index).startswith(os.environ["NUMBA_CACHE_DIR"]), game


def test_the_line_names_the_bot_level_and_disappears_once_compiled(cache):
    greedy = [make_setup("celtica", 4, {}, "greedy")]
    search = [make_setup("celtica", 4, {}, "greedy,search,greedy,greedy")]
    _, line = notice.pending("celtica", greedy, None)
    assert "random and greedy" in line and notice.FIRST_GUESS in line
    assert "with the search bot" in notice.pending("celtica", search, None)[1]
    (cache / "plain.nbi").write_bytes(b"")  # the plain loop is in the cache now
    assert notice.pending("celtica", greedy, None) is None
    assert notice.pending("celtica", search, None) is not None
    assert notice.pending("celtica", search, False) is None  # --no-progress: silent


def test_a_compile_is_timed_and_its_time_is_the_next_estimate(cache):
    setups = [make_setup("celtica", 4, {}, "greedy")]
    out = io.StringIO()
    with notice.compile_notice("celtica", setups, None, stream=out):
        pass
    assert out.getvalue().startswith("menhir: compiling the celtica kernels")
    assert "celtica:plain" in notice.read_times()
    _, line = notice.pending("celtica", setups, None)
    assert "last time" in line and notice.FIRST_GUESS not in line


def test_a_failed_compile_leaves_no_estimate(cache):
    setups = [make_setup("celtica", 4, {}, "greedy")]
    with pytest.raises(RuntimeError), notice.compile_notice("celtica", setups, None, io.StringIO()):
        raise RuntimeError("the kernel did not compile")
    assert notice.read_times() == {}


def test_no_estimates_file_outside_menhirs_own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert notice.times_path() is None
    notice.remember("celtica:plain", 12.0)
    assert not any(tmp_path.iterdir())


def test_a_corrupt_estimates_file_is_ignored(cache):
    (cache / notice.TIMES_FILE).write_text("{not json")
    assert notice.read_times() == {}
    assert notice.estimate_text(None) == notice.FIRST_GUESS
    assert notice.estimate_text(41.6) == "about 42 s last time"


def test_celtic_trader_is_noticed_by_the_copies_it_plays():
    """Celtic Trader plays copies of the shared loops (compiled without Celtic Quest's hooks):
    the notice must look for those in the cache, Celtic Quest's for the shared ones."""
    trader = [k.py_func.__qualname__ for k in notice.loop_kernels("celtic_trader")]
    quest = [k.py_func.__qualname__ for k in notice.loop_kernels("celtic_quest")]
    assert trader == ["_play_kernel__trader", "_play_kernel_plain__trader"]
    assert quest == ["_play_kernel", "_play_kernel_plain"]
