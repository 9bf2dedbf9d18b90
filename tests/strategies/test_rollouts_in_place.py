"""The search bot's rollouts step in place (``advance``): each game's ``advance`` must leave
exactly what its pure ``step`` writes, draw for draw, on every kind of position.

``step(state, action, data, rng, out)`` is a copy of ``state`` into ``out`` followed by
``advance(out, action, data, rng)``; these tests hold ``advance`` on a copy to ``step`` directly,
over random games from the deal to the end (every phase, chance and end of game). Celtae's
``advance`` also lists the next decision's options, which must be what ``legal_actions`` lists.
"""

import numpy as np
import pytest

from sim.core.registry import get_game, make_setup
from sim.core.rng import new_streams, seed_streams

MAX_STEPS = 20_000


def _stream(seed: int) -> np.ndarray:
    streams = new_streams(1)
    seed_streams(streams, np.uint64(seed))
    return streams[0].copy()


def _trader_like(game: str, players: int, seed: int):
    from sim.games.celtic_quest import play as quest_play
    from sim.games.celtic_quest.layout import QSTATE_LEN
    from sim.games.celtic_trader import play as trader_play
    from sim.games.celtic_trader import rules
    from sim.games.celtic_trader.state import ROLES_RANDOM, STATE_LEN

    setup = make_setup(game, players, {}, "random")
    if game == "celtic_quest":  # Celtic Trader's kernels play it, on its own data
        data = quest_play.game_data(setup, seed)
        mode, fixed = ROLES_RANDOM, quest_play.fixed_destinies(setup)
        state = np.zeros(QSTATE_LEN, np.int32)
    else:
        data = trader_play.game_data(setup, seed)
        mode, fixed = trader_play.role_mode_of(setup)
        state = np.zeros(STATE_LEN, np.int32)
    rules.init_state(data, players, mode, fixed, _stream(seed), state)
    return rules, data, state, lambda s, a, d, r, buf: rules.advance(s, a, d, r)


def _plain(game: str, players: int, seed: int):
    import importlib

    rules = importlib.import_module(f"sim.games.{game}.rules")
    params = importlib.import_module(f"sim.games.{game}.params")
    state_mod = importlib.import_module(f"sim.games.{game}.state")
    resolved = params.PARAMS.resolve(players, {})
    args = (resolved, players) if game.startswith("catan") else (resolved,)
    data = params.compile_data(*args)
    length = getattr(state_mod, "GW_STATE_LEN", None) or state_mod.STATE_LEN
    state = np.zeros(length, np.int32)
    rules.init_state(data, players, _stream(seed), state)
    return rules, data, state, lambda s, a, d, r, buf: rules.advance(s, a, d, r)


def _celtae(game: str, players: int, seed: int):
    from sim.games.celtae import rules
    from sim.games.celtae.params import PARAMS, data_for
    from sim.games.celtae.rules_turn import advance
    from sim.games.celtae.state import STATE_LEN

    data = data_for(PARAMS.resolve(players, {}), players)
    state = np.zeros(STATE_LEN, np.int32)
    rules.init_state(data, players, 0, np.full(players, -1, np.int64), _stream(seed), state)
    return rules, data, state, advance


GAMES = {
    "celtic_trader": _trader_like,
    "celtic_quest": _trader_like,
    "celtica": _plain,
    "catan": _plain,
    "catan_troy": _plain,
    "catan_great_wall": _plain,
    "celtae": _celtae,
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_advance_in_place_equals_step_on_random_games(game):
    picker = np.random.default_rng(5)
    listed = 0
    decl = get_game(game)
    for seed in range(1, 7):  # the fewest, four and the most players, twice each
        players = (decl.min_players, min(4, decl.max_players), decl.max_players)[seed % 3]
        rules, data, state, advance = GAMES[game](game, players, seed)
        buf = np.zeros(1 << 14, np.int32)
        options = np.zeros(1 << 14, np.int32)
        out = np.zeros_like(state)
        rng = _stream(1000 + seed)
        steps = 0
        while not rules.is_over(state) and steps < MAX_STEPS:
            n = rules.legal_actions(state, data, buf)
            action = buf[int(picker.integers(n))]
            in_place, rng_in_place = state.copy(), rng.copy()
            n_listed = advance(in_place, action, data, rng_in_place, options)
            rules.step(state, action, data, rng, out)
            assert (in_place == out).all(), f"{game} seed {seed} step {steps}: states differ"
            assert (rng_in_place == rng).all(), f"{game} seed {seed} step {steps}: draws differ"
            if n_listed is not None and not rules.is_over(out):
                expected = np.zeros_like(buf)
                m = rules.legal_actions(out, data, expected)
                assert n_listed == m and (options[:m] == expected[:m]).all()
                listed += 1
            state, out = out, state
            steps += 1
        assert rules.is_over(state), f"{game} seed {seed}: no end in {MAX_STEPS} steps"
    assert game != "celtae" or listed > 100  # Celtae's listing was compared, not skipped
