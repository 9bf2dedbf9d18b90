"""The kinds of decision a Celtica seat takes, counted per game as ``act_<kind>`` columns.

The kind follows from the action id alone (state.py's action ranges): one lookup per decision.
"""

from sim.core.kernel import leaf
from sim.games.celtica.state import (
    A_DECLINE,
    A_DRAW,
    A_RETURN,
    A_TAKE,
    A_XDONE,
    A_XSWAP,
    A_XTAKE,
    PLAY_SPAN,
)

DECISION_KINDS = (
    "play_cards",  # move a druid with Druid cards only
    "play_with_xp",  # ... with Experience cards among them
    "take_fragment",  # at a dig site
    "return_fragment",  # at a ruin
    "draw_druid_card",  # at a sacred place
    "decline_druid_card",
    "xp_take",  # final exchange: 2 XP = take a fragment
    "xp_swap",  # 1 XP = swap a fragment
    "xp_done",
    "pass",
)


@leaf
def decision_kind(state, action) -> int:
    """Index into DECISION_KINDS of ``action`` (the state is not needed in Celtica)."""
    if action < PLAY_SPAN:
        return 1 if action % 32 > 0 else 0
    if action < A_RETURN:
        return 2 if action >= A_TAKE else 9
    if action < A_DRAW:
        return 3
    if action == A_DRAW:
        return 4
    if action == A_DECLINE:
        return 5
    if action < A_XSWAP:
        return 6 if action >= A_XTAKE else 9
    if action < A_XDONE:
        return 7
    return 8 if action == A_XDONE else 9
