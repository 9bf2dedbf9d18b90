"""The kinds of decision a Celtic Trader seat takes, counted per game as ``act_<kind>`` columns.

A decision is one atomic action chosen by a bot; its kind follows from the phase the seat faces
and the action id (state.py's action encoding), so counting costs one lookup per decision.
"""

from sim.core.kernel import leaf

# Celtic Quest's action ids: importing its layout runs sim/games/celtic_quest/__init__.py, which
# reads the kind names and the bot declarations back (a cycle): the names live in kinds.py
from sim.games.celtic_quest.layout import (
    A_BREAD,
    A_CRYSTAL,
    A_DROP_CRYSTAL,
    A_ELIXIR,
    A_Q,
    A_RING,
    A_SHIELD,
)
from sim.games.celtic_trader.kinds import DECISION_KINDS, QUEST_KINDS  # noqa: F401 (re-exported)
from sim.games.celtic_trader.state import (
    A_BAST,
    A_CLAIM,
    A_DELIVER,
    A_DISCARD,
    A_PASS,
    A_SPOT,
    A_UPGRADE,
    PH_CLAIM,
    PH_DELIVER,
    PH_MOVE,
    PH_TURN_END,
    PH_UPGRADE,
    PHASE,
)

K_QUEST = len(DECISION_KINDS)
K_GOLD = K_QUEST + 11
K_MOVE, K_PICK_UP, K_DISCARD, K_END_MOVE, K_UPGRADE, K_CLAIM, K_DELIVER, K_PASS = (
    9, 10, 11, 12, 13, 16, 17, 18,
)  # fmt: skip


@leaf
def decision_kind(state, action) -> int:
    """Index into DECISION_KINDS of ``action`` taken in ``state`` (before the step)."""
    phase = state[PHASE]
    if phase > PH_TURN_END or action >= A_Q:
        return _quest_kind(phase, action)
    if A_DISCARD <= action < A_UPGRADE:
        return K_DISCARD
    if phase == PH_MOVE:
        if action == A_PASS:
            return K_END_MOVE
        return K_PICK_UP if A_SPOT <= action < A_BAST else K_MOVE
    if phase == PH_UPGRADE:
        return K_PASS if action == A_PASS else K_UPGRADE + action - A_UPGRADE
    if phase == PH_CLAIM:
        return K_PASS if action == A_PASS else K_CLAIM
    if phase == PH_DELIVER:
        return K_PASS if action < A_DELIVER or action >= A_CLAIM else K_DELIVER
    return phase


@leaf
def _quest_kind(phase, action):
    """A Celtic Quest decision: its phase's kind (a pass counts as ``pass``) or its action's."""
    if phase > PH_TURN_END:
        return K_PASS if action == A_PASS else K_QUEST + phase - PH_TURN_END - 1
    if action < A_SHIELD:
        return K_GOLD
    if action < A_ELIXIR:
        return K_GOLD + 1
    if action < A_CRYSTAL:
        return K_GOLD + 2
    if action < A_BREAD:
        return K_GOLD + 3
    if action == A_BREAD:
        return K_GOLD + 4
    if action < A_DROP_CRYSTAL + 1:
        return K_DISCARD if action == A_DROP_CRYSTAL else K_GOLD + 5
    if action >= A_RING:
        return K_GOLD + 6
    return K_QUEST + phase - PH_TURN_END - 1


# Celtic Quest's action ids (imported last: its package imports this module's kinds)
