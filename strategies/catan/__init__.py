"""Catan bots: random (code 0), greedy (code 1, strategies/catan/greedy.py) and the shared
search bot (code 2, strategies/search.py) rolling out greedy from re-dealt hidden cards.

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and
reads only what ``seat`` may know; the random bot reads only the legal actions (the same for
any deal of the cards the seat cannot see).
"""

import sim.games.catan.decisions as decisions  # the kinds the search's skip names
from sim.core.kernel import counted, leaf
from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.games.catan.rules import (  # search hook (bot levels): advance..step
    advance,
    current_player,
    determinize,
    is_over,
    legal_actions,
    scores,
    step,
)
from strategies.catan.greedy import GREEDY_PARAMS, K_LEN, KEPT, greedy_action
from strategies.search import SEARCH_CODE, make_search_bot, search_bot_decl  # search hook

RANDOM_CODE, GREEDY_CODE = 0, 1

RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal atomic actions")
GREEDY_DECL = BotDecl(
    "greedy",
    GREEDY_CODE,
    "one-step values: production by number probability, resource diversity, harbours, "
    "pieces and VP; setup placements drawn from a softmax over those values (temperature)",
    GREEDY_PARAMS,
)
# search hook (bot levels): code 2, the search budget then greedy's weights for the rollouts;
# defaults from a 4-player ladder against greedy (420 games, seats rotated): rollouts=16 with
# horizon=2 (the shared defaults) 0.49, rollouts=32 horizon=2 margin=0.1 0.61, rollouts=64
# horizon=4 0.64 [0.60, 0.69], rollouts=64 to the end 0.70 (slower)
# width=8 (issue 20): at most greedy's pick and 7 random others race (64 // 4 = 16 before);
# 4-player ladder against greedy, 2,400 games, seeds 0 and 1, all width / width=8: Catan
# 0.610, 0.599 / 0.608, 0.591; Troy 0.563, 0.570 / 0.550, 0.581; Great Wall 0.550, 0.541 /
# 0.532, 0.540 (about 1,100 decided); 1.15-1.2x the games/s (width=6: Catan 0.583, too weak)
# skip (issue 20): the kinds where the search changed greedy's pick in at most 1.5% of its
# decisions (profiled, 4 players, every seat searching, 30 games; 27% of its time); ending the
# turn (2.0%) is kept: skipping it too lost strength (0.541, 0.537). Against greedy, 4 players,
# 2,400 games, seeds 0, 1: 0.609, 0.592 (0.608, 0.591 without)
# rollouts=32 horizon=3 (issue 20; was 64 and 4): with same=1 most alternatives leave the race
# after one round, and the survivors are settled in 4 rounds as well as in 8. Against greedy,
# 4 players, 2,400 games, seeds 0, 1, 2: 0.598, 0.605, 0.584 (0.609, 0.592, 0.604 at 64 and 4;
# rollouts=32 alone 0.611, 0.600; horizon=2 0.590, 0.584); 1.7-2x the games/s
# Domestic trade (issue 42): offers and declines left to greedy too. In Catan with trade on they
# were 40% of the search's time (benchmarks/search_kinds.py, 4 players, every seat searching,
# skip=0, 12 games: 534 declines and 182 offers a game) and the search changed greedy's pick in
# 0.1% and 0.7% of them. Against greedy, 4 players, 800 games a seed (search_measure, seats
# rotated): 0.562 and 0.585 at seeds 0 and 1 (0.570 and 0.590 without); search-vs-greedy games per
# CPU second 1.47x and 1.40x.
SEARCH_DECL = search_bot_decl(
    GREEDY_DECL,
    decisions.DECISION_KINDS,
    rollouts=32,
    horizon=3,
    width=8,
    same=1,
    skip=("roll", "play_knight", "discard", "steal", "setup_road", "city", "offer", "decline"),
)
BOTS = (RANDOM_DECL, GREEDY_DECL, SEARCH_DECL)


@leaf
def random_action(state, data, seat, params, rng, buf):
    """Uniform over the legal actions, drawn from the seat's own stream."""
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


# search hook (bot levels): the game-agnostic search kernel; determinize re-deals the other
# hands and the unplayed development cards against the deck
search_action = make_search_bot(
    step,
    legal_actions,
    current_player,
    is_over,
    greedy_action,
    scores,
    determinize,
    # greedy lists the legal actions into buf before it reads them; its memory is the decision
    # it keeps after an offer (greedy.keep_decision), which each rollout starts from
    policy_memory=(KEPT, KEPT + K_LEN),
    advance=advance,  # rollouts step in place
    decision_kind=decisions.decision_kind,  # what the skip parameter names
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
