r"""The numbered scenarios Q1-Q26 of rules/celtic-quest.md §11, one test each, played by the
engine (the Celtic Trader kernels with Celtic Quest's data) on positions built by hand.

The map scenarios Q1, Q2, Q18 and Q19 are also tests of the map generator in test_mapgen.py
(``test_q1_chart_column_from_distance``, ``test_q2_celtic_trader_map_is_a_correct_celtic_quest_
setup``, ``test_q18_map_legality``, ``test_q19_unconnected_resource_spots``); the tests here add
what the engine makes of them: the compiled charts, the face-down tokens of the state.

Fixed map (the Celtic Trader layout, §9 ``ct_position``), the part most scenarios use; "=" is a
bridge (two road networks on one tile), numbers are MP, (w) woods, (h) hills::

        PAR.E --1-- T09(h) --1-- T08(h)
                      |1
    T03 --1-- SC --1-- T02(w) ------------1------------ BEL.W
     |1        |1   \1                                  |0
    T10(w)   T06(w)  T01a --1-- T07a --1-- BEL.SE --0-- BEL --0-- BEL.SW
               |1     =                                           |1
             REG.NW  T01b -------------------1--------------------+
               |0     |1
              REG    T13 --1-- T14(w)
"""

import numpy as np
import pytest

import sim.games.celtic_trader.board as board
from sim.core.registry import make_setup
from sim.core.results import to_frames
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest import scoring, tiles
from sim.games.celtic_quest.invariants import state_check as quest_state_check
from sim.games.celtic_quest.mapgen import chart_value, generate_map, load_catalogue, section_graph
from sim.games.celtic_quest.play import PLAYER_EXTRAS, game_graph, new_result
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.mapmode import map_rng
from sim.games.celtic_trader.params import (
    MAX_SEC,
    O_BAST_HUB,
    O_COL_VALUE,
    O_DIST,
    O_RULES,
    O_SPOT_RES,
    O_SPOT_SEC,
    O_START_COL,
    R_NSEC,
    R_NSPOT,
    default_data,
)
from tests.games.celtic_quest.helpers import (
    BAS,
    COLUMNS,
    DESTINY,
    ITEM,
    KIND,
    QUEST,
    RAW,
    RES,
    SEC,
    TILE,
    act,
    bag,
    carried,
    carry,
    completed,
    components,
    deliver,
    deliver_rings,
    demand,
    disc,
    enchant,
    gold_to,
    held,
    hold,
    legal,
    moving,
    pb,
    pick,
    pouch,
    qp,
    roman_to,
    sections_of,
    set_bag,
    set_demand,
    set_pouch,
    spot,
    spots_of,
    start_turn,
    table,
    tile,
    to,
)
from tests.games.celtic_quest.test_mapgen import check_layout

CAT = load_catalogue()
ENCHANTABLE = [t.id for t in CAT.tiles if t.enchantable and t.id in TILE]


def placed(s, seat, sec):
    """``s`` with the seat's marker on ``sec`` after its first turn (its next turn begins
    there)."""
    s = s.copy()
    s[pb(seat) + S.P_POS] = SEC[sec]
    s[pb(seat) + S.P_FIRST_DONE] = 1
    return s


def at_stone_circle(s, data, seat=0, **kw):
    """``s`` where the seat ends its movement on the Stone Circle (phase 3a next)."""
    s = moving(s, data, seat, "SC", **kw)
    return act(s, data, S.A_PASS)


# ---------------------------------------------------------------------------------------------
# Q1, Q2: the bastion charts (also test_mapgen.py)
# ---------------------------------------------------------------------------------------------


def _engine_chart_checks(data, s):
    """Every start column of the compiled data is §3.3's: the column of the shortest road
    distance (compiled O_DIST) from the bastion to an in-play spot of the resource, capped at 5;
    returns the distances seen."""
    seen = set()
    for b in range(6):
        hub = data[O_BAST_HUB + b]
        for r in range(6):
            dists = [
                int(data[O_DIST + hub * MAX_SEC + data[O_SPOT_SEC + sp]])
                for sp in range(data[O_RULES + R_NSPOT])
                if data[O_SPOT_RES + sp] == r and s[Q.SPOT_OUT + sp] == 0
            ]
            d = min(dists)
            seen.add(d)
            value = data[O_COL_VALUE + data[O_START_COL + b * 6 + r]]
            assert value == chart_value(d, COLUMNS), (b, r, d)
            assert s[S.DEMAND + b * 6 + r] == data[O_START_COL + b * 6 + r]
    return seen


def test_Q01_chart_column_from_distance():
    """d = 1, 2, 3, 4, 5, 7 -> 1, 2, 4, 6, 8, 8 (test_mapgen: ``chart_value``); here the
    engine's compiled columns, and its start charts on the fixed map and on generated maps,
    follow that rule from its own distances."""
    data, s = table()
    assert tuple(data[O_COL_VALUE : O_COL_VALUE + 5]) == COLUMNS
    assert [chart_value(d, COLUMNS) for d in (1, 2, 3, 4, 5, 7)] == [1, 2, 4, 6, 8, 8]
    seen = _engine_chart_checks(data, s)
    for seed in (1, 2, 3):
        gdata, gs = table(4, map_mode="generated", map_seed=seed)
        seen |= _engine_chart_checks(gdata, gs)
    assert {1, 2, 3} <= seen and max(seen) >= 4  # several columns are exercised


def test_Q02_celtic_trader_map_is_a_correct_celtic_quest_setup():
    """test_mapgen checks the graph; here the engine's set-up on it: every section connected,
    0 face-down tokens, and the state's charts are Celtic Trader's start demand."""
    data, s = table()
    nsec, nspot = data[O_RULES + R_NSEC], data[O_RULES + R_NSPOT]
    assert nspot == 18 and s[S.SPOT : S.SPOT + nspot].sum() == 18
    assert (data[Q.X_SEC_CONNECTED : Q.X_SEC_CONNECTED + nsec] == 1).all()
    assert (s[Q.SPOT_OUT : Q.SPOT_OUT + nspot] == 0).all()
    assert {r: demand(s, "Iceni", r) for r in RES} == dict(
        deer=2, cloth=4, wheat=1, fish=1, ore=2, grape=6
    )
    ct = default_data(2)
    assert np.array_equal(data[O_START_COL : O_START_COL + 36], ct[O_START_COL : O_START_COL + 36])
    dist = slice(O_DIST, O_DIST + MAX_SEC * MAX_SEC)
    assert np.array_equal(data[dist], ct[dist])


# ---------------------------------------------------------------------------------------------
# Q3: delivery with rings and the Harp
# ---------------------------------------------------------------------------------------------


def _at_iceni(trade=0, harp=False, rings=0, tokens=None, **params):
    """Seat 0 ends its movement at Iceni with the §11 Q3 chart (ore, fish, cloth 1; deer 4;
    wheat, grape 6): the delivery phase."""
    data, s0 = table(**params)
    s = moving(s0, data, 0, "ICE", trade=trade)
    set_bag(s)  # the next turn draws nothing
    for r, v in dict(ore=1, fish=1, cloth=1, deer=4, wheat=6, grape=6).items():
        set_demand(s, "Iceni", r, v)
    carry(s, 0, **(tokens or {}))
    set_pouch(s, 0, ring=rings)
    if harp:
        completed(s, data, 0, "harp")
    s = act(s, data, S.A_PASS)
    assert s[S.PHASE] == S.PH_DELIVER
    return data, s


def _rp(s):
    return int(s[pb(0) + S.P_RP])


def test_Q03_iceni_example_ring_and_harp():
    data, s = _at_iceni(harp=True, rings=1, tokens=dict(deer=1))
    assert deliver_rings("deer", 1, 1) in legal(s, data)
    t = act(s, data, deliver_rings("deer", 1, 1))
    assert _rp(t) == 4 + 2 + 2 == 8
    assert pouch(t, 0) == {} and disc(t)["ring"] == 1  # to the discard pile (B3)
    assert demand(t, "Iceni", "deer") == 2
    # Trading +1 and the Harp, 2 grapes: 2 x (6 + 1 + 2) = 18, grape 6 -> 4 -> 2
    data, s = _at_iceni(trade=1, harp=True, tokens=dict(grape=2))
    t = act(s, data, deliver("grape", 2))
    assert _rp(t) == 18 and demand(t, "Iceni", "grape") == 2
    # two rings on those 2 grapes (B7: one ring per token): 22
    data, s = _at_iceni(trade=1, harp=True, rings=2, tokens=dict(grape=2))
    t = act(s, data, deliver_rings("grape", 2, 2))
    assert _rp(t) == 22 and pouch(t, 0) == {} and disc(t)["ring"] == 2
    # one ring for 2 grapes: +2 once
    data, s = _at_iceni(trade=1, harp=True, rings=1, tokens=dict(grape=2))
    assert _rp(act(s, data, deliver_rings("grape", 2, 1))) == 20
    # lever harp_bonus = per_delivery: 2 x (6 + 1) + 2 = 16
    data, s = _at_iceni(trade=1, harp=True, tokens=dict(grape=2), harp_bonus="per_delivery")
    assert _rp(act(s, data, deliver("grape", 2))) == 16
    # lever ring_bonus = per_delivery: only one ring usable, 18 + 2 = 20, and no second ring in
    # the same visit
    data, s = _at_iceni(
        trade=1, harp=True, rings=2, tokens=dict(grape=2, fish=1), ring_bonus="per_delivery"
    )
    t = act(s, data, deliver_rings("grape", 2, 1))
    assert _rp(t) == 20 and pouch(t, 0) == {"ring": 1}
    assert deliver("fish", 1) in legal(t, data) and deliver_rings("fish", 1, 1) not in legal(
        t, data
    )
    # one fish, Trading 0, nothing else: 1 RP, fish stays at 1; no ring action without a ring
    data, s = _at_iceni(tokens=dict(fish=1))
    assert not any(a >= Q.A_RING for a in legal(s, data) if a < Q.A_ROMAN)
    t = act(s, data, deliver("fish", 1))
    assert _rp(t) == 1 and demand(t, "Iceni", "fish") == 1


# ---------------------------------------------------------------------------------------------
# Q4, Q5: setup
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "in_bag"), [(2, 42), (3, 41), (4, 40), (5, 39)])
def test_Q04_setup_counts(players, in_bag):
    data, s = table(players)
    contents = {k: n for k, n in bag(s).items() if k not in ITEM}  # items: test_Q05
    assert sum(contents.values()) == in_bag
    assert {r: contents[r] for r in RES} == dict.fromkeys(RES, 4)
    assert [contents[k] for k in ("cycle", "orders", "romanisation", "druid")] == [1, 1, 1, 1]
    assert contents["roman"] == 14 - (players - 2)
    assert set(contents) == {*RES, "cycle", "orders", "romanisation", "druid", "roman"}
    assert s[S.SPOT : S.SPOT + 18].sum() == 18  # the fixed map: all connected, all face up
    assert s[Q.CRYSTAL_SUPPLY] == 16 and s[S.DISC : S.DISC + S.N_KINDS].sum() == 0


def test_Q04_face_down_tokens_count_among_the_18():
    """On a generated map with spots off the Stone Circle's roads: the map still holds 18
    tokens, the face-down ones included (§3.2)."""
    setup = make_setup("celtic_quest", 4, {"map_mode": "generated"}, "random")
    seed = next(s for s in range(200) if game_graph(setup, s).unconnected_spots)
    data, s = table(4, map_mode="generated", map_seed=seed)
    down = int((s[Q.SPOT_OUT : Q.SPOT_OUT + 18] == 1).sum())
    assert down == len(game_graph(setup, seed).unconnected_spots) >= 1
    assert s[S.SPOT : S.SPOT + 18].sum() + down == 18
    assert s[S.BAG : S.BAG + S.N_KINDS].sum() == 40


def test_Q05_starting_items():
    data, s = table(3)
    assert [pouch(s, seat) for seat in range(3)] == [{"gold": 1}, {"bread": 1}, {"ring": 1}]
    assert [pouch(s, seat) for seat in (3, 4)] == [{}, {}]
    kinds = [Q.T_GOLD + i for i in range(Q.N_ITEMS)]
    assert all(s[S.BAG + k] == 0 and s[S.DISC + k] == 0 for k in kinds)  # the rest left
    data, s = table(5)
    assert [pouch(s, seat) for seat in range(5)] == [
        {"gold": 1}, {"bread": 1}, {"ring": 1}, {"elixir": 1}, {"gold": 1, "bread": 1},
    ]  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("lever", ["bag", "removed"])
def test_Q05_unused_items_leave_the_game_only_si_la_partie_est_a_moins_de_5_joueurs(players, lever):
    """§3 item 4: "Si la partie est à moins de 5 joueurs enlevez les jetons articles
    inutilisées": below 5 players the items no seat starts with leave the game; at 5 (revised
    ruling, lever ``five_player_items``, default ``bag``) they go into the bag; under ``removed``
    they leave the game at 5 players too. Counts from the data file's items."""
    data, s = table(players, five_player_items=lever)
    handed = {it["id"]: sum(it["start_by_seat"][:players]) for it in RAW["items"]}
    unused = {it["id"]: it["count"] - handed[it["id"]] for it in RAW["items"]}
    assert all(n > 0 for n in unused.values())
    in_bag = {k: n for k, n in bag(s).items() if k in ITEM}
    if players == 5 and lever == "bag":
        assert in_bag == unused  # 2 gold, 2 bread, 2 ring, 2 elixir with the shipped file
    else:
        assert in_bag == {}
    assert disc(s) == {} and all(s[Q.ITEMS_OUT + i] == 0 for i in range(Q.N_ITEMS))
    held = {k: sum(pouch(s, seat).get(k, 0) for seat in range(players)) for k in ITEM}
    assert held == handed
    assert quest_state_check(s, data) == 0, "items conserved (checked mode)"


def test_Q05_the_default_at_5_players_is_the_revised_ruling():
    assert make_setup("celtic_quest", 5, {}, "random").params["five_player_items"] == "bag"
    assert RAW["pouch"]["five_player_items"] == "bag"


def test_Q05_an_item_drawn_from_the_setup_bag_goes_to_the_drawers_pouch():
    """§3 item 4 with §4.10 (B4): at 5 players an item drawn from the bag as set up goes to
    the drawer's pouch (seat 0 starts with one item: two more still fit)."""
    data, s0 = table(5)
    s = placed(s0, 0, "SC")
    to_pouch = 0
    items = {KIND[k] for k in ITEM}
    for seed in range(80):
        t = start_turn(s, data, 0, seed)
        drawn = {k: bag(s)[k] - bag(t).get(k, 0) for k in ITEM}
        for _ in range(4):  # the seat resolves its drawn items first, in its chosen order
            pending = [int(x) for x in t[S.PENDING : S.PENDING + t[S.N_PENDING]]]
            first = [i for i, x in enumerate(pending) if x in items]
            if t[S.PHASE] != S.PH_ORDER or not first:
                break
            t = act(t, data, S.A_ORDER + first[0])
        for k in ITEM:
            gained = pouch(t, 0).get(k, 0) - pouch(s, 0).get(k, 0)
            assert gained == drawn[k], (seed, k)
            to_pouch += gained
    assert to_pouch > 0


# ---------------------------------------------------------------------------------------------
# Q6-Q8: the spell track
# ---------------------------------------------------------------------------------------------


def test_Q06_spell_track_moves():
    data, s0 = table()
    assert s0[Q.SPELL] == 0
    s = placed(s0, 0, "T13")
    set_bag(s, druid=1)
    t = start_turn(s, data, 0)
    assert t[Q.SPELL] == 1 and t[S.PHASE] == Q.PH_ENCHANT and disc(t) == {"druid": 1}
    assert legal(t, data) == {tile(x) for x in ENCHANTABLE}
    t = act(t, data, tile("T02"))
    assert t[Q.ENCH + TILE["T02"]] == 1 and t[S.PHASE] == S.PH_MOVE and t[Q.SPELL] == 1
    # 2 crystals delivered at the Stone Circle: box 3
    u = moving(t, data, 0, "SC")
    u[qp(0) + Q.QP_CRYST] = 2
    u = act(u, data, S.A_PASS)
    assert u[S.PHASE] == Q.PH_CRYSTALS
    u = act(u, data, Q.A_CRYSTALS + 2)
    assert u[Q.SPELL] == 3 and u[qp(0) + Q.QP_CRYST_DONE] == 2 and u[qp(0) + Q.QP_CRYST] == 0
    # quest completion alone (with its enchantment) does not move it
    v = moving(u, data, 0, "SC", carry=1)
    hold(v, 0, "horse")
    carry(v, 0, wheat=1, fish=1)
    v = act(act(v, data, S.A_PASS), data, Q.A_QUEST + 0)
    assert v[S.PHASE] == Q.PH_ENCHANT
    v = act(v, data, tile("T05"))
    assert v[Q.ENCH + TILE["T05"]] == 1 and v[Q.SPELL] == 3


def _crystals_at_sc(n, box=10, **params):
    data, s0 = table(**params)
    s = moving(s0, data, 0, "SC")
    s[Q.SPELL] = box
    s[qp(0) + Q.QP_CRYST] = n
    s[qp(1) + Q.QP_CRYST_DONE] = 1  # an earlier crystal of the other player
    s = act(s, data, S.A_PASS)
    assert s[S.PHASE] == Q.PH_CRYSTALS
    return data, s


def test_Q07_spell_end_by_crystals():
    data, s = _crystals_at_sc(3)
    assert legal(s, data) == {S.A_PASS} | {Q.A_CRYSTALS + k for k in (1, 2, 3)}
    t = act(s, data, Q.A_CRYSTALS + 3)
    assert t[Q.SPELL] == 12  # 10 -> 11 -> 12, the third step is lost
    assert t[S.OVER] == 1 and t[S.REASON] == Q.END_SPELL and t[S.CUR] == 0
    assert t[qp(0) + Q.QP_CRYST_DONE] == 3 and t[qp(0) + Q.QP_CRYST] == 0
    assert components(t, data, 0)[1] == 3 * 12 == 36
    assert components(t, data, 1)[1] == 12  # every delivered crystal is worth 12
    # B14: only 2 delivered: the marker also reaches 12, the third, still carried, scores 0
    t = act(s, data, Q.A_CRYSTALS + 2)
    assert t[Q.SPELL] == 12 and t[S.OVER] == 1 and t[S.REASON] == Q.END_SPELL
    assert t[qp(0) + Q.QP_CRYST] == 1 and components(t, data, 0)[1] == 24
    # lever crystal_delivery = all_or_none: all 3 or none
    data, s = _crystals_at_sc(3, crystal_delivery="all_or_none")
    assert legal(s, data) == {S.A_PASS, Q.A_CRYSTALS + 3}


def test_Q08_spell_end_by_druid():
    data, s0 = table()
    s = placed(s0, 0, "T14")
    s[Q.SPELL] = 11
    s[S.SPOT + spot(data, "T13", "wheat")] = 0  # the wheat would be placed if resolved
    set_bag(s, druid=1, wheat=1)
    t = start_turn(s, data, 0)
    assert t[S.PHASE] == S.PH_ORDER and t[S.N_PENDING] == 2
    slot = [i for i in range(2) if t[S.PENDING + i] == Q.T_DRUID][0]
    t = act(t, data, S.A_ORDER + slot)
    assert t[Q.SPELL] == 12 and t[S.OVER] == 1 and t[S.REASON] == Q.END_SPELL
    assert t[Q.ENCH : Q.ENCH + Q.MAX_TILES].sum() == 0  # no enchantment
    assert t[S.N_PENDING] == 1 and t[S.PENDING] == RES["wheat"]  # not resolved
    assert t[S.SPOT + spot(data, "T13", "wheat")] == 0


# ---------------------------------------------------------------------------------------------
# Q9, Q10: quests at the Stone Circle
# ---------------------------------------------------------------------------------------------


def _horse_at_sc(carry_level=1, **params):
    data, s0 = table(**params)
    s = moving(s0, data, 0, "SC", carry=carry_level)
    hold(s, 0, "horse")
    carry(s, 0, wheat=1, fish=1)
    set_bag(s)
    return data, s


def test_Q09_horse_quest():
    data, s = _horse_at_sc()
    supply = s[S.SUPPLY]
    t = act(s, data, S.A_PASS)
    assert t[S.PHASE] == Q.PH_QUEST_DONE and legal(t, data) == {S.A_PASS, Q.A_QUEST + 0}
    t = act(t, data, Q.A_QUEST + 0)
    q = qp(0)
    assert held(t, 0) == [] and t[q + Q.QP_DONE_MASK] == 1 << QUEST["horse"]  # face up
    assert t[q + Q.QP_NDONE] == 1 and carried(t, 0) == {}
    assert disc(t) == {"wheat": 1, "fish": 1}
    assert t[q + Q.QP_QUEST_VP] == 6 and t[S.SUPPLY] == supply and t[pb(0) + S.P_VP] == 0
    assert t[S.PHASE] == Q.PH_ENCHANT  # he enchants a tile of his choice
    t = act(t, data, tile("T12"))
    assert t[Q.ENCH + TILE["T12"]] == 1
    assert components(t, data, 0)[2] == 6  # added at the final count
    # Movement + 1 from now on: his next turn starts with 3 MP
    u = start_turn(placed(t, 0, "SC"), data, 0)
    assert u[S.PHASE] == S.PH_MOVE and u[S.MP] == 2 + 1
    # lever quest_vp_source = supply: 6 VP from the supply into his VP box now
    data, s = _horse_at_sc(quest_vp_source="supply")
    t = act(act(s, data, S.A_PASS), data, Q.A_QUEST + 0)
    assert t[pb(0) + S.P_VP] == 6 and t[S.SUPPLY] == supply - 6
    assert t[qp(0) + Q.QP_QUEST_VP] == 0 and components(t, data, 0)[:3] == [6, 0, 0]
    # Carrying 1/0 (X = 1): with the wheat, the fish cannot be picked up
    data, s0 = table()
    s = moving(s0, data, 0, "T02")
    carry(s, 0, wheat=1)
    assert pick(data, "T02", "fish") not in legal(s, data)
    s = moving(s0, data, 0, "T02", carry=1)
    carry(s, 0, wheat=1)
    assert pick(data, "T02", "fish") in legal(s, data)
    # the first upgrade of Carrying costs 2 RP
    s = moving(s0, data, 0, "SC")
    s[pb(0) + S.P_RP] = 2
    t = act(s, data, S.A_PASS)
    assert t[S.PHASE] == S.PH_UPGRADE and S.A_UPGRADE + 2 in legal(t, data)
    t = act(t, data, S.A_UPGRADE + 2)
    assert t[pb(0) + S.P_CARRY] == 1 and t[pb(0) + S.P_RP] == 0


def _horse_holder_at_sc(enchanted, **tokens):
    data, s0 = table()
    s = s0.copy()
    enchant(s, data, *enchanted)
    s = moving(s, data, 0, "SC")
    hold(s, 0, "horse")
    carry(s, 0, **tokens)
    set_bag(s)
    return data, act(s, data, S.A_PASS)


def test_Q10_quest_discard():
    """The fish spots are on T02, T11 and T15 on the fixed map (as the spec's CT arrangement)."""
    data, _ = table()
    fish_tiles = sorted(set(_tiles_of_spots(data, "fish")))
    assert fish_tiles == ["T02", "T11", "T15"]
    t = _horse_holder_at_sc(fish_tiles)[1]
    assert t[S.PHASE] == Q.PH_QUEST_DISCARD and legal(t, data) == {S.A_PASS, Q.A_QUEST + 0}
    pile = t[Q.QPILE_N]
    t = act(t, data, Q.A_QUEST + 0)
    assert held(t, 0) == [] and t[Q.QUEST_OUT] == 1
    assert t[S.PHASE] == Q.PH_QUEST_DRAW  # step 5 after step 4, in the same visit
    t = act(t, data, Q.A_YES)
    assert len(held(t, 0)) == 1 and t[Q.QPILE_N] == pile - 1
    # carrying a fish: not impossible (wheat spots remain: T13 cannot be enchanted)
    data, t = _horse_holder_at_sc(fish_tiles, fish=1)
    assert t[S.CUR] == 1 and held(t, 0) == [QUEST["horse"]]  # no discard offered, turn over
    # only T02 and T11 enchanted: T15's fish spot is still face up on a green tile, even empty
    data, s0 = table()
    s = s0.copy()
    s[S.SPOT + spot(data, "T15", "fish")] = 0
    enchant(s, data, "T02", "T11")
    s = moving(s, data, 0, "SC")
    hold(s, 0, "horse")
    set_bag(s)
    t = act(s, data, S.A_PASS)
    assert t[S.CUR] == 1 and held(t, 0) == [QUEST["horse"]]


def _tiles_of_spots(data, res):
    by_sec = {i: name for name, i in SEC.items()}
    return [by_sec[data[O_SPOT_SEC + sp]].rstrip("ab").split(".")[0] for sp in spots_of(data, res)]


# ---------------------------------------------------------------------------------------------
# Q11-Q15: movement with crystals, items and quests
# ---------------------------------------------------------------------------------------------


def test_Q11_crystal_on_a_bastion_tile():
    data, s0 = table()
    s = s0.copy()
    enchant(s, data, "REG")  # REG_E, one crystal on it
    assert s[Q.TCRYST + TILE["REG"]] == 1
    s = moving(s, data, 0, "T06", carry=1)  # Carrying 2/0
    carry(s, 0, deer=1)
    set_bag(s)
    s = act(s, data, to("REG.NW"))
    assert Q.A_CRYSTAL in legal(s, data)
    t = act(s, data, Q.A_CRYSTAL)
    assert t[qp(0) + Q.QP_CRYST] == 1 and t[Q.TCRYST + TILE["REG"]] == 0
    assert t[S.MOVE_ENDED] == 1  # tile-to-tile movement ends
    assert to("T06") not in legal(t, data) and to("REG") in legal(t, data)
    t = act(act(t, data, to("REG")), data, S.A_PASS)
    assert t[S.PHASE] == S.PH_DELIVER and deliver("deer", 1) in legal(t, data)
    t = act(t, data, deliver("deer", 1))
    assert carried(t, 0) == {} and t[pb(0) + S.P_RP] > 0


def test_Q12_gold():
    data, s0 = table()
    s = moving(s0, data, 0, "T01a", move=1)  # Movement 3
    s[S.ROMAN + SEC["T07a"]] = 1
    set_pouch(s, 0, gold=1)
    set_bag(s)
    assert gold_to("T07a") in legal(s, data)
    t = act(s, data, gold_to("T07a"))
    assert t[S.PHASE] == Q.PH_GOLD_RELOC and t[pb(0) + S.P_POS] == SEC["T07a"]
    assert pouch(t, 0) == {} and disc(t) == {"gold": 1}
    options = legal(t, data)
    assert S.A_PASS in options and roman_to("T09") in options
    assert roman_to("T07a") not in options and roman_to("T03") in options
    moved = act(t, data, roman_to("T09"))
    assert moved[S.ROMAN + SEC["T09"]] == 1 and moved[S.ROMAN + SEC["T07a"]] == 0
    assert moved[S.PHASE] == S.PH_MOVE and moved[S.MP] == 2
    u = act(act(moved, data, to("BEL.SE")), data, to("BEL"))  # on to Belgae via BEL.SE
    assert u[S.PHASE] == S.PH_MOVE and u[S.MP] == 1 and u[pb(0) + S.P_POS] == SEC["BEL"]
    left = act(t, data, S.A_PASS)  # or he leaves it there
    # moved onto the last free arm of Belgae: the conquest is completed at once
    arms = t.copy()
    arms[S.ROMAN + SEC["BEL.W"]] = 1
    arms[S.ROMAN + SEC["BEL.SW"]] = 1
    won = act(arms, data, roman_to("BEL.SE"))
    assert won[S.CONQ + BAS["Belgae"]] == 1 and won[S.ROMANS_OUT] == arms[S.ROMANS_OUT] + 1
    assert left[S.ROMAN + SEC["T07a"]] == 1 and left[S.PHASE] == S.PH_MOVE and left[S.MP] == 2
    # without gold: stopped on T07a, the turn is over
    s[qp(0) + Q.QP_ITEMS + ITEM["gold"]] = 0
    assert gold_to("T07a") not in legal(s, data)
    t = act(s, data, to("T07a"))
    assert t[pb(0) + S.P_POS] == SEC["T07a"] and t[S.CUR] == 1


def test_Q13_bread_and_horse():
    data, s0 = table()
    s = placed(s0, 0, "SC")
    completed(s, data, 0, "horse")
    set_pouch(s, 0, bread=1)
    set_bag(s)
    s = start_turn(s, data, 0)
    assert s[S.PHASE] == S.PH_MOVE and s[S.MP] == 3
    s = act(s, data, Q.A_BREAD)
    assert s[S.MP] == 4 and pouch(s, 0) == {} and disc(s) == {"bread": 1}
    moves = 0
    for sec in ("T01a", "T07a", "BEL.SE", "BEL", "BEL.W", "T02"):
        before = s[S.MP]
        s = act(s, data, to(sec))
        moves += before - s[S.MP]
    assert moves == 4 and s[S.MP] == 0
    assert to("SC") not in legal(s, data) and to("T09") not in legal(s, data)


def test_Q14_elixir_pack_sack():
    data, s0 = table()
    s = moving(s0, data, 0, "T10", carry=1)  # Carrying 2/0
    set_pouch(s, 0, elixir=1)
    assert Q.A_ELIXIR + spot(data, "T10", "wheat") in legal(s, data)
    t = act(s, data, Q.A_ELIXIR + spot(data, "T10", "wheat"))
    assert t[S.MOVE_ENDED] == 0 and pouch(t, 0) == {} and disc(t) == {"elixir": 1}
    assert to("T03") in legal(t, data)  # he keeps moving
    t = act(t, data, pick(data, "T10", "ore"))
    assert t[S.MOVE_ENDED] == 1 and carried(t, 0) == {"wheat": 1, "ore": 1}
    # Carrying 2/1 with Pack: 3/1; with Sack: 2/2 (the engine's capacity)
    s = moving(s0, data, 0, "T10", carry=2)
    assert tuple(board.capacity(s, data, 0)) == (2, 1)
    pack = s.copy()
    completed(pack, data, 0, "pack")
    assert tuple(board.capacity(pack, data, 0)) == (3, 1)
    sack = s.copy()
    completed(sack, data, 0, "sack")
    assert tuple(board.capacity(sack, data, 0)) == (2, 2)
    t = act(act(sack, data, pick(data, "T10", "wheat")), data, pick(data, "T10", "ore"))
    assert t[S.MOVE_ENDED] == 0  # two pick-ups without stopping
    carry(pack, 0, deer=2)
    assert pick(data, "T10", "wheat") in legal(pack, data)  # a third token fits


def test_Q15_wood_spirit():
    data, s0 = table()
    s = moving(s0, data, 0, "SC")
    completed(s, data, 0, "wood_spirit")
    spent = []
    for sec in ("T02", "T09", "T08"):
        before = s[S.MP]
        s = act(s, data, to(sec))
        spent.append(int(before - s[S.MP]))
    assert spent == [0, 1, 1] and s[S.MP] == 0  # 2 MP for 3 tile moves
    s = moving(s0, data, 0, "T09")
    completed(s, data, 0, "wood_spirit")
    s[S.MP] = 0
    assert to("T02") in legal(s, data) and to("PAR.E") not in legal(s, data)  # woods at 0 MP
    s = moving(s0, data, 0, "SC")
    completed(s, data, 0, "wood_spirit", "hill_spirit")
    for sec in ("T02", "T09", "T08"):
        s = act(s, data, to(sec))
    assert s[S.MP] == 2  # the same path costs 0


def test_Q16_talisman():
    data, s0 = table()
    s = placed(s0, 0, "T14")
    completed(s, data, 0, "talisman")
    set_bag(s, wheat=1, fish=1, ore=1)
    t = start_turn(s, data, 0)
    assert t[S.N_PENDING] == 3 and t[S.PHASE] == Q.PH_RETURN
    assert legal(t, data) == {S.A_ORDER + i for i in range(3)}
    slot = [i for i in range(3) if t[S.PENDING + i] == RES["fish"]][0]
    t = act(t, data, S.A_ORDER + slot)
    assert bag(t) == {"fish": 1} and "fish" not in disc(t)  # back unresolved
    assert t[S.N_PENDING] == 2 and t[S.PHASE] == S.PH_ORDER  # the other 2, in his order
    assert {int(t[S.PENDING + i]) for i in range(2)} == {RES["wheat"], RES["ore"]}
    # without the Talisman: 2 drawn, none returned
    s = placed(s0, 0, "T14")
    set_bag(s, wheat=1, fish=1, ore=1)
    t = start_turn(s, data, 0)
    assert t[S.N_PENDING] == 2 and t[S.PHASE] == S.PH_ORDER


def test_Q17_enchantment_with_romans_and_resources():
    data, s0 = table()
    s = placed(s0, 0, "T01a")
    s[S.ROMAN + SEC["T01a"]] = 1
    s[S.ROMAN + SEC["T01b"]] = 1
    s = placed(s, 1, "T01b")
    deer = spot(data, "T01b", "deer")
    assert s[S.SPOT + deer] == 1
    set_bag(s, druid=1)
    t = start_turn(s, data, 0)
    assert t[S.PHASE] == S.PH_RELOCATE  # he stands on a Roman: may move it first
    t = act(t, data, S.A_PASS)
    assert t[S.PHASE] == Q.PH_ENCHANT
    t = act(t, data, tile("T01"))
    assert t[S.SPOT + deer] == 0 and t[Q.SPOT_OUT + deer] == 2  # the deer left the game
    assert "deer" not in disc(t)
    assert t[S.ROMAN + SEC["T01a"]] + t[S.ROMAN + SEC["T01b"]] == 1  # 1 spot on that side
    assert disc(t)["roman"] == 1
    assert t[Q.TCRYST + TILE["T01"]] == 1 and t[Q.CRYSTAL_SUPPLY] == 15
    assert t[S.PHASE] == S.PH_MOVE and t[pb(0) + S.P_POS] == SEC["T01a"]
    assert t[pb(1) + S.P_POS] == SEC["T01a"]  # the other player, on T01b, is on it too
    options = legal(t, data)
    assert {to("SC"), to("T07a"), to("BEL.SW"), to("T13")} <= options  # one network
    assert Q.A_CRYSTAL in options
    u = act(t, data, to("T13"))
    assert u[S.MP] == 1


# ---------------------------------------------------------------------------------------------
# Q18, Q19: the map in the engine (also test_mapgen.py)
# ---------------------------------------------------------------------------------------------


def test_Q18_map_legality_of_the_engine_maps():
    """test_mapgen checks the legality rules themselves (examples A and B); here every map the
    engine plays (``play.game_graph``, one per game seed) is a legal layout by the independent
    checker, with at most 2 resource spots off the Stone Circle's roads."""
    setup = make_setup("celtic_quest", 3, {"map_mode": "generated"}, "random")
    for seed in range(25):
        built = generate_map(CAT, map_rng(seed), 3)
        assert check_layout(built.layout) == [], seed
        graph = game_graph(setup, seed)
        assert graph == section_graph(CAT, built.layout, COLUMNS)
        assert len(graph.unconnected_spots) <= 2


def test_Q19_face_down_tokens_in_the_engine():
    """A generated game with 2 spots off the Stone Circle's roads: those tokens are face down
    and out of play (§3.2): never picked up, never refilled, and a drawn token of that resource
    does not see them as empty."""
    setup = make_setup("celtic_quest", 2, {"map_mode": "generated"}, "random")
    seed = next(s for s in range(500) if len(game_graph(setup, s).unconnected_spots) == 2)
    data, s0 = table(2, map_mode="generated", map_seed=seed)
    down = [sp for sp in range(18) if s0[Q.SPOT_OUT + sp] == 1]
    assert len(down) == 2 and all(s0[S.SPOT + sp] == 0 for sp in down)
    for sp in down:
        assert data[Q.X_SEC_CONNECTED + data[O_SPOT_SEC + sp]] == 0
    sp = down[0]
    res = [n for n, i in RES.items() if i == data[O_SPOT_RES + sp]][0]
    # every in-play spot of that resource full: the drawn token is discarded (not placed there)
    s = placed(s0, 0, "SC")
    set_bag(s, **{res: 1})
    t = start_turn(s, data, 0)
    assert t[S.SPOT + sp] == 0 and t[S.DISC + RES[res]] == 1
    # one in-play spot of it empty: the token goes there without a choice
    others = [o for o in spots_of(data, res) if s0[Q.SPOT_OUT + o] == 0]
    s[S.SPOT + others[0]] = 0
    t = start_turn(s, data, 0)
    assert t[S.SPOT + others[0]] == 1 and t[S.SPOT + sp] == 0 and t[S.DISC + RES[res]] == 0
    # standing on the face-down spot's section, nothing can be picked up there
    sec = data[O_SPOT_SEC + sp]
    s = s0.copy()
    s[S.CUR] = 0
    s[S.PHASE] = S.PH_MOVE
    s[pb(0) + S.P_POS] = sec
    s[pb(0) + S.P_CARRY] = 4
    assert not any(S.A_SPOT <= a < S.A_SPOT + 24 for a in legal(s, data))


# ---------------------------------------------------------------------------------------------
# Q20-Q23: destinies and the score
# ---------------------------------------------------------------------------------------------


def _players_table(s, data, tie_break="most_quests"):
    """The players table (rank, win, quests) of a finished 2-player game in state ``s``: the
    engine's result row, its tie-break column set as ``play`` sets it, ranked by the core."""
    setup = make_setup("celtic_quest", 2, {"tie_break": tie_break}, "random")
    res = new_result(1, 2)
    scoring.write_results(s, data, 0, res.score, res.components, res.role, res.extras)
    assert (res.components[0].sum(axis=1) == res.score[0]).all()
    done, tie = PLAYER_EXTRAS.index("quests_completed"), PLAYER_EXTRAS.index("tiebreak_quests")
    res.extras[:, :, tie] = res.extras[:, :, done] if tie_break == "most_quests" else 0
    _, players = to_frames(setup, np.zeros(1, np.int64), np.zeros(1, np.uint64), res)
    return players


def test_Q20_tie_break():
    data, s = table(2, destinies=["trusted", "haggler"])
    s[S.OVER] = 1
    for seat, quests in ((0, 3), (1, 2)):
        s[pb(seat) + S.P_VP] = 61
        s[qp(seat) + Q.QP_NDONE] = quests
    players = _players_table(s, data)
    assert players["score"].to_list() == [61, 61]
    assert players["quests_completed"].to_list() == [3, 2]
    assert players["rank"].to_list() == [1, 2] and players["win"].to_list() == [1.0, 0.0]
    assert players["role"].to_list() == ["trusted", "haggler"]
    s[qp(1) + Q.QP_NDONE] = 3  # equal quests: they both win
    players = _players_table(s, data)
    assert players["rank"].to_list() == [1, 1] and players["win"].to_list() == [0.5, 0.5]
    s[qp(1) + Q.QP_NDONE] = 2  # lever tie_break = shared: tied scores share at once
    players = _players_table(s, data, tie_break="shared")
    assert players["win"].to_list() == [0.5, 0.5]


def test_Q21_advanced_destiny_deal():
    data, s = table(5, destinies=[None] * 5, advanced=True, luckiest=False)
    assert data[Q.X_RULES + Q.X_N_DESTINY_DECK] == 10
    cards = []
    for seat in range(5):
        q = qp(seat)
        assert s[q + Q.QP_DESTINY] == -1
        cards += [int(s[q + Q.QP_ALT0]), int(s[q + Q.QP_ALT0 + 1])]
    assert sorted(cards) == list(range(10))  # the 10 cards, 2 each; the Luckiest not among them
    set_bag(s)
    t = start_turn(s, data, 0)
    assert t[S.PHASE] == Q.PH_DESTINY and legal(t, data) == {Q.A_DESTINY, Q.A_DESTINY + 1}
    t = act(t, data, Q.A_DESTINY + 1)
    q = qp(0)
    assert t[q + Q.QP_DESTINY] == cards[1] and t[Q.DESTINY_OUT] == 1
    assert t[q + Q.QP_ALT0] == -1 and t[q + Q.QP_ALT0 + 1] == -1
    # set-up goes on: seat 1 keeps its card before seat 0 plays (test_choices.py, §4.11)
    assert t[S.CUR] == 1 and t[S.PHASE] == Q.PH_DESTINY
    # the basic game: 6 cards, one each, no choice
    data, s = table(5, destinies=[None] * 5)
    got = [int(s[qp(seat) + Q.QP_DESTINY]) for seat in range(5)]
    assert len(set(got)) == 5 and max(got) < 6
    for seat in range(5):  # the Celtic Trader role sharing the card's bonus (the bots read it)
        proxy = data[Q.X_DESTINY_PROXY + got[seat]]
        assert s[pb(seat) + S.P_ROLE] == proxy
    # a destiny given by seat (roles = [...]) is set up like a dealt one
    data, s = table(2, destinies=["fastest", "haggler"])
    for seat, d in enumerate(("fastest", "haggler")):
        assert s[qp(seat) + Q.QP_DESTINY] == DESTINY[d]
        assert s[pb(seat) + S.P_ROLE] == data[Q.X_DESTINY_PROXY + DESTINY[d]] >= 0


def test_Q22_cantii_regni_conquest():
    data, s0 = table()
    s = placed(s0, 1, "SC")
    set_bag(s, romanisation=1)
    t = start_turn(s, data, 1)
    assert t[S.PHASE] == S.PH_ROMANISE
    t = act(t, data, S.A_BAST + BAS["Regni"])
    assert t[S.CONQ + BAS["Regni"]] == 1
    assert not tiles.can_enchant(t, data, TILE["REG"])  # its Roman town never enchanted
    set_bag(t, druid=1)
    u = start_turn(placed(t, 0, "SC"), data, 0)
    assert u[S.PHASE] == Q.PH_ENCHANT
    assert tile("REG") not in legal(u, data) and tile("CAN") in legal(u, data)
    # enchanted Regni conquered (every arm of REG_E holds a Roman): its crystal is discarded
    s = s0.copy()
    enchant(s, data, "REG")
    assert s[Q.TCRYST + TILE["REG"]] == 1
    s[S.ROMAN + SEC["REG.NW"]] = 1
    s[S.ROMAN + SEC["REG.W"]] = 1
    s = placed(s, 1, "SC")
    set_bag(s, roman=1)
    t = start_turn(s, data, 1)
    assert t[S.PHASE] == S.PH_ROMAN and to("REG.E") in legal(t, data)
    t = act(t, data, to("REG.E"))
    assert t[S.CONQ + BAS["Regni"]] == 1 and t[Q.TCRYST + TILE["REG"]] == 0
    assert disc(t)["crystal"] == 1
    # its Roman town side: a garrison spot on the hub, none on the arms
    assert board.has_roman_spot(t, data, SEC["REG"])
    assert not any(board.has_roman_spot(t, data, SEC[a]) for a in ("REG.NW", "REG.W", "REG.E"))


def test_Q23_destiny_scoring():
    data, s = table(2, destinies=["mystic", "seeker"])
    s[pb(0) + S.P_VP] = 30
    completed(s, data, 0, "horse")
    s[qp(0) + Q.QP_CRYST_DONE] = 3
    s[Q.SPELL] = 9
    assert components(s, data, 0) == [30, 27, 6, 12] and sum(components(s, data, 0)) == 75
    # lever quest_vp_source = supply: the 6 VP are taken at completion, 36 + 27 + 12 = 75
    data, s0 = table(2, destinies=["mystic", "seeker"], quest_vp_source="supply")
    s = moving(s0, data, 0, "SC", carry=1)
    s[pb(0) + S.P_VP] = 30
    hold(s, 0, "horse")
    carry(s, 0, wheat=1, fish=1)
    set_bag(s)
    t = act(act(s, data, S.A_PASS), data, Q.A_QUEST + 0)
    t[qp(0) + Q.QP_CRYST_DONE] = 3
    t[Q.SPELL] = 9
    assert components(t, data, 0) == [36, 27, 0, 12]
    # the Seeker with 5 completed quests: bonus 32
    completed(s, data, 1, "pack", "sack", "harp", "net", "lyre")
    assert components(s, data, 1)[3] == 32


def test_Q24_quest_draw_at_a_bastion():
    data, s0 = table()
    s = moving(s0, data, 0, "ICE.NE")
    hold(s, 0, None)
    carry(s, 0, deer=1)
    set_bag(s)
    pile = s[Q.QPILE_N]
    t = act(act(s, data, to("ICE")), data, S.A_PASS)
    assert t[S.PHASE] == S.PH_DELIVER and Q.A_YES not in legal(t, data)
    t = act(t, data, deliver("deer", 1))
    assert t[S.PHASE] == Q.PH_QUEST_DRAW and legal(t, data) == {S.A_PASS, Q.A_YES}
    u = act(t, data, Q.A_YES)
    assert len(held(u, 0)) == 1 and u[Q.QPILE_N] == pile - 1 and u[S.CUR] == 1
    # nothing to deliver: he may still draw
    s2 = moving(s0, data, 0, "ICE")
    hold(s2, 0, None)
    assert act(s2, data, S.A_PASS)[S.PHASE] == Q.PH_QUEST_DRAW
    # still holding an uncompleted quest: no draw, the turn ends after the delivery
    hold(s, 0, "horse")
    t = act(act(act(s, data, to("ICE")), data, S.A_PASS), data, deliver("deer", 1))
    assert t[S.CUR] == 1 and held(t, 0) == [QUEST["horse"]]


def _t04_split_seed(players=2):
    setup = make_setup("celtic_quest", players, {"map_mode": "generated"}, "random")
    for seed in range(3000):
        g = game_graph(setup, seed)
        if "T04a" in g.connected and "T04b" not in g.connected:
            return seed
    raise AssertionError("no generated map with T04a connected and T04b not")


def _fastest_first_turn(seed, roman=None, **params):
    data, s = table(2, destinies=["fastest", "trusted"], map_mode="generated", map_seed=seed,
                    **params)  # fmt: skip
    if roman is not None:
        s[S.ROMAN + SEC[roman]] = 1
    set_bag(s)
    return data, start_turn(s, data, 0)


def test_Q25_first_placement():
    """A generated map where the bridge tile T04's network T04a reaches the Stone Circle and
    T04b does not (the fixed map connects both)."""
    seed = _t04_split_seed()
    data, s = _fastest_first_turn(seed)
    assert s[S.PHASE] == S.PH_START
    hills = [t.id for t in CAT.tiles if "hills" in t.terrain]
    assert "T04" in hills
    wanted = {
        S.A_SEC + sec
        for t in hills
        for sec in sections_of(data, t)
        if data[Q.X_SEC_CONNECTED + sec] == 1
    }
    assert legal(s, data) == wanted
    assert to("T04a") in wanted and to("T04b") not in legal(s, data)
    assert wanted - {to("T04a")}  # other hills tiles too
    # a Roman on the chosen start section: the turn ends at once
    data, s = _fastest_first_turn(seed, roman="T04a")
    assert pouch(s, 0) == {"gold": 1} and gold_to("T04a") in legal(s, data)
    t = act(s, data, to("T04a"))
    assert t[pb(0) + S.P_POS] == SEC["T04a"] and t[S.CUR] == 1 and carried(t, 0) == {}
    # with the gold discarded: not stopped, may move that Roman (or leave it), moves normally
    t = act(s, data, gold_to("T04a"))
    assert t[S.PHASE] == Q.PH_GOLD_RELOC and pouch(t, 0) == {} and disc(t) == {"gold": 1}
    left = act(t, data, S.A_PASS)
    assert left[S.PHASE] == S.PH_MOVE and left[S.ROMAN + SEC["T04a"]] == 1 and left[S.MP] == 2
    target = next(a for a in sorted(legal(t, data)) if a >= Q.A_ROMAN)
    moved = act(t, data, target)
    assert moved[S.PHASE] == S.PH_MOVE and moved[S.ROMAN + SEC["T04a"]] == 0
    assert moved[S.ROMAN + target - Q.A_ROMAN] == 1
    # lever relocate_first: he may move or leave the Roman without gold, then moves
    data, s = _fastest_first_turn(seed, roman="T04a", first_placement_on_roman="relocate_first")
    t = act(s, data, to("T04a"))
    assert t[S.PHASE] == S.PH_RELOCATE and t[S.CUR] == 0
    t = act(t, data, S.A_PASS)
    assert t[S.PHASE] == S.PH_MOVE and pouch(t, 0) == {"gold": 1}


def test_Q26_items_through_the_bag():
    data, s0 = table()
    # a used gold in the discard pile and a cycle token drawn: it returns to the bag (or, when
    # the draw that follows the cycle takes it, to the drawer's pouch)
    s = placed(s0, 1, "SC")
    set_pouch(s, 1)
    set_bag(s, cycle=1)
    s[S.DISC + Q.T_GOLD] = 1
    where = set()
    for seed in range(40):
        t = start_turn(s, data, 1, seed)
        assert t[S.DISC + Q.T_GOLD] == 0
        assert t[S.BAG + Q.T_GOLD] + pouch(t, 1).get("gold", 0) == 1
        where.add("bag" if t[S.BAG + Q.T_GOLD] else "pouch")
    assert "bag" in where
    # drawn by a player holding bread, ring and elixir: into the pouch, then one of the 4 out
    s = placed(s0, 0, "SC")
    set_pouch(s, 0, bread=1, ring=1, elixir=1)
    set_bag(s, gold=1)
    t = start_turn(s, data, 0)
    assert t[S.PHASE] == Q.PH_ITEM_DROP
    assert legal(t, data) == {Q.A_ITEM + i for i in range(4)}
    keep = act(t, data, Q.A_ITEM + ITEM["gold"])
    assert pouch(keep, 0) == {"bread": 1, "ring": 1, "elixir": 1} and disc(keep) == {"gold": 1}
    swap = act(t, data, Q.A_ITEM + ITEM["bread"])
    assert pouch(swap, 0) == {"gold": 1, "ring": 1, "elixir": 1} and disc(swap) == {"bread": 1}
    assert swap[S.PHASE] == S.PH_MOVE
    # with 2 items he simply keeps it
    set_pouch(s, 0, bread=1, ring=1)
    t = start_turn(s, data, 0)
    assert t[S.PHASE] == S.PH_MOVE and pouch(t, 0) == {"gold": 1, "bread": 1, "ring": 1}
    # lever items_after_use = removed_from_game: the used gold leaves the game
    data, s0 = table(items_after_use="removed_from_game")
    s = moving(s0, data, 0, "T01a")
    s[S.ROMAN + SEC["T07a"]] = 1
    set_bag(s)
    t = act(s, data, gold_to("T07a"))
    assert t[Q.ITEMS_OUT + ITEM["gold"]] == 1 and t[S.DISC + Q.T_GOLD] == 0
    t = placed(act(t, data, S.A_PASS), 1, "SC")
    set_bag(t, cycle=1)
    u = start_turn(t, data, 1)
    assert u[S.BAG + Q.T_GOLD] == 0 and pouch(u, 1) == {"bread": 1}
