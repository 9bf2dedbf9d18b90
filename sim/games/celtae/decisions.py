"""The kinds of decision a Celtae seat takes, counted per game as ``act_<kind>`` columns.

The kind follows from the phase the seat faces (state.py's PH_*) and, for the action choice,
the leader flip and the optional refresh or token, from the action id: one lookup per decision.
"""

from sim.core.kernel import leaf
from sim.games.celtae.state import A_CHOOSE, A_NO, A_SIDE_B, PH_CHOOSE, PH_FLIP, PH_REFRESH, PHASE

DECISION_KINDS = (
    "draft_leader",
    "discard",
    "move",
    "progress_pawn",
    "flip_to_b",
    "keep_side_a",
    "choose_cultivate",  # the action chosen, in the order of params.KINDS
    "choose_build",
    "choose_combat",
    "choose_recruit",
    "refresh",  # from here on, one kind per decision phase PH_REFRESH .. PH_OVERFLOW
    "swap",
    "token",
    "cultivate",
    "build",
    "take_two",
    "bonus_recruit",
    "fight",
    "garrison",
    "recruit",
    "order",
    "druid",
    "refill",
    "overflow",
    "decline",  # no refresh / no token
)
K_FLIP_B, K_KEEP_A, K_CHOOSE, K_DECLINE = 4, 5, 6, 24


@leaf
def decision_kind(state, action) -> int:
    """Index into DECISION_KINDS of ``action`` taken in ``state`` (before the step)."""
    phase = state[PHASE]
    if phase < PH_FLIP:
        return phase
    if phase == PH_FLIP:
        return K_FLIP_B if action == A_SIDE_B else K_KEEP_A
    if phase == PH_CHOOSE:
        return K_CHOOSE + ((action - A_CHOOSE) % 8) // 2
    if action == A_NO and phase <= PH_REFRESH + 2:
        return K_DECLINE
    return phase + 4
