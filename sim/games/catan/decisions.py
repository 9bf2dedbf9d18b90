"""The kinds of decision a Catan seat takes, counted per game as ``act_<kind>`` columns.

The kind follows from the action id (state.py's action ranges), with the phase telling a setup
placement or a Road Building road from a bought one, and the seat's harbours telling a bank
trade from a harbour trade.
"""

from sim.core.kernel import leaf
from sim.games.catan.params import G_BANK_RATIO, G_GENERIC_RATIO
from sim.games.catan.rules import current_player
from sim.games.catan.rules_shared import trade_ratio
from sim.games.catan.state import (
    A_ACCEPT,
    A_BUY,
    A_CANCEL,
    A_CITY,
    A_DECLINE,
    A_DISCARD,
    A_END,
    A_KNIGHT,
    A_OFFER,
    A_PICK,
    A_ROAD,
    A_ROAD_BUILDING,
    A_ROBBER,
    A_ROLL,
    A_STEAL,
    A_TRADE,
    A_YOP,
    N_RES,
    PH_ROAD_BUILDING,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLE,
    PHASE,
)

DECISION_KINDS = (
    "setup_settlement",  # snake placement
    "setup_road",
    "settlement",  # built (main phase or Special Building Phase)
    "city",
    "road",  # paid for
    "free_road",  # Road Building
    "roll",
    "end_turn",
    "buy_development",
    "play_knight",
    "play_road_building",
    "play_year_of_plenty",
    "play_monopoly",
    "year_of_plenty_pick",
    "discard",  # one card on a 7
    "trade_bank",  # at the bank ratio (4:1)
    "trade_generic_harbour",  # 3:1
    "trade_special_harbour",  # 2:1
    "move_robber",
    "steal",
    "offer",  # a domestic offer (trade.py)
    "accept",  # answering an offer
    "decline",  # also when the seat lacks the cards asked for
    "trade_player",  # the proposer trades with an accepting seat
    "cancel_offer",  # the proposer trades with none of the accepting seats
)


@leaf
def decision_kind(state, data, action) -> int:
    """Index into DECISION_KINDS of ``action`` taken in ``state``."""
    if action < A_CITY:
        return 0 if state[PHASE] == PH_SETUP_SETTLE else 2
    if action < A_ROAD:
        return 3
    if action < A_ROLL:
        if state[PHASE] == PH_SETUP_ROAD:
            return 1
        return 5 if state[PHASE] == PH_ROAD_BUILDING else 4
    if action == A_ROLL:
        return 6
    if action == A_END:
        return 7
    if action == A_BUY:
        return 8
    if action == A_KNIGHT:
        return 9
    if action == A_ROAD_BUILDING:
        return 10
    if action == A_YOP:
        return 11
    if action < A_PICK:
        return 12
    if action < A_DISCARD:
        return 13
    if action < A_TRADE:
        return 14
    if action < A_ROBBER:
        give = (action - A_TRADE) // N_RES
        ratio = trade_ratio(state, data, current_player(state), give)
        if ratio >= data[G_BANK_RATIO]:
            return 15
        return 16 if ratio == data[G_GENERIC_RATIO] else 17
    if action < A_STEAL:
        return 18
    if action < A_OFFER:
        return 19
    if action < A_ACCEPT:
        return 20
    if action == A_ACCEPT:
        return 21
    if action == A_DECLINE:
        return 22
    return 24 if action == A_CANCEL else 23
