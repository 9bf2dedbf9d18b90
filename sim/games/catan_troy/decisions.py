"""The kinds of decision a Troy seat takes, counted per game as ``act_<kind>`` columns.

Base actions keep the base game's kinds (sim/games/catan/decisions.py), mapped onto this list
(the development-card kinds never occur: Troy has no development cards, §4.2); the scenario's
actions have their own.
"""

import numpy as np

from sim.core.kernel import leaf
from sim.games.catan.decisions import DECISION_KINDS as BASE_KINDS
from sim.games.catan.decisions import decision_kind as base_decision_kind
from sim.games.catan_troy.state import (
    A_CARD,
    A_DONATE,
    A_NO_STEAL,
    A_PUT,
    A_SEA,
    A_SHIP,
    A_SWAP,
    A_TAKE,
)

DECISION_KINDS = (
    "setup_settlement",
    "setup_road",
    "settlement",
    "city",
    "road",
    "roll",
    "end_turn",
    "discard",  # one card on a 7
    "trade_bank",  # at the bank ratio (4:1)
    "trade_three_to_one",  # through a 3:1 ship (or a generic harbour of the lever)
    "trade_two_to_one",  # through a 2:1 ship's card (or a special harbour)
    "steal",  # a card taken by the Sea People's mover
    "donate",  # one card into the support row
    "ship",
    "move_sea_people",
    "no_steal",
    "take",
    "swap",
    "swap_back",
    "two_to_one_card",
    "offer",  # domestic trade (sim/games/catan/trade.py), as in the base game
    "accept",
    "decline",
    "trade_player",
    "cancel_offer",
)
_RENAMED = {
    "trade_generic_harbour": "trade_three_to_one",
    "trade_special_harbour": "trade_two_to_one",
    "move_robber": "move_sea_people",
}
# base kind index -> Troy kind index (-1: a development-card kind, which never occurs)
BASE_TO_TROY = np.array(
    [
        DECISION_KINDS.index(_RENAMED.get(k, k)) if _RENAMED.get(k, k) in DECISION_KINDS else -1
        for k in BASE_KINDS
    ],
    np.int64,
)
K_DONATE = DECISION_KINDS.index("donate")


@leaf
def decision_kind(state, data, action) -> int:
    """Index into DECISION_KINDS of ``action`` taken in ``state``."""
    if action < A_DONATE:
        return BASE_TO_TROY[base_decision_kind(state, data, action)]
    if action < A_SHIP:
        return K_DONATE
    if action < A_SEA:
        return K_DONATE + 1
    if action < A_TAKE:
        return K_DONATE + 2
    if action == A_TAKE:
        return K_DONATE + 4
    if action == A_SWAP:
        return K_DONATE + 5
    if action < A_CARD:
        return K_DONATE + 6 if action >= A_PUT else K_DONATE + 5
    if action < A_NO_STEAL:
        return K_DONATE + 7
    return K_DONATE + 3
