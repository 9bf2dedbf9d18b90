"""Celtic Trader bots, dispatched by integer code inside the compiled loop.

Codes: 0 ``random`` (uniform over legal actions), 1 ``greedy`` (strategies/celtic_trader/
greedy.py), 2 reserved for ``search`` (one more branch in :func:`choose_action`).
"""

import sim.games.celtic_trader.decisions as decisions  # a module: importing its names is a cycle
from sim.core.kernel import counted, leaf
from sim.core.rng import randint
from sim.games.celtic_trader.params import O_RULES, QUEST_HOOKS, R_QUEST
from sim.games.celtic_trader.rules import (
    advance,
    current_player,
    is_over,
    legal_actions,
    scores,
    step,
)
from strategies.celtic_quest import greedy as quest_greedy
from strategies.celtic_quest.hidden import determinize
from strategies.celtic_trader.decl import GREEDY_DECL, RANDOM_DECL
from strategies.celtic_trader.greedy import PLAN_MEMORY, follows_plan, greedy_action
from strategies.search import SEARCH_CODE, make_search_bot  # search hook (bot levels)

RANDOM_CODE = 0
GREEDY_CODE = 1

__all__ = [
    "GREEDY_DECL",
    "RANDOM_DECL",
    "choose_action",
    "choose_plain",
    "greedy_action",
    "random_action",
]


@leaf
def policy(state, data, seat, params, rng, buf):
    """The greedy bot of the game being played (Celtic Quest plays on these kernels)."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        return quest_greedy.greedy_action(state, data, seat, params, rng, buf)
    return greedy_action(state, data, seat, params, rng, buf)


@leaf
def kind_of(state, data, action):
    """The decision kind of ``action`` (Celtic Quest's included), as the search asks for it."""
    return decisions.decision_kind(state, action)


# search hook (bot levels): the game-agnostic search kernel over this game's kernels
search_action = make_search_bot(
    step,
    legal_actions,
    current_player,
    is_over,
    policy,
    scores,
    determinize=determinize,
    advance=advance,  # rollouts step in place
    decision_kind=kind_of,
    policy_memory=PLAN_MEMORY,  # the plan; the kept path searches serve the next rollout
    follows_plan=follows_plan,
)


@leaf(inline="always")
def random_action(state, data, rng, buf):
    """Uniform over the legal actions."""
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


@leaf(inline="always")  # into its loops: a call level and a compiled module fewer
def choose_plain(state, data, seat, code, params, rng, buf):
    """Random and greedy seats only: a chunk with no searching seat runs a loop built on this
    dispatch, which never compiles the search (issue 42: a third of the game's cold compile)."""
    if code == GREEDY_CODE:
        return policy(state, data, seat, params, rng, buf)
    return random_action(state, data, rng, buf)


@counted(inline="always")  # into its loops; inlines the search, which allocates
def choose_action(state, data, seat, code, params, rng, buf):
    """The action of ``seat``'s bot; ``buf`` is an int32 buffer of state.BUF_LEN."""
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_plain(state, data, seat, code, params, rng, buf)
