"""The search race's budget rules, on a tiny game whose ``step`` counts its calls.

"Twins": two seats take turns, ``TURNS`` turns in all; a turn's action 0 or 1 adds
``1 + action * bonus`` to the mover's score. Greedy always plays 0. With ``bonus = 0`` the two
actions are twins (every rollout of one is valued exactly as the other's), with ``bonus = 1``
action 1 is better in every rollout. ``data[0]`` counts the steps played, rollouts included, so
a test can see how many rollouts the search spent.
"""

import numpy as np
from numba import njit

from strategies.search import N_SEARCH_PARAMS, SEARCH_PARAMS, make_search_bot
from tests.strategies import toy_game as toy

T, SEAT, OVER, SCORE = 0, 1, 2, 3  # SCORE, SCORE + 1: the two seats' scores
TURNS = 10
STEPS, BONUS = 0, 1  # data: the step counter, then action 1's extra points


@njit
def _step(state, action, data, rng, out):
    data[STEPS] += 1
    out[:] = state
    out[SCORE + state[SEAT]] += 1 + action * data[BONUS]
    out[T] += 1
    out[SEAT] = 1 - state[SEAT]
    out[OVER] = out[T] >= TURNS


@njit
def _legal(state, data, out):
    out[0] = 0
    out[1] = 1
    return 2


@njit
def _current(state):
    return state[SEAT]


@njit
def _over(state):
    return state[OVER] != 0


@njit
def _greedy(state, data, seat, params, rng, buf):
    return 0


@njit
def _scores(state, data, out):
    out[0] = state[SCORE]
    out[1] = state[SCORE + 1]
    return 2


_search = make_search_bot(_step, _legal, _current, _over, _greedy, _scores)


def _params(**values) -> np.ndarray:
    row = np.zeros(N_SEARCH_PARAMS + 1, np.float64)
    for i, p in enumerate(SEARCH_PARAMS):
        row[i] = values.get(p.name, p.default)
    return row


def _think(bonus: int, **values) -> tuple[int, int]:
    """(action, steps played) of one search from the start, seat 0 to move."""
    data = np.array([0, bonus], np.int64)
    state = np.zeros(4 + 2, np.int64)
    rng = np.array([1, 2, 3, 4], np.uint64)
    action = _search(state, data, 0, _params(**values), rng, np.zeros(4, np.int32))
    return int(action), int(data[STEPS])


def test_twin_alternatives_are_dropped_after_same_rounds():
    """Twins tie in every rollout: without ``same`` the race spends its whole budget on them
    (16 rollouts of 10 steps); with ``same = 1`` it stops after one round (2 rollouts), with
    ``same = 3`` after three. Greedy's pick is played either way."""
    assert _think(0, rollouts=16, horizon=0) == (0, 16 * TURNS)
    assert _think(0, rollouts=16, horizon=0, same=1) == (0, 2 * TURNS)
    assert _think(0, rollouts=16, horizon=0, same=3) == (0, 6 * TURNS)


def test_a_better_alternative_survives_same_and_is_played():
    """Action 1 gains in every rollout (a win instead of a tie): ``same`` never drops it."""
    action, steps = _think(1, rollouts=16, horizon=0, same=1)
    assert action == 1
    assert steps == 16 * TURNS
    assert _think(1, rollouts=16, horizon=0) == (1, 16 * TURNS)


def test_a_worse_alternative_is_cut_after_cut_after_rounds():
    """With ``bonus = -1`` action 1 loses every rollout that greedy's pick ties (a paired gain
    of -0.5 without spread, so no twin): the race drops it as soon as ``cut`` may act, after
    ``cut_after`` rounds of two rollouts (4 by default), and plays greedy's pick."""
    assert _think(-1, rollouts=16, horizon=0) == (0, 2 * 4 * TURNS)
    assert _think(-1, rollouts=16, horizon=0, cut_after=2) == (0, 2 * 2 * TURNS)
    assert _think(-1, rollouts=16, horizon=0, cut_after=3) == (0, 2 * 3 * TURNS)
    assert _think(-1, rollouts=16, horizon=0, cut=0.0) == (0, 16 * TURNS)  # no cut: all 16


@njit
def _toy_advance(state, action, data, rng):
    before = state.copy()
    toy.step(before, action, data, rng, state)


@njit
def _toy_advance_listed(state, action, data, rng, buf):
    _toy_advance(state, action, data, rng)
    return 0 if toy.is_over(state) else toy.legal_actions(state, data, buf)


@njit
def _toy_greedy_listed(state, data, seat, params, rng, buf, n):
    return toy.greedy_action(state, data, seat, params, rng, buf)


def _toy_positions():
    """(state, data, rng, buf) of 40 toy positions on which the search picks both actions."""
    data = toy.compile_data(toy.GAME.params.defaults(2))
    for seed in range(40):
        state = np.zeros(toy.STATE_LEN, np.int32)
        toy.init_state(data, 2, state)
        state[toy.SCORE : toy.SCORE + 2] = [seed % 37, (seed * 7) % 37]
        state[toy.POT] = seed % 9
        rng = np.array([seed + 1, 5, 7, 11], np.uint64)
        yield state, data, rng, np.zeros(toy.MAX_ACTIONS, np.int32)


def _picks_as_the_default(*bots) -> set[int]:
    """Assert that every bot picks what the toy's default search picks on the toy positions;
    return the picks (both actions must occur, or the comparison says nothing)."""
    row = _params(rollouts=64, horizon=2)
    row[N_SEARCH_PARAMS] = 5.0  # greedy's bank_at
    picks = set()
    for state, data, rng, buf in _toy_positions():
        default = toy.search_action(state, data, 0, row, rng.copy(), buf.copy())
        for bot in bots:
            assert bot(state, data, 0, row, rng.copy(), buf.copy()) == default
        picks.add(int(default))
    return picks


_HOOKS = (toy.step, toy.legal_actions, toy.current_player, toy.is_over, toy.greedy_action)


def test_rollouts_in_place_pick_what_pure_steps_pick():
    """With ``advance`` (step in place) the rollouts reach the same positions on the same draws
    as with ``step``, so the search picks the same actions; likewise when ``advance`` lists the
    next options for ``policy_listed``."""
    in_place = make_search_bot(*_HOOKS, toy.scores, advance=_toy_advance)
    listed = make_search_bot(
        *_HOOKS, toy.scores, advance=_toy_advance_listed, policy_listed=_toy_greedy_listed
    )
    assert _picks_as_the_default(in_place, listed) == {toy.DRAW, toy.BANK}


def test_a_policy_without_memory_needs_no_buffer_copy():
    """``policy_memory=False`` (the rollouts skip copying the policy's buffer) picks exactly
    what the default picks when the policy writes its buffer before reading it (toy_pig's
    greedy lists nothing in it), on hidden-bag positions and many seeds."""
    lean = make_search_bot(*_HOOKS, toy.scores, policy_memory=False)
    assert _picks_as_the_default(lean) == {toy.DRAW, toy.BANK}
