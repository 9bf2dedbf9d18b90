"""Catan: Troy bots: random (code 0), greedy (code 1, strategies/catan_troy/greedy.py) and the
shared search bot (code 2, strategies/search.py) rolling out greedy from re-dealt hidden cards
(the other hands, the support row and the other seats' decision cards).

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and
reads only what ``seat`` may know.
"""

import sim.games.catan_troy.decisions as decisions  # the kinds the search's skip names
from sim.core.kernel import counted, leaf
from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.games.catan_troy.rules import (
    advance,
    current_player,
    determinize,
    is_over,
    legal_actions,
    scores,
    step,
)
from strategies.catan.greedy import position_values
from strategies.catan_troy.greedy import GREEDY_PARAMS, greedy_action
from strategies.search import SEARCH_CODE, make_search_bot, search_bot_decl

RANDOM_CODE, GREEDY_CODE = 0, 1

RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal atomic actions")
GREEDY_DECL = BotDecl(
    "greedy",
    GREEDY_CODE,
    "the base greedy's one-step values, plus donations to its own city (its decision card "
    "only) and ships, heading for the coast in play when it holds a ship's commerce tokens "
    "and no sea access; setup placements drawn from a softmax (temperature)",
    GREEDY_PARAMS,
)
# width=8 (issue 20): measured with Catan's, see strategies/catan/__init__.py
# skip (issue 20): the kinds where the search changed greedy's pick in at most 0.7% of its
# decisions (profiled, 4 players, every seat searching, 30 games); ending the turn (3.8%) is
# kept: skipping it too lost strength (0.552, 0.540). Against greedy, 4 players, 2,400 games,
# seeds 0, 1: 0.547, 0.576 (0.550, 0.581 without)
# rollouts=48 (issue 20; was 64): against greedy, 4 players, 2,400 games, seeds 0, 1, 2: 0.551,
# 0.571, 0.556 (0.547, 0.576, 0.569 at 64). Troy loses strength to what Catan and the Great Wall
# keep: rollouts=32 0.542, 0.555, 0.550; horizon=3 0.541, 0.532; rollouts=48 horizon=3 0.543,
# 0.550, 0.528
# Then donations, cities and setup settlements left to greedy too (the search changed greedy's
# pick in 4.6%, 0% and 0.6% of them; donations took a quarter of its time), rollouts=56: 1.6x
# the games/s (64 -> 102, 4 players, every seat searching); against greedy, 4 players, 2,400
# games, seeds 0-4: 0.553, 0.561, 0.556, 0.559, 0.551 (0.551, 0.571, 0.556, 0.554, 0.558 before).
# At rollouts=48: 0.538, 0.558, 0.545, 0.543, 0.550 (108 games/s); at 64: 0.544, 0.556, 0.561,
# 0.562, 0.551 (94 games/s)
# Domestic trade (issue 42): declines left to greedy too. In Catan with trade on, offers and
# declines were 40% of the search's time (benchmarks/search_kinds.py, 4 players, every seat
# searching, skip=0, 12 games: 534 declines and 182 offers a game) and the search changed greedy's
# pick in 0.1% and 0.7% of them. In Troy, with greedy's coast and ship values (issue 35), leaving
# the offers to greedy too cost strength: against greedy, 4 players, 800 games a seed
# (search_measure, seats rotated), seeds 2, 3: offers and declines skipped 0.561, 0.541; neither
# 0.591, 0.589; declines only 0.594, 0.577, at 1.2x the games per CPU second of neither.
SEARCH_DECL = search_bot_decl(
    GREEDY_DECL,
    decisions.DECISION_KINDS,
    rollouts=56,
    horizon=4,
    width=8,
    same=1,
    skip=(
        "city",
        "donate",
        "roll",
        "discard",
        "steal",
        "setup_road",
        "move_sea_people",
        "swap_back",
        "trade_three_to_one",
        "trade_two_to_one",
        "two_to_one_card",
        "decline",
    ),
    opening=("setup_settlement",),
    opening_margin=0.01,
    opening_horizon=1,
    opening_rollouts=8,
)
BOTS = (RANDOM_DECL, GREEDY_DECL, SEARCH_DECL)


@leaf(inline="always")
def random_action(state, data, seat, params, rng, buf):
    """Uniform over the legal actions, drawn from the seat's own stream."""
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


# the game-agnostic search kernel; determinize re-deals the other hands, the support row and
# the other seats' decision cards
search_action = make_search_bot(
    step,
    legal_actions,
    current_player,
    is_over,
    greedy_action,
    scores,
    determinize,
    policy_memory=False,  # greedy lists the legal actions into buf before it reads it
    advance=advance,  # rollouts step in place
    decision_kind=decisions.decision_kind,  # what the skip parameter names
    evaluate=position_values,  # the opening decisions' horizon value
)


@leaf(inline="always")  # into its loops: a call level and a compiled module fewer
def choose_plain(state, data, seat, code, params, rng, buf):
    """Random and greedy seats only: a chunk with no searching seat runs a loop built on this
    dispatch, which never compiles the search (issue 42: a third of the game's cold compile)."""
    if code == GREEDY_CODE:
        return greedy_action(state, data, seat, params, rng, buf)
    return random_action(state, data, seat, params, rng, buf)


@counted(inline="always")  # into its loops; inlines the search, which allocates
def choose_action(state, data, seat, code, params, rng, buf):
    """Dispatch on the seat's bot code."""
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_plain(state, data, seat, code, params, rng, buf)
