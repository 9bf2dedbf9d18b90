"""Catan greedy's maritime trades: toward a settlement it has a place for, and toward a road
when it has no place to settle (the road is how it gets one). Before, the settlement target
was never reached and no trade aimed at a road, so 3-player games where nobody produced
brick stalled at the safety cap."""

import numpy as np

from sim.core.check import check_games
from sim.core.registry import make_setup
from sim.games.catan import params as P
from sim.games.catan import state as S
from strategies.catan.greedy import GREEDY_PARAMS, greedy_action
from tests.games.catan.helpers import BRICK, GRAIN, LUMBER, WOOL, data_for, make_state, rng

NAMES = [p.name for p in GREEDY_PARAMS]


def _params(**values):
    out = np.array([p.default for p in GREEDY_PARAMS], np.float64)
    for name, value in values.items():
        out[NAMES.index(name)] = value
    return out


def _path(data):
    """A vertex off the harbours, the edge to a neighbour and the edge on from there: a
    settlement on the first and both roads leave one place to settle, the first road alone
    none."""
    slots = P.table(data, "vertex_slot")
    neighbours = P.table(data, "vertex_vertices")
    edges = P.table(data, "vertex_edges")
    for v0 in range(int(data[P.G_N_VERT])):
        if slots[v0] >= 0 or (neighbours[v0] < 0).any():
            continue
        v1 = int(neighbours[v0][0])
        e1 = next(int(e) for e in edges[v0] if e >= 0 and e in edges[v1])
        for e2 in edges[v1]:
            if e2 >= 0 and e2 != e1:
                return v0, e1, int(e2)
    raise AssertionError("no inland vertex")


def _decide(roads, hand, **values):
    data = data_for(4, domestic_trade=False)
    v0, e1, e2 = _path(data)
    s = make_state(data, settlements={0: [v0]}, roads={0: [e1, e2][:roads]}, hands={0: hand})
    s[S.DECK : S.DECK + S.N_DEV] = 0  # no development card to buy: the trade is for a piece
    s[S.DECK_N] = 0
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    return int(greedy_action(s, data, 0, _params(**values), rng(), buf))


LUMBER_FOR_BRICK = S.A_TRADE + LUMBER * S.N_RES + BRICK


def test_greedy_trades_toward_a_settlement_it_has_a_place_for():
    assert _decide(2, {LUMBER: 5, WOOL: 1, GRAIN: 1}) == LUMBER_FOR_BRICK


def test_greedy_trades_toward_a_road_when_it_has_no_place_to_settle():
    assert _decide(1, {LUMBER: 5, WOOL: 1, GRAIN: 1}) == LUMBER_FOR_BRICK
    assert _decide(1, {LUMBER: 5}) == LUMBER_FOR_BRICK


def test_greedy_weighs_the_road_trade_by_its_road_value():
    assert _decide(1, {LUMBER: 5}, road=0.0) == S.A_END


def test_greedy_with_a_place_to_settle_keeps_its_cards_for_the_settlement():
    assert _decide(2, {LUMBER: 5}) == S.A_END


def test_the_three_player_game_that_stalled_ends_by_a_rule():
    """Seeds 1642-1645 held a game stopped at the 500-round cap before (nobody produced
    brick and nobody traded for a road)."""
    params = {"domestic_trade": True, "trade_offers_per_turn": 1}
    report = check_games(make_setup("catan", 3, params, "greedy"), 4, 1642)
    assert report.violations == 0 and report.capped == 0
