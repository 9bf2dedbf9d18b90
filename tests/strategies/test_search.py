"""The search bot: it never moves the real chance stream, never writes its input, plays its
parameters, and beats the policy it rolls out with (on the toy game)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.core import registry
from sim.core.batch import play_batch
from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl, SetupError, make_setup
from sim.core.rng import new_streams, seed_streams
from strategies.search import (
    N_SEARCH_PARAMS,
    P_FOLLOW,
    P_HORIZON,
    SEARCH_PARAMS,
    kinds_mask,
    search_bot_decl,
    search_params,
)


def _row(toy, spec="search", players=2):
    codes, params = make_setup("toy_pig", players, {}, spec).bot_arrays()
    return params[0]


def _state(toy, scores, pot, seat=0, players=2):
    data = toy.compile_data(toy.GAME.params.defaults(players))
    state = np.zeros(toy.STATE_LEN, np.int32)
    toy.init_state(data, players, state)
    state[toy.SCORE : toy.SCORE + players] = scores
    state[toy.POT] = pot
    state[toy.SEAT] = seat
    return data, state


def _stream(seed):
    streams = new_streams(1)
    seed_streams(streams, seed)
    return streams[1].copy()


@pytest.mark.parametrize("seed", [3, 11, 2024])
def test_search_budget_never_changes_the_real_chance_sequence(toy, seed):
    """Search at any budget, then greedy's move: same real draws and outcome as no search."""
    data = toy.compile_data(toy.GAME.params.defaults(2))
    greedy = np.array([5.0])
    logs, finals = [], []
    for spec in [
        "search:rollouts=1",
        "search:rollouts=8",
        "search:rollouts=64:ucb=1",
        "search:width=1",
    ]:
        log = np.full(4000, -1, np.int64)
        final = np.zeros(2, np.int64)
        n = toy.shadow_game(data, 2, np.uint64(seed), _row(toy, spec), greedy, log, final)
        logs.append(log[:n].tolist())
        finals.append(final.tolist())
    assert len(logs[0]) > 10
    assert all(log == logs[0] for log in logs)
    assert all(f == finals[0] for f in finals)
    # ...and it is exactly the greedy-vs-greedy game the real chunk loop plays on that seed
    setup = make_setup("toy_pig", 2, {}, "greedy")
    result = toy.play(setup, np.array([seed], np.uint64))
    assert result.score[0].tolist() == finals[0]


def test_search_never_writes_its_state_and_is_a_function_of_its_stream(toy):
    data, state = _state(toy, [12, 20], pot=7)
    before = state.copy()
    buf = np.zeros(toy.MAX_ACTIONS, np.int32)
    row = _row(toy, "search:rollouts=32")
    for seed in range(20):
        first = toy.search_action(state, data, 0, row, _stream(seed), buf)
        again = toy.search_action(state, data, 0, row, _stream(seed), buf)
        assert first == again and first in (toy.DRAW, toy.BANK)
    assert np.array_equal(state, before)


def test_forced_move_costs_no_rollouts_and_no_draws(toy):
    data, state = _state(toy, [0, 0], pot=0)
    rng = _stream(5)
    before = rng.copy()
    buf = np.zeros(toy.MAX_ACTIONS, np.int32)
    assert toy.search_action(state, data, 0, _row(toy), rng, buf) == toy.DRAW
    assert np.array_equal(rng, before)


def test_search_overrules_greedy_when_banking_loses_the_race(toy):
    """Me 30, opponent 38, pot 5: greedy banks (pot >= 5) and leaves the opponent an easy win;
    pressing on to 40 wins far more often, and the search finds it."""
    data, state = _state(toy, [30, 38], pot=5)
    buf = np.zeros(toy.MAX_ACTIONS, np.int32)
    row = _row(toy, "search:rollouts=400")
    assert toy.greedy_action(state, data, 0, row[N_SEARCH_PARAMS:], _stream(1), buf) == toy.BANK
    picks = [int(toy.search_action(state, data, 0, row, _stream(s), buf)) for s in range(5)]
    assert picks == [toy.DRAW] * 5


def test_with_follow_the_search_plays_greedys_pick_where_greedy_follows_its_plan(toy):
    """The toy game's greedy "follows its plan" with a pot of 5 or more: there, with
    ``follow=1``, the search banks as greedy does, even where pressing on wins the race (the
    position the search overrules greedy in, test_search.py); with ``follow=0`` it presses on."""
    data, state = _state(toy, [30, 38], pot=5)
    buf = np.zeros(toy.MAX_ACTIONS, np.int32)
    searching = _row(toy, "search:rollouts=400")
    following = _row(toy, "search:rollouts=400:follow=1")
    assert following[P_FOLLOW] == 1.0 and searching[P_FOLLOW] == 0.0
    for seed in range(5):
        assert toy.search_action(state, data, 0, searching, _stream(seed), buf) == toy.DRAW
        assert toy.search_action(state, data, 0, following, _stream(seed), buf) == toy.BANK
    data, state = _state(toy, [30, 38], pot=4)  # no plan yet: the search still searches
    assert toy.search_action(state, data, 0, following, _stream(0), buf) == toy.DRAW


def _games_with_search() -> list[str]:
    """Registered games whose folders exist and declare the search bot (plus the toy game)."""
    ids = []
    for game_id in registry.GAME_MODULES:
        try:
            decl = registry.get_game(game_id)
        except ImportError:  # listed in the registry, folder not written yet
            continue
        if any(b.name == "search" for b in decl.bots):
            ids.append(game_id)
    return ["toy_pig", *ids]


@pytest.mark.parametrize("game_id", _games_with_search())
def test_search_that_keeps_greedys_pick_replays_the_greedy_game(toy, game_id):
    """Whatever its budget, a search that always keeps greedy's pick plays the greedy game:
    same chance draws, same scores. Thinking never moves the real dice, the bag or the seat
    stream, and never writes the real state."""
    decl = registry.get_game(game_id)
    players = min(max(2, decl.min_players), decl.max_players)
    greedy = play_batch(make_setup(game_id, players, {}, "greedy"), range(30), root_seed=4)[1]
    for budget in ["rollouts=2:horizon=3", "rollouts=12:width=3:ucb=1"]:
        spec = f"search:keep=1000:margin=0:{budget}"
        bots = [spec] + ["greedy"] * (players - 1)
        kept = play_batch(make_setup(game_id, players, {}, bots), range(30), root_seed=4)[1]
        assert kept["score"].to_list() == greedy["score"].to_list()
        assert kept["role"].to_list() == greedy["role"].to_list()
        assert kept.filter(kept["seat"] == 0)["strategy"].unique().to_list() == [spec]


def test_too_few_rollouts_to_compare_two_candidates_plays_greedy(toy):
    """Winner's-curse guard: under 2 * MIN_PER_CANDIDATE rollouts the search keeps greedy's
    pick, so the game is the greedy game; at 8 it does think and the games differ."""
    plain = play_batch(make_setup("toy_pig", 2, {}, "greedy"), range(200), root_seed=6)[1]
    few = play_batch(make_setup("toy_pig", 2, {}, "search:rollouts=7:z=0"), range(200), root_seed=6)
    assert few[1]["score"].to_list() == plain["score"].to_list()
    some = play_batch(
        make_setup("toy_pig", 2, {}, "search:rollouts=8:z=0"), range(200), root_seed=6
    )
    assert some[1]["score"].to_list() != plain["score"].to_list()


def test_search_beats_the_greedy_policy_it_rolls_out_with(toy):
    """Seeded, seats swapped, same deals: measured 0.69 at 2000 games; tolerance 0.55."""
    share = 0.0
    for bots, seat in [("search:rollouts=64,greedy", 0), ("greedy,search:rollouts=64", 1)]:
        _, table = play_batch(make_setup("toy_pig", 2, {}, bots), range(300), root_seed=9)
        share += table.filter(table["seat"] == seat)["win"].sum()
    assert share / 600 > 0.55


@pytest.mark.parametrize(
    "spec", ["search:ucb=0.7", "search:width=2:horizon=5", "search:margin=0.1"]
)
def test_every_budget_option_plays_complete_games(toy, spec):
    games, table = play_batch(make_setup("toy_pig", 3, {}, f"{spec},greedy,random"), range(60))
    assert (games["end_reason"] == "target").all()
    assert table.filter(table["seat"] == 0)["strategy"].unique().to_list() == [spec]


def test_search_params_put_the_budget_first_then_greedys_weights(toy):
    decl = toy.GAME.bot("search")
    names = decl.params.names()
    assert names[:N_SEARCH_PARAMS] == [p.name for p in SEARCH_PARAMS]
    assert names[N_SEARCH_PARAMS:] == ["bank_at"]
    assert decl.code == 2 and decl.params.get("rollouts").default == 16
    row = _row(toy, "search:bank_at=9:rollouts=64:horizon=12")
    assert row[:3].tolist() == [64.0, 12.0, 0.0]
    assert row[N_SEARCH_PARAMS] == 9.0


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("search:rollouts=0", "'rollouts' = 0 is not allowed: an integer in [1, 1000000]"),
        ("search:rollouts=2.5", "'rollouts' = 2.5 is not allowed"),
        ("search:width=-1", "'width' = -1 is not allowed"),
        ("search:ucb=fast", "'ucb' = 'fast' is not allowed: a number"),
        ("search:depth=3", "unknown parameter 'depth'; known: rollouts, horizon"),
        ("search:rollouts", "parameters are written name:key=value"),
    ],
)
def test_bad_search_parameters_are_one_line_errors(toy, spec, fragment):
    with pytest.raises(SetupError) as err:
        make_setup("toy_pig", 2, {}, spec)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_search_params_reject_unknown_or_bad_defaults_and_name_clashes():
    greedy = BotDecl("greedy", 1, "g", ParamSet())
    with pytest.raises(ValueError, match="unknown search parameter"):
        search_params(greedy, depth=3)
    with pytest.raises(Exception, match="rollouts"):
        search_params(greedy, rollouts=0)
    clash = BotDecl("greedy", 1, "g", ParamSet((Param("margin", "float", 1.0),)))
    with pytest.raises(ValueError, match="duplicate"):
        search_bot_decl(clash)


def test_a_search_default_may_vary_by_player_count_and_each_value_is_checked():
    """Celtica's and Celtic Trader's horizon is three rounds at every player count (3 x players
    turns; Celtic Trader's was two until issue 42), Celtic Quest's 4 turns at every count: a
    default {players: value}, resolved per setup; a bad value is refused."""
    greedy = BotDecl("greedy", 1, "g", ParamSet())
    by_players = search_params(greedy, horizon={2: 6, 4: 12})
    assert by_players.get("horizon").default_for(4) == 12
    with pytest.raises(Exception, match="horizon"):
        search_params(greedy, horizon={2: 6, 4: -1})
    for players in (2, 3, 4, 5):
        for game in ("celtica", "celtic_trader"):
            codes, params = make_setup(game, players, {}, "search").bot_arrays()
            assert params[0][P_HORIZON] == 3 * players
        codes, params = make_setup("celtic_quest", players, {}, "search").bot_arrays()
        assert params[0][P_HORIZON] == 4


_TOY_PROBE = """
from sim.core import registry
registry.GAME_MODULES["toy_pig"] = "tests.strategies.toy_game"
from sim.core.batch import play_batch
from sim.core.registry import make_setup
from tests.strategies import toy_game
"""


def _toy_probe(script: str, cache) -> list[str]:
    """What ``script`` (after the toy game's imports) prints, run in a new process whose numba
    cache is ``cache`` (compiled there, none of it in a second process)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), MENHIR_SPLIT_COMPILE="0")
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", _TOY_PROBE + script],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


_CACHE_PROBE = """
play_batch(make_setup("toy_pig", 2, {}, "search:rollouts=4,greedy"), range(2))
stats = toy_game._play_kernel.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def test_the_search_closure_is_compiled_once_and_then_loaded_from_the_cache(tmp_path):
    """The design choice of strategies.search: the game's cached dispatch carries the search
    code, so a second process loads it instead of compiling (hits 1, misses 0)."""
    runs = [_toy_probe(_CACHE_PROBE, tmp_path) for _ in range(2)]
    assert runs == [["0", "1"], ["1", "0"]]


_INLINE_PROBE = """
play_batch(make_setup("toy_pig", 2, {}, "search:rollouts=8,greedy"), range(3))
search = toy_game.search_action
cell = search.py_func.__code__.co_freevars.index("play_out")
play_out = search.py_func.__closure__[cell].cell_contents
print(len(toy_game._play_kernel.overloads), len(search.overloads), len(play_out.overloads))
"""


def test_the_search_and_its_rollout_compile_inlined_into_the_loop(tmp_path):
    """Issue 42: numba optimises each compiled kernel's module with its callees linked in, so a
    search compiled on its own, and its rollout on its own, optimised the game's rules and
    greedy policy twice more. Inlined, a fresh compile of a loop with a searching seat
    compiles the loop and neither of them."""
    assert _toy_probe(_INLINE_PROBE, tmp_path) == ["1", "0", "0"]


@pytest.mark.parametrize("game_id", _games_with_search()[1:])
def test_search_that_skips_every_kind_of_decision_plays_the_greedy_game(game_id):
    """``skip`` leaves the decisions whose greedy pick is of a listed kind to greedy, without a
    rollout: with every kind listed, the search seat plays exactly greedy's game."""
    decl = registry.get_game(game_id)
    players = min(max(2, decl.min_players), decl.max_players)
    every = 2 ** len(decl.decision_kinds) - 1
    greedy = play_batch(make_setup(game_id, players, {}, "greedy"), range(20), root_seed=8)[1]
    bots = [f"search:skip={every}"] + ["greedy"] * (players - 1)
    skipped = play_batch(make_setup(game_id, players, {}, bots), range(20), root_seed=8)[1]
    assert skipped["score"].to_list() == greedy["score"].to_list()
    searched = play_batch(
        make_setup(game_id, players, {}, ["search:skip=0"] + ["greedy"] * (players - 1)),
        range(20),
        root_seed=8,
    )[1]
    assert searched["score"].to_list() != greedy["score"].to_list()


def test_skip_names_decision_kinds_and_a_game_without_kinds_searches_every_decision(toy):
    kinds = ("roll", "bank", "trade")
    greedy = BotDecl("greedy", 1, "g", ParamSet())
    assert kinds_mask(kinds, ["bank", "trade"]) == 0b110
    with pytest.raises(ValueError, match="unknown decision kind"):
        kinds_mask(kinds, ["move"])
    skip = search_params(greedy, kinds, skip=("trade",)).get("skip")
    assert skip.default == 0b100 and "leaves trade to greedy" in skip.doc
    # the toy game gives the search no decision kinds: skip cannot leave anything to greedy
    every = play_batch(make_setup("toy_pig", 2, {}, "search:skip=1023"), range(60), root_seed=5)
    none = play_batch(make_setup("toy_pig", 2, {}, "search:skip=0"), range(60), root_seed=5)
    assert every[1]["score"].to_list() == none[1]["score"].to_list()


def test_every_games_search_kernel_has_names_of_its_own():
    """The search closures are compiled into each game's cached kernels under their names and a
    counter every process starts afresh: two games warmed in two processes once gave them the
    same symbols, and a process that loaded both ran Troy's search on Catan's state (a crash).
    Each game's closures now carry its kernels' modules in their names."""
    import importlib

    modules = ["celtic_trader", "celtica", "celtae", "catan", "catan_troy", "catan_great_wall"]
    names = {
        importlib.import_module(f"strategies.{m}").search_action.py_func.__qualname__
        for m in modules
    }
    assert len(names) == len(modules)
