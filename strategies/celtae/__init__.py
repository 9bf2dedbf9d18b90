"""Celtae bots: random (code 0), greedy (code 1, strategies/celtae/greedy.py), search (code 2).

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and reads
only what ``seat`` may know (its own hand, the public board, other hands' sizes).
"""

import sim.games.celtae.decisions as decisions  # the kinds the search's skip names
from sim.core.kernel import counted, leaf
from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.games.celtae.rules import (  # search hook (bot levels): current_player..step
    current_player,
    determinize,
    is_over,
    legal_actions,
    scores,
    step,
)
from sim.games.celtae.rules_turn import advance
from strategies.celtae.greedy import GREEDY_DECL, greedy_action, greedy_listed
from strategies.search import SEARCH_CODE, make_search_bot, search_bot_decl  # search hook

RANDOM_CODE, GREEDY_CODE = 0, 1
RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal actions")
# search hook (bot levels): code 2, the search budget then greedy's weights for the rollouts.
# Issue 42: rollouts=12 horizon=3 cut_after=2 and the kinds where the search (almost) never
# overruled greedy left to greedy's pick (skip). Profiled per kind (benchmarks/search_kinds.py,
# 4 players, every seat searching, 30 games): the skipped kinds changed greedy's pick in 0-0.5%
# of their decisions and took 31% of the search's time; skipping them at horizon=2 cost 1.4
# points (0.705, 0.710, 0.723), which the third turn per rollout buys back. Against greedy, 2
# players, 3,000 games, seeds 0-4: 0.732, 0.734, 0.737, 0.728, 0.734 (mean 0.733; Wilson 95%
# intervals about +-0.016, e.g. [0.716, 0.747] at seed 0) against 0.721, 0.727, 0.732, 0.730,
# 0.734 (mean 0.729); 4 players, 2,400 games, seeds 0, 1: 0.550, 0.570 against 0.541, 0.565.
# Games per CPU second, 4 players, every seat searching, back to back: 1.47x and 1.60x (124 ->
# 198), about 152 -> 230 on the quiet-machine bench. Measured on the way (seeds 0-2):
# rollouts=12 cut_after=2 0.722, 0.725, 0.732 (1.27x); the same with horizon=3 0.746, 0.747,
# 0.745 (1.03x); with swap and discard skipped too (they changed greedy's pick in 1.1-1.6%)
# 0.723, 0.724, 0.732 (2.1x; 4 players 0.541, 0.557); horizon=1 0.598, 0.618, 0.608
SEARCH_DECL = search_bot_decl(
    GREEDY_DECL,
    decisions.DECISION_KINDS,
    rollouts=12,
    horizon=3,
    same=1,
    cut_after=2,
    skip=(
        "keep_side_a",
        "choose_combat",
        "token",
        "cultivate",
        "take_two",
        "fight",
        "garrison",
        "recruit",
        "druid",
        "refill",
        "overflow",
        "decline",
    ),
)
BOTS = (RANDOM_DECL, GREEDY_DECL, SEARCH_DECL)


@leaf
def random_action(state, data, seat, params, rng, buf):
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


@leaf
def kind_of(state, data, action):
    """The decision kind of ``action``, as the search's skip parameter asks for it."""
    return decisions.decision_kind(state, action)


# search hook (bot levels): the game-agnostic search kernel; determinize re-deals hidden cards
# and the face-down tiles below the piles' tops
search_action = make_search_bot(
    step,
    legal_actions,
    current_player,
    is_over,
    greedy_action,
    scores,
    determinize,
    policy_memory=False,  # greedy lists the legal actions into buf before it reads it
    advance=advance,  # rollouts step in place and list the next options for greedy
    policy_listed=greedy_listed,
    decision_kind=kind_of,  # what the skip parameter names
)


@leaf(inline="always")  # into its loops: a call level and a compiled module fewer
def choose_plain(state, data, seat, code, params, rng, buf):
    """Random and greedy seats only: what a loop with no searching seat compiles (issue 42:
    the search is a third of the game's cold compile)."""
    if code == GREEDY_CODE:
        return greedy_action(state, data, seat, params, rng, buf)
    return random_action(state, data, seat, params, rng, buf)


@counted(inline="always")  # into its loops; inlines the search, which allocates
def choose_action(state, data, seat, code, params, rng, buf):
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_plain(state, data, seat, code, params, rng, buf)


@leaf(inline="always")  # into its loops: a call level and a compiled module fewer
def choose_listed_plain(state, data, seat, code, params, rng, buf, n):
    """:func:`choose_plain` when ``buf[:n]`` already holds the legal actions (the chunk loop
    gets them from rules_turn.step_listed); greedy then does not list them again."""
    if code == GREEDY_CODE:
        return greedy_listed(state, data, seat, params, rng, buf, n)
    return random_action(state, data, seat, params, rng, buf)


@counted(inline="always")  # into its loops; inlines the search, which allocates
def choose_listed(state, data, seat, code, params, rng, buf, n):
    """:func:`choose_listed_plain` with the search bot too."""
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_listed_plain(state, data, seat, code, params, rng, buf, n)
