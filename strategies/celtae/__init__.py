"""Celtae bots: random (code 0), greedy (code 1, strategies/celtae/greedy.py), search (code 2).

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and reads
only what ``seat`` may know (its own hand, the public board, other hands' sizes).
"""

import sim.games.celtae.decisions as decisions  # the kinds the search's skip names
from sim.core.kernel import leaf
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
# search hook (bot levels): code 2, the search budget then greedy's weights for the rollouts
SEARCH_DECL = search_bot_decl(GREEDY_DECL, same=1)
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


@leaf
def choose_plain(state, data, seat, code, params, rng, buf):
    """Random and greedy seats only: what a loop with no searching seat compiles (issue 42:
    the search is a third of the game's cold compile)."""
    if code == GREEDY_CODE:
        return greedy_action(state, data, seat, params, rng, buf)
    return random_action(state, data, seat, params, rng, buf)


@leaf
def choose_action(state, data, seat, code, params, rng, buf):
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_plain(state, data, seat, code, params, rng, buf)


@leaf
def choose_listed_plain(state, data, seat, code, params, rng, buf, n):
    """:func:`choose_plain` when ``buf[:n]`` already holds the legal actions (the chunk loop
    gets them from rules_turn.step_listed); greedy then does not list them again."""
    if code == GREEDY_CODE:
        return greedy_listed(state, data, seat, params, rng, buf, n)
    return random_action(state, data, seat, params, rng, buf)


@leaf
def choose_listed(state, data, seat, code, params, rng, buf, n):
    """:func:`choose_listed_plain` with the search bot too."""
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_listed_plain(state, data, seat, code, params, rng, buf, n)
