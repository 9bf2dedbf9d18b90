"""The search's ``follow`` (issue 42): Celtic Trader's greedy says when its next pick is a later
step of a move it planned earlier in the turn, and the search then plays greedy's pick (the
search's side: test_search.py, on the toy game)."""

import numpy as np

from sim.core.registry import make_setup
from sim.games.celtic_trader import rules
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.play import setup_data
from strategies.celtic_trader import greedy as G
from tests.games.celtic_trader.helpers import rng


def _greedy_games(games=6, players=4):
    """Every decision of greedy games: (state, seat, buf before, greedy's pick, buf after)."""
    setup = make_setup("celtic_trader", players, {}, "greedy")
    data = setup_data(setup)
    params = G.greedy_defaults()
    for g in range(games):
        state = np.zeros(S.STATE_LEN, np.int32)
        after = np.zeros(S.STATE_LEN, np.int32)
        bufs = [np.zeros(S.BUF_LEN, np.int32) for _ in range(players)]
        dice = rng(100 + g)
        rules.init_state(data, players, S.ROLES_RANDOM, np.zeros(players, np.int64), dice, state)
        while not rules.is_over(state):
            seat = rules.current_player(state)
            before = bufs[seat].copy()
            pick = G.greedy_action(state, data, seat, params, rng(g), bufs[seat])
            yield data, state.copy(), seat, before, pick, bufs[seat]
            rules.step(state, pick, data, dice, after)
            state, after = after, state


def test_greedy_follows_its_plan_on_the_later_steps_of_a_move_only():
    """``follows_plan`` is false outside movement and at a turn's first movement decision, and
    where it is true greedy does not plan again: its pick is the next section of the path it
    planned, or a pick-up or the end of the move where the path ends."""
    moves = following = 0
    last_turn = {}
    for data, state, seat, before, pick, buf in _greedy_games():
        follows = G.follows_plan(state, data, seat, before)
        if state[S.PHASE] != S.PH_MOVE:
            assert not follows
            continue
        moves += 1
        first = last_turn.get(seat) != state[S.TURNS]
        last_turn[seat] = state[S.TURNS]
        if first:
            assert not follows
        if follows:
            following += 1
            plan = before[G.MAX_ACTIONS : G.MAX_ACTIONS + G.PLAN_LEN]
            kept = buf[G.MAX_ACTIONS : G.MAX_ACTIONS + G.PLAN_LEN]
            assert kept[G.PL_KIND] == plan[G.PL_KIND] or kept[G.PL_KIND] == G.GOAL_NONE
            assert kept[G.PL_TARGET] == plan[G.PL_TARGET]
            idx, n = plan[G.PL_IDX], plan[G.PL_N]
            if pick < S.A_SPOT and idx < n:
                assert pick in (S.A_SEC + plan[G.PL_PATH + idx], S.A_PASS)
    assert moves > 200 and 0.3 * moves < following < 0.9 * moves
