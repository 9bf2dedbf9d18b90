"""Greedy's kept trade and build decision (strategies/catan/greedy.py: keep_decision), in Catan
and Troy: after its offer lapses, the seat decides again from what it kept and picks what a
fresh decision picks; the kept words lie past every listing."""

import importlib

import numpy as np
import pytest

from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan import state as S
from strategies.catan.greedy import KEPT_LEN, kept_decision
from tests.games.catan.helpers import rng

GAMES = {  # game: (rules, state, greedy, params)
    "catan": ("sim.games.catan.rules", S, "strategies.catan.greedy", "sim.games.catan.params"),
    "catan_troy": (
        "sim.games.catan_troy.rules",
        importlib.import_module("sim.games.catan_troy.state"),
        "strategies.catan_troy.greedy",
        "sim.games.catan_troy.params",
    ),
}


def _modules(game):
    rules, state, greedy, params = GAMES[game]
    return importlib.import_module(rules), state, importlib.import_module(greedy), params


def _extra(game, state, a, seat):
    """The game's word of the kept decision (Troy: the seat's decision card)."""
    return a[state.SIDE + seat] if game == "catan_troy" else 0


def test_no_listing_reaches_the_kept_words():
    # A listing holds distinct action ids. The longest is the trade and build phase's: every
    # base id below the robber's but the roll, Year of Plenty's picks and the discards, and the
    # offers; in Troy also a ship on each sea hex, the donations, the take and the swap. The
    # others list fewer (setup: places or roads; Special Building Phase: builds and end).
    main = S.A_ROBBER - S.A_SETTLE - 1 - 2 * S.N_RES + (S.A_ACCEPT - S.A_OFFER)
    for game, extra in (("catan", 0), ("catan_troy", None)):
        _, state, greedy, _ = _modules(game)
        if extra is None:
            extra = state.MAX_SEA + S.N_RES + 2
        assert main + extra <= greedy.KEPT, game
        assert greedy.KEPT + KEPT_LEN <= state.MAX_ACTIONS, game
        assert greedy.KEPT % 2 == 0, game  # the kept values are float64 over two int32 words


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_kept_decision_picks_what_a_fresh_one_picks(game):
    rules, state, greedy, params = _modules(game)
    players = 4
    P = importlib.import_module(params)
    data = P.compile_data(P.PARAMS.resolve(players, {}), players)
    weights = np.array([p.default for p in greedy.GREEDY_PARAMS], np.float64)
    buf = np.zeros(state.MAX_ACTIONS, np.int32)
    kept = dealt = 0

    def same_pick(a, seat, stream):
        """The pick from the kept words equals a fresh decision's (a buffer keeping none)."""
        fresh = greedy.greedy_action(a, data, seat, weights, stream.copy(), np.zeros_like(buf))
        assert greedy.greedy_action(a, data, seat, weights, stream.copy(), buf.copy()) == fresh

    for seed in derive_game_seeds(11, players, np.arange(6)):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(state.STATE_LEN, np.int32)
        out = np.zeros(state.STATE_LEN, np.int32)
        rules.init_state(data, players, streams[0], a)
        while not rules.is_over(a):
            seat = rules.current_player(a)
            stream = streams[1 + seat]
            if kept_decision(a, buf, greedy.KEPT, _extra(game, state, a, seat)):
                assert a[S.PHASE] == S.PH_MAIN and a[S.LAPSED] != 0
                same_pick(a, seat, stream)
                kept += 1
                # the hidden cards dealt again by another seat (as a search does): the seat's
                # own differ, and the position is not taken for the kept one
                other = np.zeros_like(a)
                rules.determinize(a, data, (seat + 1) % players, rng(kept), other)
                same_pick(other, seat, stream)
                own = S.HAND + seat * S.N_RES + np.arange(S.N_RES)
                extra = _extra(game, state, other, seat)
                dealt += (other[own] != a[own]).any() and not kept_decision(
                    other, buf, greedy.KEPT, extra
                )
            act = greedy.greedy_action(a, data, seat, weights, stream, buf)
            rules.step(a, np.int32(act), data, streams[0], out)
            a, out = out, a
    assert kept > 300  # some 180 a game in Catan
    assert dealt > 100
