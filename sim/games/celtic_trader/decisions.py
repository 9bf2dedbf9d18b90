"""The kinds of decision a Celtic Trader seat takes, counted per game as ``act_<kind>`` columns.

A decision is one atomic action chosen by a bot; its kind follows from the phase the seat faces
and the action id (state.py's action encoding), so counting costs one lookup per decision.
"""

from sim.core.kernel import leaf
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

DECISION_KINDS = (
    "role",  # 0..8: the phase's own decision, in the order of state.PH_*
    "relocate",
    "order",
    "place_token",
    "raise_demand",
    "place_roman",
    "orders",
    "romanise",
    "start",
    "move",  # 9: move to an adjacent section
    "pick_up",
    "discard",
    "end_move",
    "upgrade_movement",
    "upgrade_trading",
    "upgrade_carrying",
    "claim_vp",
    "deliver",
    "pass",  # no more upgrades, claims or deliveries
)
# Celtic Quest's kinds follow (its DECISION_KINDS extend this tuple): the decision of each of
# its phases (layout.PH_* order), then its own movement and delivery actions.
QUEST_KINDS = (
    "keep_destiny",
    "return_token",
    "enchant",
    "place_crystal",
    "drop_drawn_item",
    "relocate_passed_roman",
    "complete_quest",
    "discard_quest",
    "draw_quest",
    "deliver_crystals",
    "raven",
    "pass_roman_gold",
    "pass_roman_shield",
    "pick_up_elixir",
    "pick_up_crystal",
    "bread",
    "drop_item",
    "deliver_ring",
)
# Celtic Quest's action ids, imported after the kind names: importing its layout runs
# sim/games/celtic_quest/__init__.py, whose decisions.py reads the names above (a cycle)
from sim.games.celtic_quest.layout import (  # noqa: E402
    A_BREAD,
    A_CRYSTAL,
    A_DROP_CRYSTAL,
    A_ELIXIR,
    A_Q,
    A_RING,
    A_SHIELD,
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
