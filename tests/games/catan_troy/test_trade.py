"""Domestic trade in Troy (sim/games/catan/trade.py): rules/catan-troy.md §4.2 "Base trading
and building ... apply", «Divers» (commerce tokens are never traded) and A14 (no trade in the
6-player Special Building Phase)."""

import numpy as np

from sim.core.registry import make_setup
from sim.games.catan import state as S
from sim.games.catan import trade as TR
from sim.games.catan_troy import state as T
from sim.games.catan_troy.decisions import DECISION_KINDS
from sim.games.catan_troy.play import play
from tests.games.catan_troy.helpers import (
    GRAIN,
    ORE,
    WOOL,
    apply,
    data_for,
    hand,
    legal,
    make_state,
)


def offers(acts):
    return [a for a in acts if S.A_OFFER <= a < S.A_ACCEPT]


def test_S4_2_base_trading_applies_and_commerce_tokens_are_never_traded():
    data = data_for(4)
    s = make_state(data, cur=0, hands={0: {WOOL: 1}, 1: {ORE: 1}}, tokens={0: 3, 1: 2})
    listed = offers(legal(s, data))
    assert listed and all(TR.offer_give(a) == WOOL for a in listed), "only resource cards"
    s = apply(s, int(TR.offer_action(0, WOOL, ORE)), data)
    s = apply(s, S.A_ACCEPT, data)  # seat 1
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, S.A_TRADE_WITH + 1, data)
    assert list(hand(s, 0)) == [0, 0, 0, 0, 1] and list(hand(s, 1)) == [0, 0, 1, 0, 0]
    assert s[T.TOKENS + 0] == 3 and s[T.TOKENS + 1] == 2, "tokens stay where they are"


def test_A1_an_offer_closes_an_open_donation():
    data = data_for(4)
    s = make_state(data, cur=0, hands={0: {WOOL: 2, GRAIN: 1}, 1: {ORE: 1}})
    s = apply(s, T.A_DONATE + GRAIN, data)
    assert s[T.DONATING] == 1
    s = apply(s, int(TR.offer_action(0, WOOL, ORE)), data)
    assert s[T.DONATING] == 0


def test_A14_six_player_special_building_phase_allows_no_trade():
    data = data_for(6)
    everyone = {p: {WOOL: 2, ORE: 2, GRAIN: 2} for p in range(6)}
    s = make_state(data, players=6, cur=2, hands=everyone)
    assert offers(legal(s, data))
    s = apply(s, S.A_END, data)
    seen = 0
    while s[S.PHASE] == S.PH_SBP:
        acts = legal(s, data)
        assert not offers(acts) and not any(S.A_ACCEPT <= a < T.A_DONATE for a in acts)
        s = apply(s, S.A_END, data)
        seen += 1
    assert seen == 5


def test_greedy_trades_in_troy_and_not_with_the_lever_off():
    def acts(domestic):
        setup = make_setup("catan_troy", 4, {"domestic_trade": domestic}, "greedy")
        return play(setup, np.arange(20, dtype=np.uint64)).actions.sum(axis=(0, 1))

    on, off = acts(True), acts(False)
    for kind in ("offer", "accept", "trade_player"):
        j = DECISION_KINDS.index(kind)
        assert on[j] > 0 and off[j] == 0, kind
