"""A tiny compiled push-your-luck game that follows the kernel API, for testing the search bot.

"Bag pig": on your turn draw tokens from a shared bag (values 1-5, and busts worth 0) into a
pot, then bank the pot as points or lose it on a bust. The bag is a histogram drawn by the
chance rng and refilled when empty, so its order is hidden and re-sampled by rollouts. First to
``target`` points wins; ``round_cap`` is the safety cap. Greedy banks once the pot reaches
``bank_at`` (or when banking wins), which a search bot can beat by reading the bag and the race.

It is registered under the id ``toy_pig`` by the tests (monkeypatching the registry), and plays
through the same ``GameDecl``/``play_batch`` path as a real game, bot code 2 included.
"""

import numpy as np
from numba import njit

from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl, GameDecl
from sim.core.results import ChunkResult
from sim.core.rng import draw_from_histogram, randint, seed_streams
from strategies.search import make_search_bot, search_bot_decl

# state: | OVER | SEAT | NP | POT | ROUND | TURNS | REASON | LAST | DRAWS | SCORE[4] | BAG[6] |
OVER, SEAT, NP, POT, ROUND, TURNS, REASON, LAST, DRAWS = range(9)
SCORE = 9
BAG = 13
N_VALUES = 6
STATE_LEN = BAG + N_VALUES
MAX_ACTIONS = 2
DRAW, BANK = 0, 1
TARGET, ROUND_CAP = 0, 1  # index into data[0]


def compile_data(params) -> tuple:
    rules = np.array([params["target"], params["round_cap"]], np.int64)
    bag = np.array([params["busts"], 4, 4, 4, 4, 4], np.int64)
    return (rules, bag)


@njit(cache=True)
def init_state(data, n_players, out):
    out[:] = 0
    out[NP] = n_players
    out[ROUND] = 1
    out[LAST] = -1
    out[BAG : BAG + N_VALUES] = data[1]


@njit(cache=True)
def current_player(state):
    return -1 if state[OVER] else state[SEAT]


@njit(cache=True)
def is_over(state):
    return state[OVER] != 0


@njit(cache=True)
def legal_actions(state, data, out):
    out[0] = DRAW
    if state[POT] == 0:
        return 1
    out[1] = BANK
    return 2


@njit(cache=True)
def _next_turn(out, data):
    out[SEAT] = (out[SEAT] + 1) % out[NP]
    out[TURNS] += 1
    if out[SEAT] == 0:
        out[ROUND] += 1
        if out[ROUND] > data[0][ROUND_CAP]:
            out[OVER] = 1
            out[REASON] = 1


@njit(cache=True)
def step(state, action, data, rng, out):
    out[:] = state
    seat = state[SEAT]
    if action == DRAW:
        bag = out[BAG : BAG + N_VALUES]
        total = bag.sum()
        if total == 0:
            bag[:] = data[1]
            total = bag.sum()
        token = draw_from_histogram(rng, bag, total)
        bag[token] -= 1
        out[LAST] = token
        out[DRAWS] += 1
        if token == 0:
            out[POT] = 0
            _next_turn(out, data)
        else:
            out[POT] += token
    else:
        out[SCORE + seat] += state[POT]
        out[POT] = 0
        if out[SCORE + seat] >= data[0][TARGET]:
            out[OVER] = 1
            out[REASON] = 0
        else:
            _next_turn(out, data)


@njit(cache=True)
def scores(state, data, out):
    for s in range(state[NP]):
        out[s] = state[SCORE + s]
    return state[NP]


@njit(cache=True)
def greedy_action(state, data, seat, params, rng, buf):
    pot = state[POT]
    if pot == 0:
        return DRAW
    if state[SCORE + seat] + pot >= data[0][TARGET] or pot >= params[0]:
        return BANK
    return DRAW


@njit(cache=True)
def follows_plan(state, data, seat, buf):
    """A pot of 5 or more: greedy has made up its mind to bank (the search's ``follow`` test)."""
    return state[POT] >= 5


search_action = make_search_bot(
    step, legal_actions, current_player, is_over, greedy_action, scores, follows_plan=follows_plan
)


@njit(cache=True)
def choose_action(state, data, seat, code, params, rng, buf):
    if code == 1:
        return greedy_action(state, data, seat, params, rng, buf)
    if code == 2:
        return search_action(state, data, seat, params, rng, buf)
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


@njit(cache=True)
def _play_kernel(data, n_players, codes, params, seeds, rounds, turns, reason, score, draws):
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, a)
        while not is_over(a):
            seat = current_player(a)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            step(a, act, data, streams[0], b)
            a, b = b, a
        rounds[g] = min(a[ROUND], data[0][ROUND_CAP])
        turns[g] = a[TURNS] + 1
        reason[g] = a[REASON]
        draws[g] = a[DRAWS]
        for s in range(n_players):
            score[g, s] = a[SCORE + s]


@njit(cache=True)
def shadow_game(data, n_players, seed, search_params, greedy_params, chance_log, final):
    """One game where every decision runs the search (and discards it) and greedy is played.

    Returns the number of chance draws, logged in ``chance_log``, and the final scores in
    ``final``; neither may depend on the search budget, because thinking draws only from the
    seat's own stream.
    """
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    seed_streams(streams, seed)
    init_state(data, n_players, a)
    n = 0
    while not is_over(a):
        seat = current_player(a)
        search_action(a, data, seat, search_params, streams[1 + seat], buf)
        act = greedy_action(a, data, seat, greedy_params, streams[1 + seat], buf)
        step(a, act, data, streams[0], b)
        a, b = b, a
        if a[DRAWS] > n:
            chance_log[n] = a[LAST]
            n += 1
    for s in range(n_players):
        final[s] = a[SCORE + s]
    return n


def play(setup, seeds):
    data = compile_data(setup.params)
    codes, params = setup.bot_arrays()
    n, p = len(seeds), setup.players
    result = ChunkResult.empty(n, p, 1)
    draws = np.zeros(n, np.int32)
    score = np.zeros((n, p), np.int32)
    _play_kernel(
        data, p, codes, params, seeds, result.rounds, result.turns, result.end_reason, score, draws
    )
    result.score[:] = score
    result.components[:, :, 0] = score
    return result


def trace(setup, seed):
    result = play(setup, np.array([seed], np.uint64))
    lines = [f"seat {s} banks {result.score[0, s]}" for s in range(setup.players)]
    return [*lines, f"end: {GAME.end_reasons[result.end_reason[0]]}"], result


GREEDY = BotDecl(
    "greedy",
    1,
    "banks at a pot threshold",
    ParamSet((Param("bank_at", "int", 5, "bank once the pot reaches this", low=1, high=100),)),
)

GAME = GameDecl(
    id="toy_pig",
    title="Bag pig (test game)",
    version="1",
    min_players=2,
    max_players=4,
    params=ParamSet(
        (
            Param("target", "int", 40, "points to win", low=5, high=500),
            Param("round_cap", "int", 60, "safety cap", low=1, high=1000),
            Param("busts", "int", 4, "bust tokens in the bag", low=1, high=20),
        )
    ),
    bots=(
        BotDecl("random", 0, "uniform over legal actions"),
        GREEDY,
        search_bot_decl(GREEDY, rollouts=16, horizon=0),
    ),
    end_reasons=("target", "turn_cap"),
    score_components=("banked",),
    play=play,
    trace=trace,
)
