"""Greedy's kept trade and build decision (strategies/catan/greedy.py: keep_decision): after its
offer lapses, the seat decides again from what it kept and picks what a fresh decision picks;
the kept words lie past every listing."""

import numpy as np

from sim.core.rng import derive_game_seeds
from sim.games.catan import state as S
from strategies.catan.greedy import GREEDY_PARAMS, K_LEN, KEPT, greedy_action, kept_decision
from tests.games.catan.helpers import data_for, play_games

DEFAULTS = np.array([p.default for p in GREEDY_PARAMS], np.float64)


def test_no_listing_reaches_the_kept_words():
    # A listing holds distinct action ids. The longest is the trade and build phase's: every id
    # below the robber's but the roll, Year of Plenty's picks and the discards, and the offers.
    # The others list fewer (setup: places or roads; Special Building Phase: builds and end).
    main = S.A_ROBBER - S.A_SETTLE - 1 - 2 * S.N_RES + (S.A_ACCEPT - S.A_OFFER)
    assert main <= KEPT
    assert KEPT + K_LEN <= S.MAX_ACTIONS
    assert KEPT % 2 == 0  # the kept value is a float64 over two int32 words


def test_a_kept_decision_picks_what_a_fresh_one_picks():
    players = 4
    data = data_for(players)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    kept = []

    def decide(a, seat, stream):
        if not kept_decision(a, buf):
            return greedy_action(a, data, seat, DEFAULTS, stream, buf)
        assert a[S.PHASE] == S.PH_MAIN and a[S.LAPSED] != 0
        fresh = greedy_action(a, data, seat, DEFAULTS, stream.copy(), np.zeros_like(buf))
        act = greedy_action(a, data, seat, DEFAULTS, stream, buf)
        assert act == fresh
        kept.append(act)
        return act

    play_games(data, players, derive_game_seeds(11, players, np.arange(6)), decide)
    assert len(kept) > 300  # some 180 a game
