"""The Great Wall bots: random (code 0), greedy (code 1, strategies/catan_great_wall/greedy.py)
and the shared search bot (code 2, strategies/search.py) rolling out greedy from re-dealt hidden
cards (the other hands and unplayed development cards: the base game's ``determinize``).

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and
reads only what ``seat`` may know.
"""

import sim.games.catan_great_wall.decisions as decisions  # the kinds the search's skip names
from sim.core.kernel import counted, leaf
from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.games.catan_great_wall.rules import (
    advance,
    current_player,
    determinize,
    is_over,
    legal_actions,
    scores,
    step,
)
from strategies.catan.greedy import position_values
from strategies.catan_great_wall.greedy import GREEDY_PARAMS, greedy_action
from strategies.search import SEARCH_CODE, make_search_bot, search_bot_decl

RANDOM_CODE, GREEDY_CODE = 0, 1

RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal atomic actions")
GREEDY_DECL = BotDecl(
    "greedy",
    GREEDY_CODE,
    "the base game's one-step values, aware of the wall: raises its wall by the threat on it "
    "(the arrows' odds, riders waiting and in the bag, the penalty, the breaches left), before "
    "a rider waits, avoids hexes holding riders, Knights remove riders from its hexes and steer "
    "riders away from its wall; setup placements drawn from a softmax (temperature)",
    GREEDY_PARAMS,
)
# width=8 (issue 20): measured with Catan's, see strategies/catan/__init__.py
# skip (issue 20): the kinds where the search changed greedy's pick in at most 1.7% of its
# decisions (profiled, 4 players, every seat searching, 12 games); ending the turn is kept, as
# in Catan and Troy. Against greedy, 4 players, 2,400 games, seeds 0, 1: 0.557, 0.552 (0.532,
# 0.540 without)
# rollouts=24 horizon=3 (issue 20; was 64 and 4): 6 candidates race (24 // 4) for at most 4
# rounds, 3 turns deep. Against greedy, 4 players, 2,400 games, seeds 0, 1, 2: 0.580, 0.557,
# 0.568 (0.557, 0.552, 0.546 at 64 and 4; rollouts=32 horizon=3 0.581, 0.550; rollouts=32
# horizon=2 0.575, 0.532); 2.5-3x the games/s
# Domestic trade (issue 42): offers and declines left to greedy too. In Catan with trade on they
# were 40% of the search's time (benchmarks/search_kinds.py, 4 players, every seat searching,
# skip=0, 12 games: 534 declines and 182 offers a game) and the search changed greedy's pick in
# 0.1% and 0.7% of them. Against greedy, 4 players, 800 games a seed (search_measure, seats
# rotated): 0.588 at seed 0, about 400 games decided (0.558 without); search-vs-greedy games per
# CPU second 1.53x.
# Steals, bank trades and development card purchases (issue 42) left to greedy too: the search
# overruled greedy in 1.3%, 4.5% and 2.2% of them (search_kinds.py, 12 games). Against greedy,
# 4 players, 1,600 games a seed (search_measure), seeds 0-3: 0.606, 0.573, 0.623, 0.576 (mean
# 0.595) against 0.600, 0.576, 0.625, 0.581 (0.596) without; 1.11x the games per CPU second.
# Leaving the roll (0.586), the roads (with the steals: 0.589) or the end of the turn (0.550)
# to greedy costs strength.
SEARCH_DECL = search_bot_decl(
    GREEDY_DECL,
    decisions.DECISION_KINDS,
    rollouts=24,
    horizon=3,
    width=8,
    same=1,
    skip=(
        "setup_road",
        "settlement",
        "city",
        "discard",
        "move_pirate",
        "knight_done",
        "play_year_of_plenty",
        "offer",
        "decline",
        "steal",
        "trade_bank",
        "buy_development",
    ),
    opening=("setup_settlement", "place_fortress"),
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
