"""The numbered test scenarios of rules/catan-troy.md §11 (R1-R20), one test each, on the
provisional Troy board of §9 (coordinates as in catan-base.md §9.1).

Every step goes through ``helpers.apply``: the action must be legal, ``step`` must leave its
input untouched, and every invariant of ``menhir check`` must hold afterwards.

The 4-player board (columns 0-3 of the land rectangle) and the sea around it::

      (0,-1)(1,-1)(2,-1)(3,-1)(4,-1)          sea
    (-1,0) [0,0][1,0][2,0][3,0]
     (-1,1) [0,1][1,1][2,1][3,1]
    (-2,2)[-1,2][0,2][1,2][2,2]              the Sea People starts on (-2,2)
     (-2,3)[Myc][0,3][1,3][Troy]
    (-3,4)[-2,4][-1,4][0,4][1,4]
     (-3,5)(-2,5)(-1,5)(0,5)(1,5)
"""

import numpy as np
import pytest

from sim.games.catan import state as S
from sim.games.catan.params import G_BANK
from sim.games.catan.rules_shared import trade_ratio
from sim.games.catan_troy import rules
from sim.games.catan_troy import state as T
from tests.games.catan_troy.helpers import (
    BRICK,
    GRAIN,
    LUMBER,
    ORE,
    WOOL,
    apply,
    board,
    check,
    data_for,
    edge,
    hand,
    legal,
    make_state,
    rng,
    row,
    sea,
    spread,
    vertex,
    vp,
)

TROY, MYCENAE = T.TROY, T.MYCENAE


def end_turn_with(s, data, counted):
    """Step A_END with the first chance seed whose battle counts exactly ``counted``
    ({res: n}); returns the state after it."""
    want = np.zeros(S.N_RES, np.int64)
    for r, n in counted.items():
        want[r] = n
    for seed in range(1, 5000):
        out = np.zeros_like(s)
        rules.step(s, np.int32(S.A_END), data, rng(seed), out)
        got = out[S.BANK : S.BANK + S.N_RES].astype(np.int64) - s[S.BANK : S.BANK + S.N_RES]
        if (got == want).all():
            return apply(s, S.A_END, data, seed)
    raise AssertionError(f"no seed counts {counted}")


def test_R1_decision_cards_are_dealt_two_and_two_or_three_and_three():
    for players, each in ((4, 2), (6, 3)):
        data = data_for(players)
        seen = set()
        for seed in range(40):
            s = make_state(data, players, seed=seed)
            sides = s[T.SIDE : T.SIDE + players]
            assert (sides == TROY).sum() == each and (sides == MYCENAE).sum() == each
            seen.add(tuple(sides))
        assert len(seen) > 5  # shuffled, not a fixed deal


def test_R2_support_row_at_the_start():
    data = data_for(4)
    s = make_state(data)
    assert list(row(s)) == [1, 0, 1, 1, 1] and s[T.ROW_N] == 4  # lumber, wool, grain, ore
    align = data[rules.T_ALIGN : rules.T_ALIGN + S.N_RES]
    assert (row(s) * (align > 0)).sum() == 2 and (row(s) * (align < 0)).sum() == 2
    bank = s[S.BANK : S.BANK + S.N_RES]
    assert list(bank) == [data[G_BANK] - 1, data[G_BANK], data[G_BANK] - 1] + [data[G_BANK] - 1] * 2


def test_R3_a_donation_earns_one_token_whatever_its_size_once_a_turn():
    data = data_for(4)
    s = make_state(data, sides={0: TROY}, hands={0: {ORE: 5, WOOL: 1}})
    s1 = apply(s, T.A_DONATE + ORE, data)
    s2 = apply(s1, T.A_DONATE + ORE, data)
    assert s2[T.ROW_N] == s[T.ROW_N] + 2 and s2[T.ROW + ORE] == s[T.ROW + ORE] + 2
    assert s2[T.TOKENS] == s[T.TOKENS] + 1 and hand(s2, 0)[ORE] == 3
    s3 = apply(s2, T.A_DONATE + ORE, data)  # a third card: still one token
    assert s3[T.TOKENS] == s[T.TOKENS] + 1 and s3[T.ROW_N] == s[T.ROW_N] + 3
    assert T.A_DONATE + WOOL not in legal(s3, data)  # 3 cards at most
    # a second donation in the same turn is illegal, once another action closed the first
    closed = apply(s1, S.trade_action(ORE, GRAIN), data)
    assert all(not T.A_DONATE <= a < T.A_SHIP for a in legal(closed, data))
    # no donation, no token: the next turn starts with the token count unchanged
    after = apply(s, S.A_END, data)
    assert after[T.TOKENS] == s[T.TOKENS]


def test_R3_the_next_turn_opens_a_new_donation():
    data = data_for(4)
    s = make_state(data, hands={0: {ORE: 2}, 1: {WOOL: 2}})
    s = apply(apply(s, T.A_DONATE + ORE, data), S.A_END, data)
    assert s[S.CUR] == 1 and s[T.DONATIONS] == 0 and s[T.DONATING] == 0
    s = end_main(s, data)
    assert T.A_DONATE + WOOL in legal(s, data)


def end_main(s, data):
    """Roll a non-7 so that the current player is in his trade and build phase."""
    for seed in range(1, 200):
        out = np.zeros_like(s)
        rules.step(s, np.int32(S.A_ROLL), data, rng(seed), out)
        if out[S.DICE] != 7:
            return apply(s, S.A_ROLL, data, seed)
    raise AssertionError


@pytest.mark.parametrize("players,size", [(4, 9), (6, 12)])
def test_R4_no_battle_below_the_threshold(players, size):
    data = data_for(players)
    s = make_state(data, players, row={BRICK: size})
    out = apply(s, S.A_END, data)
    assert out[T.BATTLES] == 0 and out[T.ROW_N] == size
    assert (out[T.TRACK : T.TRACK + 2] == 0).all()


def test_R5_battle_count_troy_wins():
    data = data_for(4)
    sides = {0: TROY, 1: MYCENAE, 2: TROY, 3: MYCENAE}
    s = make_state(data, sides=sides, row={ORE: 3, WOOL: 2, LUMBER: 2, GRAIN: 1, BRICK: 2})
    before = [vp(s, data, p) for p in range(4)]
    out = end_turn_with(s, data, {ORE: 2, WOOL: 2, LUMBER: 1, GRAIN: 1, BRICK: 1})
    assert out[T.ROW_N] == 3 and out[T.BATTLES] == 1  # 3 cards stay as the new row
    assert out[T.TRACK + TROY] == 1 and out[T.TRACK + MYCENAE] == 0  # Troy 4 : Mycenae 2
    assert [vp(out, data, p) - before[p] for p in range(4)] == [1, 0, 1, 0]


def test_R6_battle_tie_moves_no_marker():
    data = data_for(4)
    s = make_state(data, row={ORE: 2, WOOL: 3, LUMBER: 2, GRAIN: 2, BRICK: 1})
    out = end_turn_with(s, data, {ORE: 1, WOOL: 2, LUMBER: 2, GRAIN: 1, BRICK: 1})
    assert out[T.BATTLES] == 1 and out[T.ROW_N] == 3
    assert (out[T.TRACK : T.TRACK + 2] == 0).all()


def test_R7_six_player_battle():
    data = data_for(6)
    s = make_state(data, 6, row={ORE: 4, WOOL: 2, LUMBER: 3, GRAIN: 2, BRICK: 2})
    out = end_turn_with(s, data, {ORE: 3, WOOL: 1, LUMBER: 2, GRAIN: 2, BRICK: 1})
    assert out[T.ROW_N] == 4 and out[T.BATTLES] == 1  # 13 - 9
    assert (out[T.TRACK : T.TRACK + 2] == 0).all()  # Troy 4 : Mycenae 4
    assert out[S.PHASE] == S.PH_SBP  # the battle comes before the Special Building Phase


def test_R8_oversized_row_keeps_five():
    data = data_for(4)
    s = make_state(data, row={ORE: 3, WOOL: 3, LUMBER: 3, GRAIN: 3})
    out = apply(s, S.A_END, data)
    assert out[T.ROW_N] == 5 and out[T.BATTLES] == 1
    counted = out[S.BANK : S.BANK + S.N_RES].astype(int) - s[S.BANK : S.BANK + S.N_RES]
    assert counted.sum() == 7


def r9_state(data, **extra):
    p_settlement = vertex(4, 0, 0, "N")
    s = make_state(
        data, sides={0: TROY}, hands={0: {WOOL: 1, LUMBER: 1, ORE: 3}},
        settlements={0: [p_settlement]}, tokens={0: 2}, **extra,
    )  # fmt: skip
    return s, p_settlement


def test_R9_ship_build():
    data = data_for(4)
    s, v = r9_state(data)
    assert board(4).vertex_slot[v] == -1  # no harbour there (none by default)
    assert trade_ratio(s, data, 0, ORE) == 4
    w = sea(4, 0, -1)
    out = apply(s, T.A_SHIP + w, data)
    assert out[T.SEA_OWNER + w] == 0 and out[T.SEA_KIND + w] == T.KIND_THREE
    assert hand(out, 0)[WOOL] == 0 and hand(out, 0)[LUMBER] == 0 and out[T.TOKENS] == 0
    assert out[S.PHASE] == S.PH_ROBBER and out[S.SEAT] == 0  # the Sea People must move
    assert trade_ratio(out, data, 0, ORE) == 3  # 3:1 anywhere, at once
    moved = apply(out, T.A_SEA + sea(4, 3, -1), data)
    assert moved[S.PHASE] == S.PH_MAIN and moved[T.SEA_PEOPLE] == sea(4, 3, -1)
    assert S.trade_action(ORE, BRICK) in legal(moved, data)


def test_R10_ship_placement():
    data = data_for(4)
    s, _ = r9_state(data, ships={0: [sea(4, 0, -1)]})
    s[S.HAND + WOOL] += 1
    s[S.HAND + LUMBER] += 1
    s[S.HAND_N] += 2
    s[S.BANK + WOOL] -= 1
    s[S.BANK + LUMBER] -= 1
    s[T.TOKENS] += 2
    s[T.GIFTS] += 2
    s[T.DONATED] += 2
    s[T.ROW + BRICK] += 2
    s[T.ROW_N] += 2
    s[S.BANK + BRICK] -= 2
    check(s, data)
    acts = legal(s, data)
    assert T.A_SHIP + sea(4, -1, 0) in acts  # next to his ship
    assert T.A_SHIP + sea(4, 1, -1) in acts  # next to his ship, his settlement on a corner
    assert T.A_SHIP + sea(4, 2, -1) not in acts  # neither
    assert T.A_SHIP + sea(4, 0, -1) not in acts  # a ship already there
    s[T.SEA_PEOPLE] = sea(4, 1, -1)
    rules.refresh_ports(s, data)
    assert T.A_SHIP + sea(4, 1, -1) in legal(s, data)  # the Sea People's hex is allowed
    out = apply(s, T.A_SHIP + sea(4, 1, -1), data)
    assert out[S.PHASE] == S.PH_ROBBER  # ... and it moves right after
    assert T.A_SEA + sea(4, 1, -1) not in legal(out, data)  # to another sea hex


def test_R11_sea_people_steal():
    data = data_for(4)
    q_settlement = vertex(4, 2, 0, "N")  # a corner of sea (2,-1)
    s = make_state(
        data, phase=S.PH_ROBBER, hands={1: {ORE: 1}, 0: {WOOL: 1}},
        settlements={0: [vertex(4, 0, 0, "N")], 1: [q_settlement]}, tokens={1: 3},
    )  # fmt: skip
    s[S.RET_PHASE] = S.PH_MAIN
    out = apply(s, T.A_SEA + sea(4, 2, -1), data)
    assert out[S.PHASE] == S.PH_STEAL
    assert legal(out, data) == [S.A_STEAL + 1, T.A_NO_STEAL]  # optional (A10)
    stolen = apply(out, S.A_STEAL + 1, data)
    assert hand(stolen, 1).sum() == 0 and hand(stolen, 0)[ORE] == 1
    assert stolen[T.TOKENS + 1] == 3  # commerce tokens are untouchable
    assert stolen[S.PHASE] == S.PH_MAIN
    # only P's own pieces: nobody can be robbed, the phase returns at once
    own = apply(s, T.A_SEA + sea(4, 0, -1), data)
    assert own[S.PHASE] == S.PH_MAIN


def test_R12_suppression_and_the_flag_stays():
    data = data_for(4)
    ships = [sea(4, 0, -1), sea(4, 1, -1), sea(4, -1, 0)]  # 3:1, take, flag
    s, _ = r9_state(data, ships={0: ships})
    assert trade_ratio(s, data, 0, ORE) == 3 and vp(s, data, 0) == 1 + 1
    s[T.SEA_PEOPLE] = ships[0]
    rules.refresh_ports(s, data)
    check(s, data)
    assert trade_ratio(s, data, 0, ORE) == 4  # the 3:1 ship is suppressed
    s[T.SEA_PEOPLE] = ships[2]
    rules.refresh_ports(s, data)
    assert trade_ratio(s, data, 0, ORE) == 3 and vp(s, data, 0) == 2  # the flag still counts
    cancelled = data_for(4, sea_people_cancels_flag_vp=True)
    assert vp(s, cancelled, 0) == 1  # the lever


def test_R13_flag_and_two_to_one():
    data = data_for(4)
    three = [sea(4, 0, -1), sea(4, 1, -1), sea(4, -1, 0)]
    s, _ = r9_state(data, ships={0: three[:2]})
    s = give_ship_means(s)
    before = vp(s, data, 0)
    s = apply(apply(s, T.A_SHIP + three[2], data), T.A_SEA + sea(4, 3, -1), data)
    assert s[T.SEA_KIND + three[2]] == T.KIND_FLAG and vp(s, data, 0) == before + 1
    s = give_ship_means(s)
    fourth = sea(4, -1, 1)
    s = apply(s, T.A_SHIP + fourth, data)
    assert s[S.PHASE] == T.PH_TWO_TO_ONE and s[T.SEA_KIND + fourth] == T.KIND_TWO
    s = apply(s, T.A_CARD + ORE, data)
    assert s[T.TRADE_CARDS + ORE] == 1 and s[T.TRADE_CARDS : T.TRADE_CARDS + 5].sum() == 9
    s = apply(s, T.A_SEA + sea(4, 4, -1), data)
    assert trade_ratio(s, data, 0, ORE) == 2 and trade_ratio(s, data, 0, WOOL) == 3
    # both ore cards taken by others: ore is no longer offered
    taken = s.copy()
    taken[T.TRADE_CARDS + ORE] = 0
    taken[S.PHASE] = T.PH_TWO_TO_ONE
    assert T.A_CARD + ORE not in legal(taken, data) and T.A_CARD + WOOL in legal(taken, data)
    # one 2:1 ship per stack, the 7th is a swap: at most 6 of the 10 cards at 6 players
    stack = list(data[rules.T_STACK : rules.T_STACK + 7])
    assert stack.count(T.KIND_TWO) == 1 and stack[6] == T.KIND_SWAP
    assert 6 * stack.count(T.KIND_TWO) <= data[rules.T_TRADE_CARDS : rules.T_TRADE_CARDS + 5].sum()


def give_ship_means(s):
    """One more ship's price into seat 0's hand and tokens (from the bank and two donations)."""
    s = s.copy()
    for r in (WOOL, LUMBER):
        s[S.HAND + r] += 1
        s[S.BANK + r] -= 1
    s[S.HAND_N] += 2
    s[T.TOKENS] += 2
    s[T.GIFTS] += 2
    s[T.DONATED] += 2
    s[T.ROW + BRICK] += 2
    s[T.ROW_N] += 2
    s[S.BANK + BRICK] -= 2
    return s


def test_R14_take_and_swap():
    data = data_for(4)
    ships = [sea(4, 0, -1), sea(4, 1, -1), sea(4, -1, 0), sea(4, -1, 1), sea(4, -2, 2)]
    s, _ = r9_state(data, ships={0: ships}, sea_people=sea(4, 3, -1))
    s[T.SEA_CARD + ships[3]] = ORE
    s[T.TRADE_CARDS + ORE] -= 1
    rules.refresh_ports(s, data)
    check(s, data)
    assert T.A_TAKE in legal(s, data) and T.A_SWAP in legal(s, data)
    took = apply(s, T.A_TAKE, data)
    assert took[T.ROW_N] == s[T.ROW_N] - 1 and took[S.HAND_N] == s[S.HAND_N] + 1
    assert T.A_TAKE not in legal(took, data)  # once per turn per ship
    swapped = apply(took, T.A_SWAP, data)
    assert swapped[S.PHASE] == T.PH_SWAP_BACK and swapped[T.ROW_N] == took[T.ROW_N] - 1
    back = apply(swapped, T.A_PUT + ORE, data)
    assert back[T.ROW_N] == took[T.ROW_N] and back[S.HAND_N] == took[S.HAND_N]
    assert back[S.PHASE] == S.PH_MAIN and T.A_SWAP not in legal(back, data)
    # under the Sea People the take ship does nothing
    s[T.SEA_PEOPLE] = ships[1]
    rules.refresh_ports(s, data)
    assert T.A_TAKE not in legal(s, data)


def test_R15_end_by_the_event_track_and_the_commerce_tiebreak():
    data = data_for(4)
    sides = {0: TROY, 1: MYCENAE, 2: TROY, 3: MYCENAE}
    spots = spread(4, 4)
    s = make_state(
        data, sides=sides, track=(4, 0), tokens={0: 1, 2: 3},
        settlements={0: [spots[0]], 2: [spots[1]], 1: [spots[2]], 3: [spots[3]]},
        row={ORE: 7, WOOL: 3},
    )  # fmt: skip
    out = apply(s, S.A_END, data)
    assert out[S.OVER] and out[S.REASON] == T.R_EVENT_TRACK and out[T.TRACK + TROY] == 5
    assert rules.track_vp(out, data, 0) == 6 and rules.track_vp(out, data, 1) == 0
    assert vp(out, data, 0) == vp(out, data, 2) == 7
    assert out[S.WINNER] == 2  # tied on VP: more commerce tokens
    shared = data_for(4, tie_break="shared")
    assert apply(s, S.A_END, shared)[S.WINNER] == -1  # a shared victory (A18)


def test_R16_end_by_fifteen_vp():
    data = data_for(4)
    b = board(4)
    # home, and a road home - mid - far to a free place two edges away
    home = vertex(4, 0, 1, "N")
    mid = next(int(m) for m in b.vertex_vertices[home] if m >= 0)
    far = next(int(v) for v in b.vertex_vertices[mid] if v >= 0 and v != home)
    spots = spread(4, 5, avoid=[home, mid, far])
    s = make_state(
        data, sides={0: TROY}, track=(4, 0), cities={0: spots[:4]},
        settlements={0: [home, spots[4]]}, roads={0: [edge(4, home, mid), edge(4, mid, far)]},
        hands={0: {LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1}},
    )  # fmt: skip
    assert vp(s, data, 0) == 14  # 2 settlements, 4 cities, the Troy marker on 4
    out = apply(s, S.A_SETTLE + far, data)
    assert out[S.OVER] and out[S.REASON] == T.R_VP_TARGET and out[S.WINNER] == 0
    assert vp(out, data, 0) == 15


def test_R17_ships_never_extend_the_longest_road():
    data = data_for(4)
    b = board(4)
    v0 = vertex(4, 0, 0, "N")
    path = [v0]
    while len(path) < 5:
        nxt = [int(w) for w in b.vertex_vertices[path[-1]] if w >= 0 and w not in path]
        path.append(nxt[0])
    roads = [edge(4, path[i], path[i + 1]) for i in range(4)]
    s, _ = r9_state(data, ships={0: [sea(4, 0, -1), sea(4, -1, 0), sea(4, -1, 1)]})
    s[S.E_OWNER + np.array(roads)] = 0
    s[S.ROADS_LEFT] -= 4
    s[S.ROAD_LEN] = 4
    check(s, data)
    assert s[S.ROAD_LEN] == 4 and s[S.LR_HOLDER] == -1  # 4 < 5, and ships never count


def test_R18_no_development_cards():
    data = data_for(4)
    s = make_state(data, hands={0: {WOOL: 3, GRAIN: 3, ORE: 3}})
    assert S.A_BUY not in legal(s, data) and s[S.DECK_N] == 0
    assert s[S.LA_HOLDER] == -1 and all(a < S.A_KNIGHT or a > S.A_MONO + 4 for a in legal(s, data))


def r19_state(data):
    """P (seat 0) and R (seat 2) support Troy with 14 VP each; the Troy marker on 2."""
    spots = spread(4, 16)
    sides = {0: TROY, 1: MYCENAE, 2: TROY, 3: MYCENAE}
    return make_state(
        data, sides=sides, track=(2, 0), cities={0: spots[0:4], 2: spots[4:8]},
        settlements={0: spots[8:12], 2: spots[12:16]},
        row={ORE: 5, WOOL: 5},
    )  # fmt: skip


def test_R19_a_battle_win_counts_at_the_start_of_the_players_turn():
    data = data_for(4)
    s = r19_state(data)
    assert vp(s, data, 0) == vp(s, data, 2) == 14  # 4 cities, 4 settlements, marker on 2
    out = apply(s, S.A_END, data)  # all 7 counted cards score for Troy
    assert out[T.TRACK + TROY] == 3 and vp(out, data, 0) == vp(out, data, 2) == 15
    assert not out[S.OVER] and out[S.CUR] == 1  # nobody wins at once: Q plays
    q = end_main(out, data)
    q_end = apply(q, S.A_END, data)
    assert q_end[S.OVER] and q_end[S.WINNER] == 2 and q_end[S.REASON] == T.R_VP_TARGET
    # the lever: the active player wins at once
    active = data_for(4, battle_win_timing="active_turn")
    now = apply(s, S.A_END, active)
    assert now[S.OVER] and now[S.WINNER] == 0


def test_R20_commerce_tokens_are_not_cards():
    data = data_for(4)
    s = make_state(
        data, phase=S.PH_PRE_ROLL, hands={0: {ORE: 4, WOOL: 3}}, tokens={0: 4, 1: 3},
        settlements={1: [vertex(4, 2, 0, "N")]},
    )  # fmt: skip
    for seed in range(1, 500):
        out = np.zeros_like(s)
        rules.step(s, np.int32(S.A_ROLL), data, rng(seed), out)
        if out[S.DICE] == 7:
            break
    out = apply(s, S.A_ROLL, data, seed)
    assert out[S.PHASE] == S.PH_ROBBER and out[S.DISCARD_OWED] == 0  # 7 cards, not 11
    assert out[S.HAND_N] == 7 and out[T.TOKENS] == 4
    stolen_from = apply(out, T.A_SEA + sea(4, 2, -1), data)
    assert stolen_from[S.PHASE] == S.PH_MAIN  # Q holds 0 cards and 3 tokens: nothing to take


def test_R19_no_win_while_another_player_builds_in_the_special_building_phase():
    # 6 players: P (seat 0) reaches 15 by a battle; Q's ship in the Special Building Phase makes
    # Q move the Sea People, which is not P's turn: P wins only when his own turn starts
    data = data_for(6)
    q_home = vertex(6, 0, 0, "N")  # a corner of sea (0,-1)
    spots = spread(6, 8, avoid=[q_home])
    s = make_state(
        data, 6, phase=S.PH_SBP, cur=0, seat=1, sides={p: p % 2 for p in range(6)}, track=(3, 0),
        cities={0: spots[:4]}, settlements={0: spots[4:8], 1: [q_home]},
        hands={1: {WOOL: 1, LUMBER: 1}}, tokens={1: 2},
    )  # fmt: skip
    s[S.SBP_LEFT] = 5
    assert vp(s, data, 0) == 15
    out = apply(s, T.A_SHIP + sea(6, 0, -1), data)
    assert out[S.PHASE] == S.PH_ROBBER and out[S.RET_PHASE] == S.PH_SBP
    assert not rules.own_turn_phase(out)
    moved = apply(out, T.A_SEA + sea(6, 3, -1), data)
    assert not moved[S.OVER] and moved[S.PHASE] == S.PH_SBP and moved[S.SEAT] == 1
