"""Rulebook scenarios B1-B10 of rules/catan-base.md §11, one test each, on hand-built states.

The standard board in axial coordinates (§9.2), hexes named by (q, r); a vertex [q, r, N] is
the top corner of hex (q, r), [q, r, S] its bottom corner::

            (0,-2) (1,-2) (2,-2)
        (-1,-1) (0,-1) (1,-1) (2,-1)
     (-2,0) (-1,0)  (0,0)  (1,0)  (2,0)
        (-2,1) (-1,1)  (0,1)  (1,1)
            (-2,2) (-1,2)  (0,2)

Terrain and numbers come from a dealt board; a test overwrites the hexes it needs.
"""

import numpy as np
import pytest

from sim.games.catan import rules
from sim.games.catan import state as S
from sim.games.catan.rules_longest import road_length
from tests.games.catan.helpers import (
    BRICK,
    DESERT,
    FIELDS,
    GRAIN,
    HILLS,
    LUMBER,
    MOUNTAINS,
    ORE,
    WOOL,
    apply,
    board,
    clear_number,
    data_for,
    dealt,
    hand,
    legal,
    make_state,
    roll,
    set_hex,
    vp,
)

B = board(4)


def V(q, r, side):
    return B.vertex_id(q, r, side)


def E(a, b):
    return B.edge_id(a, b)


def _path_edges(path):
    return [E(a, b) for a, b in zip(path, path[1:], strict=False)]


def _simple_paths(board, start, length, avoid=()):
    """Every simple vertex path of ``length`` edges from ``start`` (plain Python)."""
    out = []

    def walk(path):
        if len(path) == length + 1:
            out.append(list(path))
            return
        for w in board.vertex_vertices[path[-1]]:
            if w >= 0 and w not in path and w not in avoid:
                walk([*path, int(w)])

    walk([start])
    return out


# ---------------------------------------------------------------------------------------------


def test_B1_setup_order_is_a_snake_and_only_the_second_settlement_gives_cards():
    data = data_for(4)
    s = dealt(data, 4, 3)
    seats = []
    pick = np.random.default_rng(0)
    while s[S.PHASE] in (S.PH_SETUP_SETTLE, S.PH_SETUP_ROAD):
        acts = legal(s, data)
        if s[S.PHASE] == S.PH_SETUP_SETTLE:
            seats.append(int(s[S.SEAT]))
            before = hand(s, s[S.SEAT]).sum()
            first_round = s[S.SETUP_STEP] < 4
        act = acts[int(pick.integers(len(acts)))]
        p = int(s[S.SEAT])
        was_settle = s[S.PHASE] == S.PH_SETUP_SETTLE
        s = apply(s, act, data)
        if was_settle:
            got = hand(s, p).sum() - before
            if first_round:
                assert got == 0, "the first settlement gives nothing"
            else:
                v = act - S.A_SETTLE
                producing = sum(
                    1 for h in B.vertex_hexes[v] if h >= 0 and s[S.HEX_TERRAIN + h] != DESERT
                )
                assert got == producing, "one card per adjacent producing hex"
    assert seats == [0, 1, 2, 3, 3, 2, 1, 0]
    assert s[S.PHASE] == S.PH_PRE_ROLL and s[S.CUR] == 0 and s[S.SEAT] == 0
    assert s[S.ROUND] == 1 and s[S.TURNS] == 1
    assert (s[S.SETTLE_LEFT : S.SETTLE_LEFT + 4] == 3).all()
    assert (s[S.ROADS_LEFT : S.ROADS_LEFT + 4] == 13).all()
    for p in range(4):
        assert vp(s, data, p) == 2


def test_B2_second_settlement_on_fields_hills_desert_gives_grain_and_brick():
    data = data_for(4)
    s = dealt(data, 4, 1)
    v = V(0, 0, "N")  # touches (0,0), (0,-1), (1,-1)
    set_hex(s, B.hex_id(0, 0), FIELDS, 6)
    set_hex(s, B.hex_id(0, -1), HILLS, 4)
    set_hex(s, B.hex_id(1, -1), DESERT, 0)
    s[S.SETUP_STEP] = 4  # the second round starts with seat 3 (snake)
    s[S.SEAT] = 3
    s = apply(s, S.A_SETTLE + v, data)
    assert list(hand(s, 3)) == [0, 1, 0, 1, 0]  # 1 brick, 1 grain
    assert s[S.PHASE] == S.PH_SETUP_ROAD
    assert legal(s, data) == sorted(S.A_ROAD + e for e in B.vertex_edges[v] if e >= 0)


def _b3_state(robber):
    data = data_for(4)
    fields = B.hex_id(0, 0)
    s = make_state(
        data,
        settlements={0: [V(0, 0, "N")]},
        cities={0: [V(0, 0, "S")]},
        phase=S.PH_PRE_ROLL,
        robber=B.hex_id(2, -2) if robber is None else robber,
    )
    set_hex(s, fields, FIELDS, 6)
    clear_number(s, data, 6, keep=fields)
    return data, s, fields


def test_B3_production_settlement_and_city_on_fields_6():
    data, s, fields = _b3_state(None)
    before = hand(s, 0).copy()
    s = roll(s, data, 6)
    assert list(hand(s, 0) - before) == [0, 0, 0, 3, 0], "+1 settlement, +2 city"
    assert s[S.PHASE] == S.PH_MAIN
    data, s, fields = _b3_state(fields)  # the robber on the fields hex
    before = hand(s, 0).copy()
    s = roll(s, data, 6)
    assert list(hand(s, 0) - before) == [0, 0, 0, 0, 0]


def test_B4_seven_discards_half_above_seven_cards():
    data = data_for(4)
    s = make_state(
        data,
        phase=S.PH_PRE_ROLL,
        hands={
            0: {LUMBER: 3, BRICK: 4},  # 7: keeps all
            1: {WOOL: 8},  # 8: discards 4
            2: {GRAIN: 5, ORE: 4},  # 9: discards 4
        },
    )
    s = roll(s, data, 7)
    owed = [int(s[S.DISCARD_OWED + p]) for p in range(4)]
    assert owed == [0, 4, 4, 0]
    assert s[S.PHASE] == S.PH_DISCARD and s[S.SEAT] == 1
    for _ in range(4):
        assert legal(s, data) == [S.A_DISCARD + WOOL]
        s = apply(s, S.A_DISCARD + WOOL, data)
    assert s[S.SEAT] == 2 and legal(s, data) == [S.A_DISCARD + GRAIN, S.A_DISCARD + ORE]
    for _ in range(4):
        s = apply(s, S.A_DISCARD + GRAIN, data)
    assert s[S.PHASE] == S.PH_ROBBER and s[S.SEAT] == 0
    assert [int(s[S.HAND_N + p]) for p in range(4)] == [7, 4, 5, 0]
    assert S.A_ROBBER + s[S.ROBBER] not in legal(s, data), "the robber must move"
    assert len(legal(s, data)) == 18


def _b5(harbour):
    data = data_for(4)
    v = int(B.slot_vertices[0][0])
    harbours = {0: harbour} if harbour is not None else None
    settlements = {0: [v]} if harbour is not None else {0: [V(0, 0, "N")]}
    return data, make_state(
        data, settlements=settlements, harbours=harbours, hands={0: {WOOL: 4, GRAIN: 2}}
    )


def test_B5_maritime_trade_ratios():
    wool_for_ore = S.trade_action(WOOL, ORE)
    grain_for_ore = S.trade_action(GRAIN, ORE)
    data, s = _b5(None)  # no harbour: 4 wool -> 1 ore
    assert wool_for_ore in legal(s, data) and grain_for_ore not in legal(s, data)
    out = apply(s, wool_for_ore, data)
    assert list(hand(out, 0)) == [0, 0, 0, 2, 1]
    data, s = _b5(S.GENERIC)  # generic harbour: 3 wool -> 1 ore
    out = apply(s, wool_for_ore, data)
    assert list(hand(out, 0)) == [0, 0, 1, 2, 1]
    assert grain_for_ore not in legal(s, data)
    data, s = _b5(WOOL)  # wool harbour: 2 wool -> 1 ore; 2 grain -> 1 ore is illegal
    out = apply(s, wool_for_ore, data)
    assert list(hand(out, 0)) == [0, 0, 2, 2, 1]
    assert grain_for_ore not in legal(s, data)
    assert s[S.BANK + ORE] == 19 and out[S.BANK + WOOL] == 19 - 4 + 2


def test_B6_largest_army():
    data = data_for(4)
    s = make_state(data, knights={0: 2, 1: 2}, dev={0: {S.KNIGHT: 1}, 1: {S.KNIGHT: 2}})
    base = vp(s, data, 0)
    s = apply(s, S.A_KNIGHT, data)
    assert s[S.LA_HOLDER] == 0 and vp(s, data, 0) == base + 2, "A's 3rd Knight takes the card"
    s = apply(s, S.A_ROBBER + (1 if s[S.ROBBER] != 1 else 2), data)
    s[S.CUR] = s[S.SEAT] = 1
    s[S.DEV_PLAYED] = 0
    s[S.PHASE] = S.PH_MAIN
    s = apply(s, S.A_KNIGHT, data)
    assert s[S.KNIGHTS + 1] == 3 and s[S.LA_HOLDER] == 0, "B's 3rd Knight does not take it"
    s = apply(s, S.A_ROBBER + (1 if s[S.ROBBER] != 1 else 2), data)
    s[S.DEV_PLAYED] = 0
    s[S.PHASE] = S.PH_MAIN
    s = apply(s, S.A_KNIGHT, data)
    assert s[S.LA_HOLDER] == 1 and vp(s, data, 0) == base, "B's 4th Knight takes it"


def test_B7_longest_road_five_segments_take_the_card():
    data = data_for(4)
    path = _simple_paths(B, V(0, 0, "N"), 5)[0]
    edges = _path_edges(path)
    s = make_state(
        data,
        settlements={0: [path[0]]},
        roads={0: edges[:4]},
        hands={0: {LUMBER: 1, BRICK: 1}},
    )
    assert s[S.LR_HOLDER] == -1 and s[S.ROAD_LEN] == 4
    before = vp(s, data, 0)
    s = apply(s, S.A_ROAD + edges[4], data)
    assert s[S.ROAD_LEN] == 5 and s[S.LR_HOLDER] == 0 and vp(s, data, 0) == before + 2


def test_B7_three_branches_of_three_count_six():
    data = data_for(4)
    centre = V(0, 0, "N")
    assert (B.vertex_vertices[centre] >= 0).sum() == 3
    branches = []
    used = {centre}
    for w in B.vertex_vertices[centre]:
        for p in _simple_paths(B, int(w), 2, avoid=used):
            if not used & set(p):
                branches.append([centre, *p])
                used |= set(p)
                break
    assert len(branches) == 3
    roads = [e for br in branches for e in _path_edges(br)]
    assert len(roads) == 9
    s = make_state(data, roads={0: roads})
    assert road_length(s, data, 0) == 6


def test_B7_opponent_settlement_splits_a_straight_road():
    data = data_for(4)
    path = next(
        p for p in _simple_paths(B, V(0, -2, "N"), 6) if (B.vertex_vertices[p[3]] >= 0).sum() == 3
    )
    edges = _path_edges(path)
    mid = path[3]
    spur = next(
        int(e) for e in B.vertex_edges[mid] if e >= 0 and e not in edges
    )  # the middle vertex's third edge: the opponent's road reaches it
    s = make_state(
        data,
        settlements={0: [path[0]]},
        roads={0: edges, 1: [spur]},
        hands={1: {LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1}},
        cur=1,
    )
    s[S.LR_HOLDER] = 0
    assert s[S.ROAD_LEN] == 6
    before = vp(s, data, 0)
    s = apply(s, S.A_SETTLE + mid, data)
    assert s[S.ROAD_LEN] == 3 and road_length(s, data, 0) == 3
    assert s[S.LR_HOLDER] == -1 and vp(s, data, 0) == before - 2, "A3: nobody has 5"


def test_B8_card_bought_this_turn_cannot_be_played():
    data = data_for(4)
    s = make_state(data, dev_new={0: {S.KNIGHT: 1}}, hands={0: {WOOL: 1, GRAIN: 1, ORE: 1}})
    assert S.A_KNIGHT not in legal(s, data)
    # seat 0's next turn starts: the card is playable
    s3 = s.copy()
    s3[S.CUR] = s3[S.SEAT] = 3
    s3 = apply(s3, S.A_END, data)
    assert s3[S.CUR] == 0 and s3[S.PHASE] == S.PH_PRE_ROLL
    assert S.A_KNIGHT in legal(s3, data)


def test_B8_one_card_per_turn_monopoly_before_the_roll():
    data = data_for(4)
    s = make_state(
        data,
        phase=S.PH_PRE_ROLL,
        dev={0: {S.MONOPOLY: 1, S.KNIGHT: 1}},
        hands={1: {WOOL: 2}, 2: {WOOL: 1, ORE: 1}},
    )
    assert S.A_KNIGHT in legal(s, data) and S.A_MONO + WOOL in legal(s, data)
    s = apply(s, S.A_MONO + WOOL, data)
    assert hand(s, 0)[WOOL] == 3 and hand(s, 1)[WOOL] == 0 and hand(s, 2)[WOOL] == 0
    assert legal(s, data) == [S.A_ROLL], "no second card before the roll"
    s = roll(s, data, 8)
    assert S.A_KNIGHT not in legal(s, data), "no Knight after the roll either"


def test_B8_victory_point_card_bought_to_ten_wins_at_once():
    no_action = {
        "dev_knight": 0,
        "dev_road_building": 0,
        "dev_year_of_plenty": 0,
        "dev_monopoly": 0,
    }
    data = data_for(4, **no_action)
    vs = [V(0, -2, "N"), V(2, -2, "N"), V(-2, 0, "N"), V(0, 0, "S"), V(0, 2, "S")]
    s = make_state(
        data, cities={0: vs[:4]}, settlements={0: vs[4:]}, hands={0: {WOOL: 1, GRAIN: 1, ORE: 1}}
    )
    assert vp(s, data, 0) == 9 and s[S.DECK_N] == 5
    s = apply(s, S.A_BUY, data)
    assert s[S.DEV_NEW + S.VICTORY_POINT] == 1
    assert rules.is_over(s) and s[S.WINNER] == 0 and s[S.REASON] == S.R_VP_TARGET


def _b9(a_city):
    """Mountains 8 on (0,0); A (seat 0) on its N corner and its SE corner (a city if
    ``a_city``), B (seat 1) on its SW corner unless A has the city; the bank holds 2 ore."""
    data = data_for(4)
    h = B.hex_id(0, 0)
    n, se, sw = V(0, 0, "N"), V(0, 1, "N"), V(-1, 1, "N")
    s = make_state(
        data,
        phase=S.PH_PRE_ROLL,
        settlements={0: [n]} if a_city else {0: [n, se], 1: [sw]},
        cities={0: [se]} if a_city else None,
        hands={2: {ORE: 17}},
        robber=B.hex_id(2, -2),
    )
    set_hex(s, h, MOUNTAINS, 8)
    clear_number(s, data, 8, keep=h)
    assert s[S.BANK + ORE] == 2
    return data, s


def test_B9_bank_shortage():
    data, s = _b9(a_city=False)  # A owed 2, B owed 1, the bank has 2: nobody gets ore
    before = [int(hand(s, p)[ORE]) for p in range(4)]
    out = roll(s, data, 8)
    assert [int(hand(out, p)[ORE]) for p in range(4)] == before and out[S.BANK + ORE] == 2
    data, s = _b9(a_city=True)  # only A is owed (3): he takes the 2 left
    out = roll(s, data, 8)
    assert hand(out, 0)[ORE] == 2 and out[S.BANK + ORE] == 0


def test_B10_special_building_phase_six_players():
    data = data_for(6)
    b6 = board(6)
    everyone = {p: {LUMBER: 1, BRICK: 1, WOOL: 4, GRAIN: 1, ORE: 1} for p in range(6)}
    roads = {
        p: [int(b6.vertex_edges[b6.vertex_id(*v)][0])]
        for p, v in enumerate(
            [(0, -3, "N"), (2, -3, "N"), (2, 0, "N"), (0, 2, "S"), (-3, 3, "S"), (-3, 0, "N")]
        )
    }
    s = make_state(
        data,
        players=6,
        cur=2,
        hands=everyone,
        roads=roads,
        dev={p: {S.KNIGHT: 1} for p in range(6)},
    )
    s = apply(s, S.A_END, data)
    order = []
    while s[S.PHASE] == S.PH_SBP:
        p = int(s[S.SEAT])
        order.append(p)
        acts = legal(s, data)
        assert S.A_END in acts and S.A_BUY in acts
        assert not any(S.A_TRADE <= a < S.A_ROBBER for a in acts), "no trades"
        assert not any(S.A_KNIGHT <= a < S.A_PICK for a in acts), "no development cards"
        roads_offered = [a for a in acts if S.A_ROAD <= a < S.A_ROLL]
        assert roads_offered, "building is allowed"
        if p == 4:
            s = apply(s, roads_offered[0], data)
            assert s[S.SEAT] == 4 and s[S.PHASE] == S.PH_SBP
        s = apply(s, S.A_END, data)
    assert order == [3, 4, 5, 0, 1]
    assert s[S.PHASE] == S.PH_PRE_ROLL and s[S.CUR] == 3 and s[S.SEAT] == 3
    assert s[S.ROADS_LEFT + 4] == 13


def test_B10_a_player_reaching_ten_in_the_phase_wins_at_his_turn():
    data = data_for(6)
    b6 = board(6)
    vs = [b6.vertex_id(*v) for v in [(0, -3, "N"), (2, -3, "N"), (-3, 0, "N"), (0, 0, "S")]]
    s = make_state(
        data,
        players=6,
        cur=3,
        seat=4,
        phase=S.PH_SBP,
        cities={4: vs[:4]},
        settlements={4: [b6.vertex_id(-3, 3, "S")]},
        hands={4: {LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1}},
    )
    s[S.SBP_LEFT] = 5
    s[S.DECK + S.VICTORY_POINT] -= 1
    s[S.DECK_N] -= 1
    s[S.DEV_NEW + 4 * S.N_DEV + S.VICTORY_POINT] = 1  # 8 + 1 + 1 = 10 VP, in the phase
    s = apply(s, S.A_END, data)
    assert vp(s, data, 4) == 10 and not rules.is_over(s), "nobody wins in the phase"
    for _ in range(4):
        s = apply(s, S.A_END, data)
    assert s[S.CUR] == 4 and rules.is_over(s) and s[S.WINNER] == 4, "wins as his turn starts"


@pytest.mark.parametrize("players", [3, 4])
def test_no_special_building_phase_at_3_4_players(players):
    data = data_for(players)
    s = make_state(data, players=players, cur=1)
    s = apply(s, S.A_END, data)
    assert s[S.PHASE] == S.PH_PRE_ROLL and s[S.CUR] == 2


@pytest.mark.parametrize("players,start", [(3, 1), (5, 2), (6, 5)])
def test_B1_snake_from_another_first_player(players, start):
    """Lever ``start_seat``: the snake and the first turn start from that seat."""
    data = data_for(players, start_seat=start)
    s = dealt(data, players, 4)
    seats = []
    while s[S.PHASE] in (S.PH_SETUP_SETTLE, S.PH_SETUP_ROAD):
        if s[S.PHASE] == S.PH_SETUP_SETTLE:
            seats.append(int(s[S.SEAT]))
        s = apply(s, legal(s, data)[0], data)
    order = [(start + i) % players for i in range(players)]
    assert seats == order + order[::-1]
    assert s[S.CUR] == start and s[S.ROUND] == 1 and s[S.TURNS_TAKEN + start] == 1
