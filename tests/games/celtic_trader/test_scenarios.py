"""The numbered scenarios T1-T24 of rules/celtic-trader.md §11, one test each.

Map excerpt (PROVISIONAL map of §9) used by the movement scenarios; "=" is a bridge (two road
networks on one tile that do not connect), numbers are MP::

          T02 --1-- BEL.W
                     |0
    SC --1-- T01a --1-- T07a --1-- BEL.SE --0-- BEL --0-- BEL.SW
              =                                          |1
             T01b -----------------1---------------------+
              |1
     T14 -1- T13 --1-- T07b --1-- CAN.NW        (T07a = T07b: bridge)
"""

import numpy as np
import polars as pl
import pytest

from sim.core.batch import play_batch
from sim.core.registry import make_setup
from sim.core.results import rank_and_win
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.board import role_bonus
from sim.games.celtic_trader.params import (
    MAX_SEC,
    O_DIST,
    O_ROLE_START,
    O_SEC_ROMAN,
    O_UPG_COST,
    ROLE_IDS,
)
from sim.games.celtic_trader.play import write_results
from sim.games.celtic_trader.rules import _apply, init_state
from tests.games.celtic_trader.helpers import (
    BAS,
    RES,
    ROLE,
    SEC,
    act,
    carried,
    carry,
    deliver,
    demand,
    legal,
    moving,
    pb,
    pick,
    rng,
    set_bag,
    set_demand,
    spot,
    spots_of,
    start_turn,
    table,
    to,
)


def test_T01_movement_example_player_a():
    data, s0 = table()
    assert data[O_DIST + SEC["T01a"] * MAX_SEC + SEC["T07b"]] == 5
    path = ["T07a", "BEL.SE", "BEL", "BEL.SW", "T01b", "T13", "T07b"]
    s = moving(s0, data, 0, "T01a", move=3)  # Movement 5
    assert to("T01b") not in legal(s, data)  # bridge on tile A
    for sec in path:
        if sec == "T07a":
            assert to("T07b") not in legal(act(s, data, to("T07a")), data)  # bridge on T07
        s = act(s, data, to(sec))
    assert s[pb(0) + S.P_POS] == SEC["T07b"] and s[S.MP] == 0
    assert pick("T07b", "grape") in legal(s, data)
    s = moving(s0, data, 0, "T01a", move=2)  # Movement 4: T07b is out of reach
    for sec in path[:-1]:
        s = act(s, data, to(sec))
    assert s[S.MP] == 0 and to("T07b") not in legal(s, data)


def _player_b(data, s0):
    return moving(s0, data, 1, "T13", move=1, carry=2)  # Movement 3, Carrying 2/1


def test_T02_player_b_option_1():
    data, s0 = table()
    s = act(_player_b(data, s0), data, pick("T13", "wheat"))
    assert s[S.MOVE_ENDED] == 0  # pick-up 1 <= Y = 1
    s = act(s, data, to("T14"))
    s = act(s, data, pick("T14", "ore"))
    assert s[S.MOVE_ENDED] == 1 and s[S.MP] == 2
    assert carried(s, 1) == {"wheat": 1, "ore": 1}
    assert to("T13") not in legal(s, data)  # a further step is illegal
    after = act(s, data, S.A_PASS)
    assert after[S.CUR] == 0 and after[S.TURNS] == s[S.TURNS] + 1  # 2 MP lost with the turn


def test_T03_player_b_option_2():
    data, s0 = table()
    s = act(_player_b(data, s0), data, to("T07b"))
    s = act(s, data, pick("T07b", "grape"))
    assert s[S.MOVE_ENDED] == 0
    s = act(s, data, to("T13"))
    s = act(s, data, to("T14"))
    s = act(s, data, pick("T14", "ore"))
    assert s[S.MOVE_ENDED] == 1 and s[S.MP] == 0
    assert carried(s, 1) == {"grape": 1, "ore": 1}
    # a third pick-up is illegal (X = 2), even with a token on the section
    s[S.SPOT + spot("T14", "ore")] = 1
    assert pick("T14", "ore") not in legal(s, data)


def test_T04_carrying_1_0_pickup_ends_movement():
    data, s0 = table()
    s = act(moving(s0, data, 0, "T13"), data, pick("T13", "wheat"))
    assert s[S.MOVE_ENDED] == 1 and s[S.MP] == 2  # MP remain but cannot be used
    assert legal(s, data) == {S.A_PASS, S.A_DISCARD + RES["wheat"]}
    # phase 3 is still allowed after a movement that did not end on a Roman: at a bastion
    s = moving(s0, data, 0, "T01b")
    s = act(s, data, pick("T01b", "deer"))
    assert s[S.MOVE_ENDED] == 1
    s = moving(s, data, 0, "T01b")  # next turn, still carrying the deer
    s = act(act(s, data, to("BEL.SW")), data, to("BEL"))
    assert act(s, data, S.A_PASS)[S.PHASE] == S.PH_DELIVER


def _iceni_start(s):
    return {r: demand(s, "Iceni", r) for r in RES}


def test_T05_iceni_mid_game_picture():
    data, s0 = table()
    assert _iceni_start(s0) == dict(deer=2, cloth=4, wheat=1, fish=1, ore=2, grape=6)
    s = moving(s0, data, 0, "ICE.NE")
    set_bag(s, cycle=1)
    carry(s, 0, deer=1)
    s = act(act(s, data, to("ICE")), data, S.A_PASS)
    rp = s[pb(0) + S.P_RP]
    s = act(s, data, deliver("deer", 1))
    assert s[pb(0) + S.P_RP] - rp == 2 and demand(s, "Iceni", "deer") == 1
    s = moving(s, data, 0, "ICE")
    set_bag(s, cycle=1)
    carry(s, 0, cloth=2)
    s = act(s, data, S.A_PASS)
    rp = s[pb(0) + S.P_RP]
    s = act(s, data, deliver("cloth", 2))
    assert s[pb(0) + S.P_RP] - rp == 8 and demand(s, "Iceni", "cloth") == 1
    # unplaceable wheat, fish, ore, ore: every spot of those types is full; the drawer picks Iceni
    for r in ("wheat", "fish", "ore", "ore"):
        s = s.copy()
        set_bag(s, **{r: 1})
        t = start_turn(s, data, 1)
        assert t[S.PHASE] == S.PH_RAISE and t[S.TOKEN] == RES[r]
        s = act(t, data, S.A_BAST + BAS["Iceni"])
    assert _iceni_start(s) == dict(deer=1, cloth=1, wheat=2, fish=2, ore=6, grape=6)


def _at_iceni(s0, data, trade, chart, tokens):
    s = moving(s0, data, 0, "ICE", trade=trade)
    set_bag(s, cycle=1)  # the next turn's draws change nothing
    for r, v in chart.items():
        set_demand(s, "Iceni", r, v)
    carry(s, 0, **tokens)
    return act(s, data, S.A_PASS)


def test_T06_iceni_delivery_example():
    data, s0 = table()
    chart = dict(deer=1, fish=1, ore=2, wheat=2, cloth=4, grape=8)
    for trade, gain in ((0, 18), (1, 24), (4, 60)):  # level 4 = Trading +7
        s = _at_iceni(s0, data, trade, chart, {r: 1 for r in RES})
        for r in RES:
            s = act(s, data, deliver(r, 1)) if s[S.PHASE] == S.PH_DELIVER else s
        assert s[pb(0) + S.P_RP] == gain
        after = {r: demand(s, "Iceni", r) for r in RES}
        assert after == dict(deer=1, fish=1, ore=1, wheat=1, cloth=2, grape=6)


def test_T07_original_value_rule():
    data, s0 = table()
    s = act(_at_iceni(s0, data, 2, {"grape": 8}, {"grape": 2}), data, deliver("grape", 2))
    assert s[pb(0) + S.P_RP] == 20 and demand(s, "Iceni", "grape") == 4
    s = act(_at_iceni(s0, data, 0, {"deer": 2}, {"deer": 3}), data, deliver("deer", 3))
    assert s[pb(0) + S.P_RP] == 6 and demand(s, "Iceni", "deer") == 1
    s = act(_at_iceni(s0, data, 0, {"deer": 1}, {"deer": 2}), data, deliver("deer", 2))
    assert s[pb(0) + S.P_RP] == 2 and demand(s, "Iceni", "deer") == 1
    s = act(_at_iceni(s0, data, 0, {"grape": 8}, {"grape": 1}), data, deliver("grape", 1))
    assert s[pb(0) + S.P_RP] == 8
    s = moving(s, data, 0, "ICE")
    set_bag(s, cycle=1)
    carry(s, 0, grape=1)
    s = act(act(s, data, S.A_PASS), data, deliver("grape", 1))
    assert s[pb(0) + S.P_RP] == 8 + 6


def test_T08_the_fastest():
    data, s = table(roles=["fastest", "trusted"])
    for n, bonus in enumerate((0, 14, 24, 37, 53)):
        s[pb(0) + S.P_MOVE] = n
        assert role_bonus(s, data, 0) == bonus


def test_T09_generic_upgrade_bonus():
    data, s = table(roles=["versatile", "trusted"])
    s[pb(0) + S.P_TRADE] = 2
    assert role_bonus(s, data, 0) == 10


def _at_stone_circle(s0, data, rp):
    s = moving(s0, data, 0, "SC")
    s[pb(0) + S.P_RP] = rp
    s[S.SUPPLY] -= rp
    return act(s, data, S.A_PASS)


def test_T10_upgrade_costs():
    data, s0 = table()
    s = _at_stone_circle(s0, data, 12)
    supply = s[S.SUPPLY]
    assert s[S.PHASE] == S.PH_UPGRADE
    s = act(s, data, S.A_UPGRADE + 0)  # Movement 3 (cost 2)
    s = act(s, data, S.A_UPGRADE + 0)  # Movement 4 (cost 4)
    assert s[pb(0) + S.P_RP] == 6 and s[S.SUPPLY] == supply + 6
    assert S.A_UPGRADE + 0 not in legal(s, data)  # Movement 5 costs 7
    assert S.A_UPGRADE + 1 in legal(s, data)  # Trading level 1 costs 2
    assert sum(data[O_UPG_COST + 1 : O_UPG_COST + 5]) == 23  # maxing one capability
    s = _at_stone_circle(s0, data, 13)
    for _ in range(3):
        s = act(s, data, S.A_UPGRADE + 0)
    assert s[pb(0) + S.P_MOVE] == 3 and s[pb(0) + S.P_RP] == 0
    assert s[S.CUR] == 1  # nothing left to buy or claim: the turn is over


def test_T11_claim_vp():
    data, s0 = table()
    s = _at_stone_circle(s0, data, 9)
    s = act(s, data, S.A_PASS)  # no upgrade
    assert s[S.PHASE] == S.PH_CLAIM
    supply = s[S.SUPPLY]
    s = act(s, data, S.A_CLAIM + 9)
    assert s[pb(0) + S.P_RP] == 0 and s[pb(0) + S.P_VP] == 9 and s[S.SUPPLY] == supply


@pytest.mark.parametrize("players, bag", [(2, 41), (3, 40), (4, 39), (5, 38)])
def test_T12_setup_counts(players, bag):
    data, s = table(players, roles=ROLE_IDS[:players])
    assert s[S.SPOT : S.SPOT + 24].sum() == 18
    for r in RES:
        assert sum(s[S.SPOT + sp] for sp in spots_of(r)) == 3
        assert s[S.BAG + RES[r]] == 4
    assert s[S.BAG : S.BAG + S.N_KINDS].sum() == bag
    assert s[S.BAG + S.T_ROMAN] == 14 - (players - 2)
    assert (s[S.BAG + S.T_CYCLE], s[S.BAG + S.T_ORDERS], s[S.BAG + S.T_ROMANISE]) == (1, 1, 1)
    _, fast = table(players, roles=ROLE_IDS[:players], romans_in_play=14)
    assert fast[S.BAG : S.BAG + S.N_KINDS].sum() == 41


def _draw_wheat(s, data):
    set_bag(s, wheat=1)
    return start_turn(s, data, 1)


def test_T13_resource_token_drawn():
    data, s0 = table()
    s = s0.copy()
    s[S.SPOT + spot("T13", "wheat")] = 0
    t = _draw_wheat(s, data)
    assert t[S.SPOT + spot("T13", "wheat")] == 1 and t[S.DISC + RES["wheat"]] == 0
    assert np.array_equal(t[S.DEMAND : S.DEMAND + 36], s0[S.DEMAND : S.DEMAND + 36])
    # all three wheat spots full: discard it and raise one Celtic bastion's wheat demand
    s = s0.copy()
    set_demand(s, "Iceni", "wheat", 8)
    set_demand(s, "Belgae", "wheat", 2)
    t = _draw_wheat(s, data)
    assert t[S.PHASE] == S.PH_RAISE and t[S.DISC + RES["wheat"]] == 1
    assert S.A_BAST + BAS["Iceni"] not in legal(t, data)
    assert demand(act(t, data, S.A_BAST + BAS["Belgae"]), "Belgae", "wheat") == 4
    # every Celtic bastion at 8: nothing moves
    s = s0.copy()
    for b in BAS:
        set_demand(s, b, "wheat", 8)
    t = _draw_wheat(s, data)
    assert t[S.PHASE] == S.PH_START and t[S.DISC + RES["wheat"]] == 1  # on to its placement
    # lever demand_raise_target = any: Iceni may be chosen and stays at 8
    data_any, _ = table(demand_raise_target="any")
    s = s0.copy()
    set_demand(s, "Iceni", "wheat", 8)
    t = _draw_wheat(s, data_any)
    assert S.A_BAST + BAS["Iceni"] in legal(t, data_any)
    assert demand(act(t, data_any, S.A_BAST + BAS["Iceni"]), "Iceni", "wheat") == 8


def test_T14_roman_stop():
    data, s0 = table()
    s = moving(s0, data, 0, "T01a", move=1)  # Movement 3
    s[S.ROMAN + SEC["T07a"]] = 1
    t = act(s, data, to("T07a"))
    assert t[pb(0) + S.P_POS] == SEC["T07a"]
    assert t[S.CUR] == 1 and t[S.TURNS] == s[S.TURNS] + 1  # turn over at once, 2 MP unused
    set_bag(t, cycle=1)
    nxt = start_turn(t, data, 0)
    assert nxt[S.PHASE] == S.PH_RELOCATE
    options = legal(nxt, data)
    assert S.A_PASS in options and to("T09") in options and to("T07a") not in options
    moved = act(nxt, data, to("T09"))
    assert moved[S.ROMAN + SEC["T09"]] == 1 and moved[S.ROMAN + SEC["T07a"]] == 0
    assert moved[S.PHASE] == S.PH_MOVE and to("BEL.SE") in legal(moved, data)
    stay = act(nxt, data, S.A_PASS)  # leaves it: still moves normally off the Roman
    assert stay[S.PHASE] == S.PH_MOVE and to("T01a") in legal(stay, data)
    assert act(stay, data, to("T01a"))[S.PHASE] == S.PH_MOVE


def test_T15_passing_a_bastion_and_roman_on_an_arm():
    data, s0 = table()
    s = moving(s0, data, 0, "T02", move=2)
    carry(s, 0, fish=1)
    t = s
    for sec in ("BEL.W", "BEL", "BEL.SE", "T07a"):
        t = act(t, data, to(sec))
    assert t[S.PHASE] == S.PH_MOVE and t[S.MP] == 2  # cost 2, no stop at Belgae
    blocked = s.copy()
    blocked[S.ROMAN + SEC["BEL.SE"]] = 1
    t = blocked
    for sec in ("BEL.W", "BEL", "BEL.SE"):
        t = act(t, data, to(sec))
    assert t[pb(0) + S.P_POS] == SEC["BEL.SE"] and t[S.CUR] == 1  # stopped, no delivery
    assert t[S.TURNS] == s[S.TURNS] + 1 and t[pb(0) + S.P_RP] == 0
    other = moving(blocked, data, 0, "T01b")
    carry(other, 0, fish=1)
    t = act(act(other, data, to("BEL.SW")), data, to("BEL"))
    assert act(t, data, S.A_PASS)[S.PHASE] == S.PH_DELIVER


def test_T16_conquest_by_romans():
    data, s0 = table()
    s = s0.copy()
    s[S.ROMAN + SEC["ICE.NE"]] = 1
    set_bag(s, roman=2)
    t = start_turn(s, data, 1)
    assert t[S.PHASE] == S.PH_ROMAN
    out_before = t[S.ROMANS_OUT]
    t = act(t, data, to("ICE.NW"))
    assert t[S.CONQ + BAS["Iceni"]] == 1
    assert t[S.ROMAN + SEC["ICE.NE"]] == 0 and t[S.ROMAN + SEC["ICE.NW"]] == 0
    assert t[S.ROMANS_OUT] == out_before + 1 and t[S.DISC + S.T_ROMAN] == 1
    # the chart is gone: no delivery at the Romanised Iceni
    u = moving(t, data, 0, "ICE")
    carry(u, 0, grape=1)
    assert act(u, data, S.A_PASS)[S.CUR] == 1


def test_T17_romanisation_token():
    data, s0 = table()
    s = s0.copy()
    s[S.ROMAN + SEC["BEL.W"]] = 1
    s[S.ROMAN + SEC["BEL.SE"]] = 1
    set_bag(s, romanisation=1)
    t = start_turn(s, data, 1)
    assert t[S.PHASE] == S.PH_ROMANISE and t[S.HELD] == S.T_ROMANISE
    t = act(t, data, S.A_BAST + BAS["Belgae"])
    assert t[S.CONQ + BAS["Belgae"]] == 1 and t[S.ROMANS_OUT] == 1
    assert t[S.DISC + S.T_ROMAN] == 1 and t[S.DISC + S.T_ROMANISE] == 1
    assert t[S.ROMAN + SEC["BEL.W"]] == 0 and t[S.ROMAN + SEC["BEL.SE"]] == 0
    # a bastion with no Roman on it: conquered, no Roman leaves the game
    set_bag(t, romanisation=1)
    t[S.DISC + S.T_ROMANISE] = 0
    u = act(start_turn(t, data, 0), data, S.A_BAST + BAS["Regni"])
    assert u[S.CONQ + BAS["Regni"]] == 1 and u[S.ROMANS_OUT] == 1


def test_T18_last_bastion_ends_the_game_at_once():
    data, s0 = table()
    s = s0.copy()
    for b in ("Belgae", "Parisi", "Trinovantes", "Iceni", "Regni"):
        s[S.CONQ + BAS[b]] = 1
    s[S.N_CONQ] = 5
    s[S.SPOT + spot("T13", "wheat")] = 0  # the wheat would be placed if it were resolved
    set_bag(s, romanisation=1, wheat=1)
    t = start_turn(s, data, 1)
    assert t[S.PHASE] == S.PH_ORDER
    slot = [i for i in range(t[S.N_PENDING]) if t[S.PENDING + i] == S.T_ROMANISE][0]
    t = act(t, data, S.A_ORDER + slot)
    assert t[S.OVER] == 1 and t[S.REASON] == S.END_ALL_CONQUERED
    assert t[S.SPOT + spot("T13", "wheat")] == 0 and t[S.N_PENDING] == 1  # not resolved
    assert t[pb(1) + S.P_POS] == -1  # no movement


def test_T19_orders_and_cycle():
    data, s0 = table()
    s = s0.copy()
    for sec in ("T02", "T03", "T05"):
        s[S.ROMAN + SEC[sec]] = 1
    set_bag(s, orders=1)
    t = start_turn(s, data, 1)
    assert t[S.PHASE] == S.PH_ORDERS and len(legal(t, data)) == 3
    t = act(t, data, to("T03"))
    assert t[S.ROMAN + SEC["T03"]] == 0 and t[S.ROMAN + SEC["T02"]] == 1
    assert t[S.DISC + S.T_ORDERS] == 1 and t[S.DISC + S.T_ROMAN] == 1
    # cycle: discard of 9, bag of 20 (cycle + 19 Romans); cycle drawn with a Roman
    s = s0.copy()
    set_bag(s, cycle=1, roman=19)
    s[S.DISC + RES["deer"]] = 9
    for seed in range(500):  # a seed whose two draws are the cycle and a Roman
        t = start_turn(s, data, 1, seed)
        if t[S.PENDING] == S.T_CYCLE or t[S.PENDING + 1] == S.T_CYCLE:
            break
    assert t[S.PHASE] == S.PH_ORDER and t[S.N_PENDING] == 2
    slot = [i for i in range(t[S.N_PENDING]) if t[S.PENDING + i] == S.T_CYCLE][0]
    t = act(t, data, S.A_ORDER + slot)
    assert t[S.BAG : S.BAG + S.N_KINDS].sum() == 20 - 2 + 9 + 1
    assert t[S.DISC : S.DISC + S.N_KINDS].sum() == 0
    assert t[S.PHASE] == S.PH_ROMAN  # the other token is then resolved normally


def test_T20_supply_exhaustion():
    data, s0 = table()
    for supply, rp, left in ((5, 8, 7), (8, 8, 0)):
        s = moving(s0, data, 0, "ICE")
        s[S.SUPPLY] = supply
        s[pb(0) + S.P_VP] = 12
        set_demand(s, "Iceni", "grape", 8)
        carry(s, 0, grape=1)
        set_bag(s, cycle=1)
        s = act(s, data, S.A_PASS)
        mid = s.copy()
        _apply(mid, deliver("grape", 1), data, rng())  # the payment, before the turn ends
        assert mid[S.TRIGGER] == 1 and mid[pb(0) + S.P_RP] == rp and mid[S.SUPPLY] == left
        assert mid[S.OVER] == 0  # the game ends at the end of P's turn, not at once
        end = act(s, data, deliver("grape", 1))
        assert end[S.OVER] == 1 and end[S.REASON] == S.END_SUPPLY
        if supply == 5:
            assert mid[S.TENS_LEFT] == 4 and mid[pb(0) + S.P_TENS] == 1


def test_T21_time_limit():
    setup = make_setup("celtic_trader", 4, {"turn_limit": 10}, "random")
    games, _ = play_batch(setup, range(200), root_seed=21)
    limited = games.filter(games["end_reason"] == "turn_limit")
    assert limited.height > 0
    assert (limited["rounds"] == 10).all() and (limited["turns"] == 40).all()
    assert (games["rounds"] <= 10).all()
    early = games.filter(games["end_reason"] != "turn_limit")
    assert (early["turns"] <= 40).all()


def test_T22_scoring_and_ties():
    data, s = table(3, roles=["fastest", "trusted", "versatile"])
    s[S.OVER] = 1
    s[pb(0) + S.P_VP], s[pb(0) + S.P_MOVE] = 40, 4
    s[pb(1) + S.P_VP], s[pb(1) + S.P_RP] = 52, 7
    s[pb(2) + S.P_VP] = 52
    s[pb(2) + S.P_MOVE : pb(2) + S.P_MOVE + 3] = 1
    score = np.zeros((1, 3), np.int32)
    comp = np.zeros((1, 3, 2), np.int32)
    z = np.zeros(1, np.int32)
    role, extras = np.zeros((1, 3), np.int16), np.zeros((1, 3, 0), np.int32)
    write_results(s, data, 0, z, z, np.zeros(1, np.int8), score, comp, role, extras)
    assert score[0].tolist() == [93, 59, 67]
    assert (comp[0].sum(axis=1) == score[0]).all()
    rank, win = rank_and_win(score[:, :, None].astype(np.int64))
    assert rank[0].tolist() == [1, 3, 2] and win[0].tolist() == [1.0, 0.0, 0.0]
    _, win = rank_and_win(np.array([[[93], [93], [67]]], np.int64))
    assert win[0].tolist() == [0.5, 0.5, 0.0]


def test_T23_role_pick():
    data, _ = table(3, roles=ROLE_IDS[:3])
    s = np.zeros(S.STATE_LEN, np.int32)
    counts = np.zeros(6, int)
    for seed in range(3000):
        init_state(data, 3, S.ROLES_RANDOM, np.zeros(3, np.int64), rng(seed), s)
        counts[s[pb(0) + S.P_ROLE]] += 1
        assert s[pb(1) + S.P_ROLE] == -1  # seat 2 picks at the start of its own first turn
    assert abs(counts / 3000 - 1 / 6).max() < 0.03
    _, players = play_batch(make_setup("celtic_trader", 3, {}, "random"), range(600), 23)
    for seat in range(3):
        roles = players.filter(players["seat"] == seat)["role"]
        assert roles.n_unique() == 6 and roles.null_count() == 0
        assert roles.value_counts()["count"].min() > 600 / 6 * 0.6
    per_game = players.group_by("game").agg(pl.col("role").n_unique().alias("k"))
    assert (per_game["k"] == 3).all()
    # open draft: 6, 5, 4 face-up choices in seat order
    s = np.zeros(S.STATE_LEN, np.int32)
    init_state(data, 3, S.ROLES_DRAFT, np.zeros(3, np.int64), rng(1), s)
    assert s[S.PHASE] == S.PH_ROLE and len(legal(s, data)) == 6
    s = act(s, data, S.A_ROLE + ROLE["haggler"])
    s = moving(s, data, 0, "T13")
    set_bag(s, cycle=1)
    s = act(s, data, S.A_PASS)
    assert s[S.PHASE] == S.PH_ROLE and len(legal(s, data)) == 5
    assert S.A_ROLE + ROLE["haggler"] not in legal(s, data)
    # roles_in_play = 5 leaves the Versatile out
    data5, _ = table(3, roles=ROLE_IDS[:3], roles_in_play=5)
    init_state(data5, 3, S.ROLES_DRAFT, np.zeros(3, np.int64), rng(1), s)
    assert legal(s, data5) == {S.A_ROLE + r for r in range(5)}
    setup = make_setup("celtic_trader", 5, {"roles_in_play": 5}, "random")
    _, players = play_batch(setup, range(50), 5)
    assert "versatile" not in players["role"].to_list()
    per_game = players.group_by("game").agg(pl.col("role").n_unique().alias("k"))
    assert (per_game["k"] == 5).all()


def _strongest_first_turn(**params):
    data, s = table(2, roles=["strongest", "fastest"], **params)
    sec = SEC["T10"]
    s[S.ROMAN + sec] = 1
    set_bag(s, cycle=1)
    return data, start_turn(s, data, 0)


def test_T24_first_placement():
    data, s = _strongest_first_turn()
    assert [int(x) for x in data[O_ROLE_START + 3 * ROLE["strongest"] :][:3]] == [
        SEC["T14"], SEC["T10"], SEC["T02"],
    ]  # fmt: skip
    assert s[S.PHASE] == S.PH_START
    assert legal(s, data) == {to("T14"), to("T10"), to("T02")}
    t = act(s, data, to("T10"))
    assert t[pb(0) + S.P_POS] == SEC["T10"] and t[S.CUR] == 1  # the turn ended at once
    assert t[S.SPOT + spot("T10", "wheat")] == 1 and t[S.SPOT + spot("T10", "ore")] == 1
    set_bag(t, cycle=1)
    assert start_turn(t, data, 0)[S.PHASE] == S.PH_RELOCATE
    assert act(s, data, to("T14"))[S.PHASE] == S.PH_MOVE
    # lever relocate_first: may move the Roman first, then picks up and moves normally
    data_r, s = _strongest_first_turn(first_placement_on_roman="relocate_first")
    t = act(s, data_r, to("T10"))
    assert t[S.PHASE] == S.PH_RELOCATE and t[S.CUR] == 0
    t = act(t, data_r, S.A_PASS)
    assert t[S.PHASE] == S.PH_MOVE and pick("T10", "ore") in legal(t, data_r)
    # lever start_mode = fixed: T14 is the only start, taken without a choice
    data_f, s = _strongest_first_turn(start_mode="fixed")
    assert s[S.PHASE] == S.PH_MOVE and s[pb(0) + S.P_POS] == SEC["T14"]
    # sections that can never be Roman-held: no Roman spot
    for sec in ("T08", "T12", "SC", "BEL", "ICE"):
        assert data[O_SEC_ROMAN + SEC[sec]] == 0
