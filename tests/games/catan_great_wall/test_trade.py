"""Domestic trade in the Great Wall (sim/games/catan/trade.py): rules/catan-great-wall.md §4.2
(the base trade and build phase: "trades"), and no trade in the Special Building Phase (base
B10) at 5-6 players."""

import numpy as np

from sim.core.registry import make_setup
from sim.games.catan import state as S
from sim.games.catan import trade as TR
from sim.games.catan_great_wall import state as G
from sim.games.catan_great_wall.decisions import DECISION_KINDS
from sim.games.catan_great_wall.play import play
from tests.games.catan_great_wall.helpers import (
    after_setup,
    apply,
    data_for,
    give,
    hand,
    legal,
    main_phase,
)

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)


def offers(acts):
    return [a for a in acts if S.A_OFFER <= a < S.A_ACCEPT]


def test_S4_2_trade_and_build_phase_domestic_trade_and_the_wall_only_on_ones_own_turn():
    data = data_for(4)
    s = main_phase(after_setup(data), cur=0)
    for p in range(4):
        give(s, p, {r: 3 for r in range(S.N_RES)})
    assert G.A_WALL in legal(s, data) and offers(legal(s, data))
    riders = s[G.BAG : G.HEX_EVER].copy()
    before = [hand(s, p) for p in range(4)]
    s = apply(s, int(TR.offer_action(1, WOOL, ORE)), data)  # 2 wool for 1 ore
    assert legal(s, data) == [S.A_ACCEPT, S.A_DECLINE], "no wall while answering"
    s = apply(s, S.A_ACCEPT, data)
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, S.A_ACCEPT, data)
    assert legal(s, data) == [S.A_TRADE_WITH + 1, S.A_TRADE_WITH + 3, S.A_CANCEL]
    s = apply(s, S.A_TRADE_WITH + 3, data)
    assert (hand(s, 0) - before[0]).tolist() == [0, 0, -2, 0, 1]
    assert (hand(s, 3) - before[3]).tolist() == [0, 0, 2, 0, -1]
    assert (s[G.BAG : G.HEX_EVER] == riders).all(), "a trade draws no rider"
    assert s[S.PHASE] == S.PH_MAIN and G.A_WALL in legal(s, data)


def test_B10_six_players_no_trade_in_the_special_building_phase():
    data = data_for(6)
    s = main_phase(after_setup(data, players=6), cur=2)
    for p in range(6):
        give(s, p, {r: 2 for r in range(S.N_RES)})
    assert offers(legal(s, data))
    s = apply(s, S.A_END, data)
    seen = 0
    while s[S.PHASE] == S.PH_SBP:
        acts = legal(s, data)
        assert not offers(acts) and not any(S.A_ACCEPT <= a < G.A_FORTRESS for a in acts)
        s = apply(s, S.A_END, data)
        seen += 1
    assert seen == 5


def test_greedy_trades_in_the_great_wall_and_not_with_the_lever_off():
    def acts(domestic):
        setup = make_setup("catan_great_wall", 4, {"domestic_trade": domestic}, "greedy")
        return play(setup, np.arange(20, dtype=np.uint64)).actions.sum(axis=(0, 1))

    on, off = acts(True), acts(False)
    for kind in ("offer", "accept", "trade_player"):
        j = DECISION_KINDS.index(kind)
        assert on[j] > 0 and off[j] == 0, kind
