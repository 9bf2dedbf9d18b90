"""The numbered scenarios G1-G18 of rules/catan-great-wall.md §11, one test each (named after
its number), on the §9 board. Seat i holds the fortress of the i-th wall section in play: at 4
players seat 0 W2, seat 1 W3, seat 2 W4, seat 3 W5.
"""

import numpy as np
import pytest

from sim.core.registry import make_setup
from sim.games.catan import state as S
from sim.games.catan.params import G_N_VERT as P_N_VERT
from sim.games.catan_great_wall import rules
from sim.games.catan_great_wall import state as G
from sim.games.catan_great_wall.params import board_for
from sim.games.catan_great_wall.play import play
from tests.games.catan_great_wall.helpers import (
    BRICK,
    GRAIN,
    I_,
    II,
    III,
    IV,
    LUMBER,
    ORE,
    WOOL,
    after_setup,
    apply,
    bag,
    books,
    data_for,
    field,
    give,
    hand,
    hexid,
    info,
    legal,
    main_phase,
    pre_roll,
    put_field,
    put_hex,
    put_territory,
    riders_on,
    roll,
    territory,
    vertex,
    vp,
    wall,
)


def _start(players=4, seed=1, **overrides):
    data = data_for(players, **overrides)
    return data, after_setup(data, players, seed)


def _corners(q, r):
    board = board_for(4)[0]
    return [int(v) for v in board.hex_vertices[board.hex_id(q, r)]]


def _free(s, data, candidates):
    from sim.games.catan.rules_placement import distance_ok

    return any(distance_ok(s, data, v) for v in candidates)


def test_G1_setup_gives_three_vp_and_the_full_bag_and_deck():
    for players, riders, deck in ((4, [7, 7, 7, 0, 0], 19), (6, [7] * 5, 28)):
        data, s = _start(players)
        assert s[S.PHASE] == S.PH_PRE_ROLL
        assert [vp(s, data, p) for p in range(players)] == [3] * players
        assert s[G.BAG : G.BAG + 5].tolist() == riders, "no rider drawn in setup (A15)"
        assert s[S.DECK_N] == deck
        # every fortress site holds exactly one fortress, one per seat
        owners = sorted(s[G.WALL_OWNER : G.WALL_OWNER + players].tolist())
        assert owners == list(range(players))


def _settlement_ready(s, data, seat):
    """Build roads for ``seat`` until a settlement place is legal (cards given as needed)."""
    for _ in range(8):
        from sim.games.catan.rules_placement import settle_ok

        settle = [v for v in range(96) if v < data[P_N_VERT] and settle_ok(s, data, seat, v)]
        if settle:
            return s, S.A_SETTLE + settle[0]
        give(s, seat, {LUMBER: 1, BRICK: 1})
        road = [a for a in legal(s, data) if S.A_ROAD <= a < S.A_ROLL]
        s = apply(s, road[0], data)
    raise AssertionError("no settlement place reached")


def test_G2_a_settlement_or_city_draws_a_rider_onto_its_numeral_a_road_none():
    data, s = _start()
    s = main_phase(s, 0)
    # only riders II in the bag: the draw must be a II (the others stand on their territories)
    put_territory(s, I_, 7)
    put_territory(s, III, 7)
    before = bag(s)
    give(s, 0, {LUMBER: 1, BRICK: 1})
    road = [a for a in legal(s, data) if S.A_ROAD <= a < S.A_ROLL][0]
    s = apply(s, road, data)
    assert bag(s) == before, "a road draws no rider"
    s, place = _settlement_ready(s, data, 0)
    give(s, 0, {LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1})
    s = apply(s, place, data)
    assert territory(s, II) == 1 and bag(s) == before - 1
    # then only riders III in the bag: a city draws a III
    s[G.TERR + III * 5 + III] -= 7
    s[G.BAG + III] += 7
    put_territory(s, II, s[G.BAG + II])
    give(s, 0, {GRAIN: 2, ORE: 3})
    s = apply(s, S.A_CITY + (place - S.A_SETTLE), data)
    assert territory(s, III) == 1 and s[G.BAG + III] == 6


def place_free(s, data, seat, candidates):
    """A settlement of ``seat`` on the first candidate vertex the distance rule allows."""
    from sim.games.catan.rules_placement import distance_ok

    for v in candidates:
        if distance_ok(s, data, v):
            s[S.V_OWNER + v] = seat
            s[S.SETTLE_LEFT + seat] -= 1
            rules.refresh_ports(s, data)
            return v
    raise AssertionError("no free candidate vertex")


def earned(s, data, seat, number, skip):
    """Cards ``seat`` earns on ``number`` from hexes other than ``skip`` (hexes free of
    riders; a recount from the board, for checking production)."""
    board = board_for(4)[0]
    total = 0
    for v in range(board.n_vertices):
        if s[S.V_OWNER + v] != seat:
            continue
        for h in board.vertex_hexes[v]:
            if h >= 0 and h != skip and s[S.HEX_NUMBER + h] == number and not s[G.HEX_RIDERS + h]:
                total += 1 + s[S.V_CITY + v]
    return total


def _g3():
    data, s = _start()
    w4 = wall(4, "W4")
    s[G.LEVEL + w4] = 1
    put_territory(s, II, 2)
    # a settlement of seat 1 on the fields 10 (4,2), to see the 10s produce
    place_free(s, data, 1, _corners(4, 2))
    return data, pre_roll(s, 0), w4


def test_G3_riders_march_before_production_and_break_through_above_the_level():
    data, s, w4 = _g3()
    grain = hand(s, 1)[GRAIN]
    s = roll(s, data, 10)
    assert field(s, w4) == 1 and territory(s, II) == 1 and s[G.BREACHES] == 0
    assert hand(s, 1)[GRAIN] == grain + 1, "the 10s produced"
    s = pre_roll(s, 0)
    s = roll(s, data, 10)
    assert s[G.BREACHES] == 1, "2 riders > level 1: breach"


def test_G4_breach_consequences_then_occupied_hexes_produce_nothing():
    data, s, w4 = _g3()
    s = roll(s, data, 10)
    s = pre_roll(s, 0)
    grain = hand(s, 1)[GRAIN]
    vp2 = vp(s, data, 2)
    s = roll(s, data, 10)
    assert riders_on(s, hexid(4, 4, 0)) == 1 and riders_on(s, hexid(4, 4, 1)) == 1
    assert field(s, w4) == 0 and s[G.LEVEL + w4] == 0
    assert s[G.PENALTY + 2] == 1 and vp(s, data, 2) == vp2 - 1, "W4's owner: -1 VP"
    assert s[G.BREACHES] == 1
    assert hand(s, 1)[GRAIN] == grain + 1, "production for 10 still runs"
    # a later 5: (4,0) hills 5 is occupied and gives W4's fortress nothing; (2,0) still gives
    s = pre_roll(s, 0)
    brick2, brick0 = hand(s, 2)[BRICK], hand(s, 0)[BRICK]
    s = roll(s, data, 5)
    assert hand(s, 2)[BRICK] == brick2 + earned(s, data, 2, 5, hexid(4, 4, 0))
    assert hand(s, 0)[BRICK] >= brick0 + 1, "W2's fortress on (2,0) hills 5 produces"


def test_G5_a_level_0_wall_breaks_at_the_first_rider():
    data, s = _start()
    w3 = wall(4, "W3")
    put_territory(s, I_, 1)
    s = roll(pre_roll(s, 0), data, 3)
    assert riders_on(s, hexid(4, 3, 0)) == 1 and s[G.LEVEL + w3] == 0
    assert s[G.PENALTY + 1] == 1 and s[G.BREACHES] == 1 and field(s, w3) == 0


def test_G6_first_breach_at_level_2_three_riders_in_path_order():
    data, s = _start()
    w4 = wall(4, "W4")
    s[G.LEVEL + w4] = 2
    put_field(s, w4, 2, II)
    put_territory(s, II, 1)
    s = roll(pre_roll(s, 0), data, 10)
    for q, r in ((4, 0), (4, 1), (3, 2)):
        assert riders_on(s, hexid(4, q, r)) == 1
    assert s[G.LEVEL + w4] == 1


def test_G7_successive_breaches_fill_gaps_then_highest_numbers_then_layers():
    data, s = _start()
    w3 = wall(4, "W3")
    h30, h31 = hexid(4, 3, 0), hexid(4, 3, 1)
    put_hex(s, h30)  # the earlier breach's rider still on (3,0)
    s[G.HEX_EVER + h31] = 1  # (3,1) emptied by a Knight: a gap
    s[G.PENALTY + 1] = 1
    s[G.EXTRA_VP + 1] = -1
    s[G.BREACHES] = 1
    s[G.LEVEL + w3] = 2
    put_field(s, w3, 2)
    put_territory(s, I_, 3)
    s = roll(pre_roll(s, 0), data, 3)
    assert riders_on(s, h31) == 1, "rider 1 fills the gap"
    assert riders_on(s, hexid(4, 1, 4)) == 1, "rider 2: fields 12"
    assert riders_on(s, hexid(4, 2, 2)) == 1, "rider 3: fields 8"
    assert s[G.LEVEL + w3] == 1
    s = roll(pre_roll(s, 0), data, 3)  # 1 rider on the field, level 1: no breach
    assert field(s, w3) == 1
    s = roll(pre_roll(s, 0), data, 3)  # 2 > 1: the next breach, 2 riders
    assert riders_on(s, hexid(4, 2, 3)) == 1, "the last free hex, forest 4"
    assert riders_on(s, h30) == 2, "then a second rider on the top hex"


def test_G7_variant_no_earlier_rider_left_means_path_order():
    data, s = _start()
    w3 = wall(4, "W3")
    h30, h31 = hexid(4, 3, 0), hexid(4, 3, 1)
    s[G.HEX_EVER + h30] = 1
    s[G.HEX_EVER + h31] = 1
    s[G.PENALTY + 1] = 1
    s[G.EXTRA_VP + 1] = -1
    s[G.BREACHES] = 1
    s[G.LEVEL + w3] = 2
    put_field(s, w3, 2)
    put_territory(s, I_, 1)
    s = roll(pre_roll(s, 0), data, 3)
    for q, r in ((3, 0), (3, 1), (2, 2)):
        assert riders_on(s, hexid(4, q, r)) == 1
    assert riders_on(s, hexid(4, 1, 4)) == 0


def test_G8_a_full_battlefield_takes_no_rider():
    data, s = _start()
    w5 = wall(4, "W5")
    s[G.LEVEL + w5] = 5
    put_field(s, w5, 5, III)
    put_territory(s, III, 2)
    s = roll(pre_roll(s, 0), data, 5)
    assert field(s, w5) == 5 and territory(s, III) == 2 and s[G.BREACHES] == 0


def test_G9_a_level_5_wall_is_safe_at_6_players():
    data, s = _start(6)
    w2 = wall(6, "W2")
    s[G.LEVEL + w2] = 5
    put_field(s, w2, 5, I_)
    put_territory(s, I_, 2)
    put_territory(s, IV, 2)
    out = s.copy()
    for dice in (9, 12) * 10:
        rules.migrate(out, data, dice)
    assert field(out, w2) == 5 and out[G.BREACHES] == 0
    assert territory(out, I_) == 2 and territory(out, IV) == 2
    books(out, data)


def test_G10_level_4_breach_puts_five_riders_one_per_hex_desert_included():
    data, s = _start()
    w2 = wall(4, "W2")
    s[G.LEVEL + w2] = 4
    put_field(s, w2, 4)
    put_territory(s, I_, 1)
    out = roll(pre_roll(s, 0), data, 9)
    for q, r in ((2, 0), (2, 1), (1, 2), (1, 3), (0, 4)):
        assert riders_on(out, hexid(4, q, r)) == 1
    assert out[G.LEVEL + w2] == 3 and out[G.PENALTY + 0] == 1 and field(out, w2) == 0


def test_G10_with_deserts_skipped_the_fifth_rider_doubles_the_top_hex():
    data, s = _start(attack_path_deserts="skip")
    w2 = wall(4, "W2")
    s[G.LEVEL + w2] = 4
    put_field(s, w2, 4)
    put_territory(s, I_, 1)
    out = roll(pre_roll(s, 0), data, 9)
    assert riders_on(out, hexid(4, 2, 1)) == 0, "the desert is skipped"
    assert riders_on(out, hexid(4, 2, 0)) == 2
    for q, r in ((1, 2), (1, 3), (0, 4)):
        assert riders_on(out, hexid(4, q, r)) == 1


@pytest.mark.parametrize(("players", "limit"), [(4, 5), (6, 7)])
def test_G11_the_last_breach_ends_the_game_with_no_winner(players, limit):
    data, s = _start(players)
    w3 = wall(players, "W3")
    s[G.PENALTY + 0] = limit - 1
    s[G.EXTRA_VP + 0] = -(limit - 1)
    s[G.BREACHES] = limit - 1
    put_territory(s, I_, 1)
    out = roll(pre_roll(s, 1), data, 3)
    assert out[S.OVER] == 1 and out[S.REASON] == G.R_WALL_BREACHED and out[S.WINNER] == -1
    assert out[G.BREACHES] == limit and out[G.PENALTY + out[G.WALL_OWNER + w3]] >= 1
    # in played games a defeat gives every seat a win of 0, ranks still order the losers
    setup = make_setup("catan_great_wall", players, {"breaches_to_lose": 1}, "random")
    result = play(setup, np.arange(30, dtype=np.uint64))
    lost = result.end_reason == G.R_WALL_BREACHED
    assert lost.any() and (result.win[lost] == 0).all()


def test_G12_seven_discards_pirate_blocks_its_harbour_steal_from_anyone():
    harbour = [vertex(4, 5, 0, "S"), vertex(4, 4, 2, "N")]
    seed = 1
    data, s = _start(seed=seed)
    while not _free(s, data, harbour):
        seed += 1
        data, s = _start(seed=seed)
    s = pre_roll(s, 0)
    for seat, n in ((1, 9), (2, 7)):
        give(s, seat, {LUMBER: n - s[S.HAND_N + seat]} if s[S.HAND_N + seat] <= n else {})
    assert s[S.HAND_N + 1] == 9 and s[S.HAND_N + 2] == 7
    # seat 3 on the generic harbour of the inlet (5,1)
    place_free(s, data, 3, harbour)
    assert s[S.PORTS + 3 * 6 + S.GENERIC] == 1
    fields = s[G.FIELD : G.FIELD + 30].copy()
    s = roll(s, data, 7, check=False)
    assert (s[G.FIELD : G.FIELD + 30] == fields).all(), "no rider moves on a 7"
    assert s[S.DISCARD_OWED + 1] == 4 and s[S.DISCARD_OWED + 2] == 0
    while s[S.PHASE] == S.PH_DISCARD:
        s = apply(s, [a for a in legal(s, data)][0], data, check=False)
    assert s[S.PHASE] == S.PH_ROBBER
    inlet = info(4)["sea"].index((5, 1))
    s = apply(s, G.A_PIRATE + inlet, data, check=False)
    assert s[S.PORTS + 3 * 6 + S.GENERIC] == 0, "no 3:1 trade while the pirate is there"
    assert s[S.PHASE] == S.PH_STEAL
    choices = legal(s, data)
    victims = [a - S.A_STEAL for a in choices if a != G.A_NO_STEAL]
    assert victims == [p for p in (1, 2, 3) if s[S.HAND_N + p] > 0], "any player with a card"
    # "peut piocher": P may also take no card; the turn then goes on with nothing stolen
    assert G.A_NO_STEAL in choices
    after = apply(s, G.A_NO_STEAL, data, check=False)
    assert after[S.PHASE] == s[S.RET_PHASE]
    assert (after[S.HAND : S.HAND + 4 * 5] == s[S.HAND : S.HAND + 4 * 5]).all()


def test_G13_knight_two_different_actions_of_three():
    data, s = _start()
    h31 = hexid(4, 3, 1)
    put_hex(s, h31, 1, I_)
    put_territory(s, I_, 1)
    s = pre_roll(s, 0)
    s[S.DEV + 0 * S.N_DEV + S.KNIGHT] = 1
    s[S.DECK + S.KNIGHT] -= 1
    s[S.DECK_N] -= 1
    bag0 = bag(s)
    s = apply(s, S.A_KNIGHT, data)
    assert s[S.PHASE] == G.PH_KNIGHT and s[S.KNIGHTS + 0] == 1
    s = apply(s, G.A_K_REMOVE + h31, data)
    assert riders_on(s, h31) == 0 and bag(s) == bag0 + 1
    assert not any(G.A_K_REMOVE <= a < G.A_K_DONE for a in legal(s, data)), "not twice"
    s = apply(s, G.A_K_MOVE + I_ * 5 + III, data)
    assert territory(s, I_) == 0 and territory(s, III) == 1
    assert s[S.PHASE] == S.PH_PRE_ROLL, "two actions: the pirate (a third) is not offered"


def test_G14_mightiest_knight_is_worth_one_vp():
    data, s = _start()
    s = pre_roll(s, 0)
    s[S.KNIGHTS + 0] = 2
    s[S.PLAYED + S.KNIGHT] = 2
    s[S.DEV + S.KNIGHT] = 1
    s[S.DECK + S.KNIGHT] -= 3
    s[S.DECK_N] -= 3
    before = vp(s, data, 0)
    s = apply(s, S.A_KNIGHT, data)
    assert s[S.LA_HOLDER] == 0 and vp(s, data, 0) == before + 1


def test_G15_wall_sections_in_order():
    data, s = _start()
    s = main_phase(s, 0)
    w2 = wall(4, "W2")
    s[G.LEVEL + w2] = 1
    for r in range(5):  # empty seat 0's hand
        n = s[S.HAND + r]
        s[S.HAND + r] = 0
        s[S.BANK + r] += n
    s[S.HAND_N + 0] = 0
    give(s, 0, {BRICK: 2, ORE: 1})  # section 3's cost only
    assert G.A_WALL not in legal(s, data), "section 3 before section 2"
    give(s, 0, {LUMBER: 1, BRICK: 1, GRAIN: 1})
    s = apply(s, G.A_WALL, data)
    s = apply(s, G.A_WALL, data)
    assert s[G.LEVEL + w2] == 3 and hand(s, 0).sum() == 0


def test_G16_win_counts_penalties_and_both_builds_draw_riders():
    data, s = _start()
    s = main_phase(s, 0)
    s, first = _settlement_ready(s, data, 0)
    give(s, 0, {LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1})
    s = apply(s, first, data)
    s, place = _settlement_ready(s, data, 0)
    s[S.DEV + S.VICTORY_POINT] = 2
    s[S.DECK + S.VICTORY_POINT] -= 2
    s[S.KNIGHTS + 0] = 3
    s[S.PLAYED + S.KNIGHT] = 3
    s[S.DECK + S.KNIGHT] -= 3
    s[S.DECK_N] -= 5
    s[S.LA_HOLDER] = 0
    fortress = vertex(4, 2, 0, "N")
    others = [v for v in range(96) if s[S.V_OWNER + v] == 0 and v != fortress]
    while vp(s, data, 0) < 9:  # upgrade non-fortress settlements to cities up to 9 VP
        v = others.pop()
        s[S.V_CITY + v] = 1
        s[S.CITIES_LEFT + 0] -= 1
        s[S.SETTLE_LEFT + 0] += 1
    assert vp(s, data, 0) == 9
    s[G.PENALTY + 0] = 1
    s[G.EXTRA_VP + 0] = -1
    s[G.BREACHES] = 1
    books(s, data)
    assert vp(s, data, 0) == 8
    give(s, 0, {GRAIN: 3, ORE: 3, LUMBER: 1, BRICK: 1, WOOL: 1})
    bag0 = bag(s)
    s = apply(s, S.A_CITY + fortress, data)
    assert vp(s, data, 0) == 9 and not s[S.OVER]
    s = apply(s, place, data)
    assert vp(s, data, 0) == 10 and s[S.OVER] and s[S.WINNER] == 0
    assert s[S.REASON] == S.R_VP_TARGET
    assert bag(s) == bag0 - 2, "both builds drew a rider"


def test_G17_eastern_special_case_riders_jump_the_inlet():
    data, s = _start()
    w5 = wall(4, "W5")
    s[G.LEVEL + w5] = 1
    put_field(s, w5, 1, III)
    put_territory(s, III, 1)
    out = roll(pre_roll(s, 0), data, 5)
    assert riders_on(out, hexid(4, 5, 0)) == 1 and riders_on(out, hexid(4, 4, 2)) == 1
    assert out[G.LEVEL + w5] == 0 and out[G.PENALTY + 3] == 1
    # at level 4 with 5 crossing: the path's four hexes, then a second rider on (5,0)
    s[G.LEVEL + w5] = 4
    put_field(s, w5, 3, III)
    out = roll(pre_roll(s, 0), data, 5)
    for q, r in ((4, 2), (4, 3), (3, 4)):
        assert riders_on(out, hexid(4, q, r)) == 1
    assert riders_on(out, hexid(4, 5, 0)) == 2


def test_G18_a_desert_ranks_last_among_free_hexes():
    data, s = _start()
    w2 = wall(4, "W2")
    put_hex(s, hexid(4, 2, 0))
    s[G.PENALTY + 0] = 1
    s[G.EXTRA_VP + 0] = -1
    s[G.BREACHES] = 1
    s[G.LEVEL + w2] = 2
    put_field(s, w2, 2)
    put_territory(s, I_, 3)
    s = roll(pre_roll(s, 0), data, 9)
    for q, r in ((1, 3), (1, 2), (0, 4)):
        assert riders_on(s, hexid(4, q, r)) == 1
    assert riders_on(s, hexid(4, 2, 1)) == 0 and s[G.LEVEL + w2] == 1
    s = roll(pre_roll(s, 0), data, 9)
    s = roll(pre_roll(s, 0), data, 9)
    assert riders_on(s, hexid(4, 2, 1)) == 1, "the desert at last"
    assert riders_on(s, hexid(4, 2, 0)) == 2
