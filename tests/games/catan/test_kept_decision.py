"""Greedy's kept trade and build decision (strategies/catan/greedy.py: keep_decision): after its
offer lapses, the seat decides again from what it kept and picks what a fresh decision picks;
the kept words lie past every listing."""

import numpy as np

from sim.core.rng import derive_game_seeds
from sim.games.catan import state as S
from sim.games.catan.rules import determinize
from strategies.catan.greedy import GREEDY_PARAMS, K_LEN, KEPT, greedy_action, kept_decision
from tests.games.catan.helpers import data_for, play_games, rng

DEFAULTS = np.array([p.default for p in GREEDY_PARAMS], np.float64)


def test_no_listing_reaches_the_kept_words():
    # A listing holds distinct action ids. The longest is the trade and build phase's: every id
    # below the robber's but the roll, Year of Plenty's picks and the discards, and the offers.
    # The others list fewer (setup: places or roads; Special Building Phase: builds and end).
    main = S.A_ROBBER - S.A_SETTLE - 1 - 2 * S.N_RES + (S.A_ACCEPT - S.A_OFFER)
    assert main <= KEPT
    assert KEPT + K_LEN <= S.MAX_ACTIONS
    assert KEPT % 2 == 0  # the kept value is a float64 over two int32 words


def _same_pick(a, data, seat, stream, buf):
    """Greedy's pick from the kept words equals a fresh decision's (a buffer keeping none)."""
    fresh = greedy_action(a, data, seat, DEFAULTS, stream.copy(), np.zeros_like(buf))
    assert greedy_action(a, data, seat, DEFAULTS, stream.copy(), buf.copy()) == fresh


def test_a_kept_decision_picks_what_a_fresh_one_picks():
    players = 4
    data = data_for(players)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    kept = []
    dealt = []

    def decide(a, seat, stream):
        if kept_decision(a, buf):
            assert a[S.PHASE] == S.PH_MAIN and a[S.LAPSED] != 0
            _same_pick(a, data, seat, stream, buf)
            kept.append(seat)
            # as a search's rollout sees it: the hidden cards dealt again by another seat
            other = np.zeros_like(a)
            determinize(a, data, (seat + 1) % players, rng(len(kept)), other)
            _same_pick(other, data, seat, stream, buf)
            own = np.r_[S.HAND + seat * S.N_RES + np.arange(S.N_RES)]
            dealt.append(not kept_decision(other, buf) and (other[own] != a[own]).any())
        return greedy_action(a, data, seat, DEFAULTS, stream, buf)

    play_games(data, players, derive_game_seeds(11, players, np.arange(6)), decide)
    assert len(kept) > 300  # some 180 a game
    assert sum(dealt) > 100  # the seat's own hand dealt otherwise: not the kept position
