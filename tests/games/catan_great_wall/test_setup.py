"""The Great Wall board data (§9's checked properties), setup (§3, A12, A15), and the levers of
§12 that the numbered scenarios do not cover."""

from collections import Counter

import numpy as np
import pytest

from sim.core.params import ParamError
from sim.games.catan import state as S
from sim.games.catan.board import vertex_neighbours, vertex_touching_hexes
from sim.games.catan.rules_shared import trade_ratio
from sim.games.catan_great_wall import params as P
from sim.games.catan_great_wall import rules
from sim.games.catan_great_wall import state as G
from strategies.catan.greedy import pips
from tests.games.catan_great_wall.helpers import (
    I_,
    III,
    WOOL,
    after_setup,
    apply,
    bag,
    data_for,
    fresh,
    give,
    hexid,
    info,
    legal,
    main_phase,
    pre_roll,
    put_hex,
    put_territory,
    riders_on,
    roll,
    territory,
    wall,
)

BASE_TOKENS = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]


def _land(players):
    board, inf = P.board_for(players)
    terr = Counter(inf["terrain"][h] for h in board.hexes)
    tokens = sorted(inf["number"][h] for h in board.hexes if inf["number"][h])
    return board, terr, tokens


def test_board_4_players_holds_the_base_terrain_and_tokens():
    board, terr, tokens = _land(4)
    assert board.n_hexes == 19
    assert terr == {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
    assert tokens == sorted(BASE_TOKENS)


def test_board_6_players_holds_the_extension_terrain_and_28_tokens():
    board, terr, tokens = _land(6)
    assert board.n_hexes == 29
    assert terr == {"forest": 6, "pasture": 6, "fields": 6, "hills": 5, "mountains": 5, "desert": 1}
    count = Counter(tokens)
    assert len(tokens) == 28 and count[2] == count[12] == 2
    assert all(count[n] == 3 for n in (3, 4, 5, 6, 8, 9, 10, 11))


@pytest.mark.parametrize("players", [4, 5, 6])
def test_fortress_sites_apart_each_on_the_top_of_its_path(players):
    board, inf = P.board_for(players)
    sites = [tuple(w["fortress_vertex"]) for w in inf["walls"]]
    assert len(sites) == players
    for a in sites:
        assert not set(vertex_neighbours(a)) & set(sites)
        land = [h for h in vertex_touching_hexes(a) if h in board.hexes]
        wall_def = next(w for w in inf["walls"] if tuple(w["fortress_vertex"]) == a)
        assert land == [tuple(wall_def["attack_path"][0])]


def test_sea_at_4_players_is_the_spec_list_and_the_pirate_starts_on_the_junk():
    spec = [(6, 0), (5, 1), (5, 2), (5, 3), (4, 4), (-1, 5), (0, 5), (1, 5), (2, 5), (3, 5)]
    assert sorted(info(4)["sea"]) == sorted(spec)
    data = data_for(4)
    s = fresh(data)
    assert info(4)["sea"][s[G.PIRATE]] == (6, 0) and s[S.ROBBER] == -1


def test_arrow_probability_per_battlefield_and_per_territory():
    data = data_for(4)
    arrows = P.table(data, "arrows")
    per_wall = Counter()
    for t in range(3):
        assert sum(pips(int(arrows[t, j, 0])) for j in range(2)) == 6  # 6/36 per territory
        for j in range(2):
            per_wall[int(arrows[t, j, 1])] += pips(int(arrows[t, j, 0]))
    ids = [w["id"] for w in info(4)["walls"]]
    assert {ids[w]: n for w, n in per_wall.items()} == {"W2": 4, "W3": 5, "W4": 5, "W5": 4}


def test_fortress_order_clockwise_from_the_high_roller_then_the_snake_from_the_last():
    data = data_for(4, start_seat=2)
    s = fresh(data)
    order = []
    for w in range(4):
        order.append(int(s[S.SEAT]))
        s = apply(s, G.A_FORTRESS + w, data)
    assert order == [2, 3, 0, 1]
    assert s[S.PHASE] == S.PH_SETUP_SETTLE and s[S.SEAT] == 1, "last placer starts the snake"
    assert s[S.HAND_N : S.HAND_N + 4].sum() == 0, "a fortress gives no resources"
    assert (s[S.E_OWNER : S.E_OWNER + S.MAX_E] == -1).all(), "and no road"


@pytest.mark.parametrize(("lever", "first"), [("first_regular_placer", 1), ("fortress_starter", 2)])
def test_first_turn_lever(lever, first):
    data = data_for(4, start_seat=2, first_turn=lever)
    s = fresh(data)
    for w in range(4):
        s = apply(s, G.A_FORTRESS + w, data)
    r = np.array([1, 2, 3, 4], np.uint64)
    buf = np.zeros(G.GW_MAX_ACTIONS, np.int32)
    from strategies.catan_great_wall import random_action

    while s[S.PHASE] in (S.PH_SETUP_SETTLE, S.PH_SETUP_ROAD):
        s = apply(s, random_action(s, data, s[S.SEAT], np.zeros(1), r, buf), data)
    assert s[S.PHASE] == S.PH_PRE_ROLL and s[S.CUR] == first and s[S.ROUND] == 1
    assert s[S.TURNS] == 1 and s[S.TURNS_TAKEN : S.TURNS_TAKEN + 4].sum() == 1
    assert bag(s) == 21, "no rider drawn in setup (A15)"


def test_setup_resources_none():
    data = data_for(4, setup_resources="none")
    s = after_setup(data)
    assert s[S.HAND_N : S.HAND_N + 4].sum() == 0
    s = after_setup(data_for(4))
    assert s[S.HAND_N : S.HAND_N + 4].sum() > 0


def test_six_player_decks_lever():
    big, small = data_for(6), data_for(6, gw_6p_decks="base_only")
    assert fresh(big, 6)[S.DECK_N] == 28 and fresh(big, 6)[S.BANK] == 24
    assert fresh(small, 6, 1)[S.DECK_N] == 19 and fresh(small, 6)[S.BANK] == 19


def test_five_players_is_not_a_fortress_count_mismatch():
    s = after_setup(data_for(5), 5)
    assert sorted(s[G.WALL_OWNER : G.WALL_OWNER + 5].tolist()) == [0, 1, 2, 3, 4]
    assert bag(s) == 28


def test_numerals_in_play_cannot_exceed_the_territories():
    with pytest.raises(ParamError, match="numerals_in_play"):
        data_for(4, numerals_in_play=5)


def test_pirate_steal_any_player_off_needs_a_building_on_the_sea_hex():
    data = data_for(4, pirate_steal_any_player=False)
    s = after_setup(data)
    for p in range(4):
        give(s, p, {WOOL: 1})
    s = main_phase(s, 0)
    s[S.PHASE] = S.PH_ROBBER
    s[S.RET_PHASE] = S.PH_MAIN
    far = info(4)["sea"].index((6, 0))  # the junk's hex touches one land hex only
    s[G.PIRATE] = info(4)["sea"].index((5, 3))
    out = apply(s, G.A_PIRATE + far, data)
    sea_v = P.table(data, "sea_vertices")[far]
    owners = {int(out[S.V_OWNER + v]) for v in sea_v if v >= 0} - {-1, 0}
    if owners:
        assert out[S.PHASE] == S.PH_STEAL
        assert {a - S.A_STEAL for a in legal(out, data)} == owners
    else:
        assert out[S.PHASE] == S.PH_MAIN, "nobody to steal from: back to the main phase"


def test_pirate_blocks_trade_at_its_harbour_only():
    data = data_for(4)
    s = after_setup(data)
    inlet = info(4)["sea"].index((5, 1))
    slot = int(np.flatnonzero(P.table(data, "slot_sea") == inlet)[0])
    v = int(P.table(data, "slot_vertices")[slot][0])
    owner = int(s[S.V_OWNER + v])
    if owner < 0:  # put a building there if the random setup left it free
        owner = 0
        s[S.V_OWNER + v] = 0
        s[S.SETTLE_LEFT] -= 1
    rules.refresh_ports(s, data)
    assert trade_ratio(s, data, owner, WOOL) <= 3
    s[G.PIRATE] = inlet
    rules.refresh_ports(s, data)
    assert s[S.PORTS + owner * 6 + S.GENERIC] == 0
    assert trade_ratio(s, data, owner, WOOL) == (2 if s[S.PORTS + owner * 6 + WOOL] else 4)


def test_knight_actions_lever_three_allows_the_pirate_too():
    data = data_for(4, knight_actions=3)
    s = after_setup(data)
    put_territory(s, I_, 1)
    put_hex(s, hexid(4, 3, 1))
    s = pre_roll(s, 0)
    s[S.DEV + S.KNIGHT] = 1
    s[S.DECK + S.KNIGHT] -= 1
    s[S.DECK_N] -= 1
    s = apply(s, S.A_KNIGHT, data)
    s = apply(s, G.A_K_REMOVE + hexid(4, 3, 1), data)
    s = apply(s, G.A_K_MOVE + I_ * 5 + III, data)
    assert s[S.PHASE] == G.PH_KNIGHT
    pirate = [a for a in legal(s, data) if G.A_PIRATE <= a < G.A_K_MOVE]
    assert pirate and G.A_K_DONE in legal(s, data)
    s = apply(s, G.A_K_DONE, data)
    assert s[S.PHASE] == S.PH_PRE_ROLL


def test_successive_fill_by_probability_lever():
    data = data_for(4, successive_fill_order="highest_probability")
    s = after_setup(data)
    w2 = wall(4, "W2")
    put_hex(s, hexid(4, 2, 0))
    s[G.PENALTY] = 1
    s[G.EXTRA_VP] = -1
    s[G.BREACHES] = 1
    s[G.LEVEL + w2] = 0
    put_territory(s, I_, 1)
    s = roll(pre_roll(s, 0), data, 9)
    assert riders_on(s, hexid(4, 0, 4)) == 1, "a 6 (5 pips) first, not the 11"


def test_board_mode_shuffle_thirds_keeps_each_third_and_the_tokens():
    data = data_for(6, board_mode="shuffle_thirds")
    fixed = data_for(6)
    a, b = fresh(data, 6, seed=3), fresh(fixed, 6)
    third = P.table(data, "hex_third")
    n = P.board_for(6)[0].n_hexes
    moved = False
    for t in range(3):
        idx = [h for h in range(n) if third[h] == t]
        for off in (S.HEX_TERRAIN, S.HEX_NUMBER):
            assert sorted(a[off + h] for h in idx) == sorted(b[off + h] for h in idx)
        moved |= any(a[S.HEX_TERRAIN + h] != b[S.HEX_TERRAIN + h] for h in idx)
        assert all((a[S.HEX_NUMBER + h] == 0) == (a[S.HEX_TERRAIN + h] == 5) for h in idx)
    assert moved


def test_an_empty_bag_draws_nothing_and_two_arrows_of_one_number_both_march():
    data = data_for(4, attack_numbers="9,3;9,10;11,5;6,12;8,2")
    s = after_setup(data)
    put_territory(s, I_, 1)
    put_territory(s, 1, 1)
    w2, w3 = wall(4, "W2"), wall(4, "W3")
    s[G.LEVEL + w2] = 2
    s[G.LEVEL + w3] = 2
    s = roll(pre_roll(s, 0), data, 9)
    assert territory(s, I_) == 0 and territory(s, 1) == 0
    out = s.copy()
    out[G.BAG : G.BAG + 5] = 0
    rules.draw_riders(out, data, np.array([1, 2, 3, 4], np.uint64))
    assert (out[G.TERR : G.TERR + 25] == s[G.TERR : G.TERR + 25]).all()
