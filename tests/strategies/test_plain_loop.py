"""Issue 42: a chunk with no searching seat runs the game's plain chunk loop, which never
compiles the search bot, and plays exactly the games the loop with every bot level plays."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import strategies.search as search
from sim.core.registry import GAME_MODULES, get_game, make_setup
from strategies.search import SEARCH_CODE, chunk_loop

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(GAME_MODULES)


def loops_module(game: str) -> str:
    """The module of the game's two chunk loops (Celtic Quest plays on Celtic Trader's)."""
    play = importlib.import_module(f"{GAME_MODULES[game]}.play")
    return getattr(play, "LOOPS_MODULE", play.__name__)


def players_of(game: str) -> int:
    decl = get_game(game)
    return 4 if decl.min_players <= 4 <= decl.max_players else decl.max_players


def test_chunk_loop_takes_the_plain_loop_unless_a_seat_searches():
    assert chunk_loop([0, 1, 1], "every", "plain") == "plain"
    assert chunk_loop(np.array([1, SEARCH_CODE]), "every", "plain") == "every"


_PROBE = """
import json, sys
import numpy as np
from experiments.compile_notice import loop_kernels
from sim.core.registry import get_game, make_setup
out = {}
for game, players in json.loads(sys.argv[1]):
    every_bot, plain = loop_kernels(game)  # the loops as the game plays them
    for bots in ("random", "greedy"):
        get_game(game).play(make_setup(game, players, {}, bots), np.arange(2, dtype=np.uint64))
    out[game] = [len(every_bot.signatures), len(plain.signatures)]
print(json.dumps(out))
"""


def test_a_greedy_chunk_never_compiles_or_loads_the_search_loop():
    """In a fresh process, random and greedy seats touch only the plain loop: the loop with
    the search (and so the search kernel itself) is neither compiled nor loaded from cache."""
    games = [[g, players_of(g)] for g in GAMES]
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    used = json.loads(done.stdout.strip().splitlines()[-1])
    for game in GAMES:
        every_bot, plain = used[game]
        assert every_bot == 0, f"{game}: a greedy chunk loaded the loop with the search"
        assert plain >= 1, f"{game}: the plain loop did not run"


@pytest.mark.parametrize("game", GAMES)
def test_plain_and_every_bot_loops_play_the_same_games(game, monkeypatch):
    """The same seeds through both loops give identical tables (random and greedy seats)."""
    decl = get_game(game)
    players = players_of(game)
    bots = ",".join((["random", "greedy"] * players)[:players])
    setup = make_setup(game, players, {}, bots)
    seeds = np.arange(6, dtype=np.uint64) + 40
    plain = decl.play(setup, seeds)
    module = importlib.import_module(loops_module(game))
    every = lambda codes, every_bot, plain_loop: every_bot  # noqa: E731
    monkeypatch.setattr(module, "chunk_loop", every, raising=False)
    monkeypatch.setattr(search, "chunk_loop", every)  # Celtic Quest imports it at call time
    full = decl.play(setup, seeds)
    for name in ("rounds", "turns", "end_reason", "score", "components", "extras", "actions"):
        np.testing.assert_array_equal(getattr(plain, name), getattr(full, name), err_msg=name)
