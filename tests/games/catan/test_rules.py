"""Catan rules beyond the numbered scenarios: placement (distance rule, roads, setup roads),
piece limits, cities, the robber and steals, Road Building, Year of Plenty, buying, and the
Longest Road resolutions of A3. Board picture: see test_scenarios.py."""

import numpy as np

from sim.games.catan import rules
from sim.games.catan import state as S
from tests.games.catan.helpers import (
    BRICK,
    GRAIN,
    LUMBER,
    ORE,
    WOOL,
    apply,
    board,
    data_for,
    dealt,
    hand,
    legal,
    make_state,
    vp,
)

B = board(4)
SETTLEMENT = {LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1}
ROAD = {LUMBER: 1, BRICK: 1}


def V(q, r, side):
    return B.vertex_id(q, r, side)


def E(a, b):
    return B.edge_id(a, b)


def _settles(acts):
    return {a - S.A_SETTLE for a in acts if S.A_SETTLE <= a < S.A_CITY}


def _roads(acts):
    return {a - S.A_ROAD for a in acts if S.A_ROAD <= a < S.A_ROLL}


def test_setup_distance_rule_and_road_at_the_new_settlement():
    data = data_for(4)
    s = dealt(data, 4, 1)
    v = V(0, 0, "N")
    assert len(_settles(legal(s, data))) == 54
    s = apply(s, S.A_SETTLE + v, data)
    assert _roads(legal(s, data)) == {int(e) for e in B.vertex_edges[v] if e >= 0}
    s = apply(s, S.A_ROAD + int(B.vertex_edges[v][0]), data)
    free = _settles(legal(s, data))
    assert v not in free and not free & {int(w) for w in B.vertex_vertices[v] if w >= 0}
    assert len(free) == 54 - 1 - 3


def test_settlement_needs_own_road_and_the_distance_rule():
    data = data_for(4)
    a, b, c = V(0, 0, "N"), V(1, -1, "S"), V(1, 0, "N")  # a path a - b - c
    s = make_state(data, settlements={0: [a]}, roads={0: [E(a, b), E(b, c)]}, hands={0: SETTLEMENT})
    assert _settles(legal(s, data)) == {c}, "b is next to a; only c, at distance 2"
    s2 = make_state(data, settlements={0: [a]}, roads={0: [E(a, b)]}, hands={0: SETTLEMENT})
    assert _settles(legal(s2, data)) == set()


def test_road_cannot_pass_through_an_opponent_building():
    data = data_for(4)
    a, b = V(0, 0, "N"), V(1, -1, "S")
    s = make_state(data, settlements={0: [a], 1: [b]}, roads={0: [E(a, b)]}, hands={0: ROAD})
    beyond = {int(e) for e in B.vertex_edges[b] if e >= 0} - {E(a, b)}
    offered = _roads(legal(s, data))
    assert not offered & beyond, "no road through seat 1's settlement"
    assert offered == {int(e) for e in B.vertex_edges[a] if e >= 0} - {E(a, b)}


def test_piece_limits_and_city_returns_a_settlement_piece():
    data = data_for(4, settlements=2, cities=1)
    a, c = V(0, 0, "N"), V(1, 0, "N")
    b = V(1, -1, "S")
    s = make_state(
        data,
        settlements={0: [a, c]},
        roads={0: [E(a, b), E(b, c)]},
        hands={0: {**SETTLEMENT, GRAIN: 5, ORE: 6}},
    )
    acts = legal(s, data)
    assert _settles(acts) == set(), "no settlement piece left"
    assert {x - S.A_CITY for x in acts if S.A_CITY <= x < S.A_ROAD} == {a, c}
    s = apply(s, S.A_CITY + a, data)
    assert s[S.V_CITY + a] == 1 and s[S.SETTLE_LEFT] == 1 and s[S.CITIES_LEFT] == 0
    assert list(hand(s, 0)) == [1, 1, 1, 3, 3] and vp(s, data, 0) == 3
    acts = legal(s, data)
    assert not any(S.A_CITY <= x < S.A_ROAD for x in acts), "no city piece left"


def test_road_pieces_run_out():
    data = data_for(4, roads=2)
    a, b, c = V(0, 0, "N"), V(1, -1, "S"), V(1, 0, "N")
    s = make_state(data, settlements={0: [a]}, roads={0: [E(a, b), E(b, c)]}, hands={0: ROAD})
    assert _roads(legal(s, data)) == set()


def test_robber_steals_only_from_eligible_opponents():
    data = data_for(4)
    h = B.hex_id(0, 0)
    corners = B.hex_vertices[h]
    s = make_state(
        data,
        phase=S.PH_ROBBER,
        settlements={0: [corners[0]], 1: [corners[2]], 2: [corners[4]]},
        hands={1: {WOOL: 1}},  # seat 2 has no card: not eligible; seat 0 is the thief
        robber=B.hex_id(2, -2),
    )
    s = apply(s, S.A_ROBBER + h, data)
    assert s[S.PHASE] == S.PH_STEAL and legal(s, data) == [S.A_STEAL + 1]
    s = apply(s, S.A_STEAL + 1, data)
    assert list(hand(s, 0)) == [0, 0, 1, 0, 0] and s[S.HAND_N + 1] == 0
    assert s[S.PHASE] == S.PH_MAIN
    # a hex without eligible victims: straight back
    s = make_state(data, phase=S.PH_ROBBER, robber=B.hex_id(2, -2))
    s = apply(s, S.A_ROBBER + h, data)
    assert s[S.PHASE] == S.PH_MAIN and s[S.ROBBER] == h


def test_knight_before_the_roll_returns_to_the_roll():
    data = data_for(4)
    s = make_state(data, phase=S.PH_PRE_ROLL, dev={0: {S.KNIGHT: 1}}, robber=B.hex_id(2, -2))
    s = apply(s, S.A_KNIGHT, data)
    assert s[S.PHASE] == S.PH_ROBBER and s[S.KNIGHTS] == 1
    s = apply(s, S.A_ROBBER + 0, data)
    assert s[S.PHASE] == S.PH_PRE_ROLL and legal(s, data) == [S.A_ROLL]


def test_road_building_places_two_free_roads():
    data = data_for(4)
    a, b, c = V(0, 0, "N"), V(1, -1, "S"), V(1, 0, "N")
    s = make_state(data, settlements={0: [a]}, dev={0: {S.ROAD_BUILDING: 1}})
    s = apply(s, S.A_ROAD_BUILDING, data)
    assert s[S.PHASE] == S.PH_ROAD_BUILDING and s[S.FREE_ROADS] == 2
    s = apply(s, S.A_ROAD + E(a, b), data)
    assert s[S.PHASE] == S.PH_ROAD_BUILDING
    s = apply(s, S.A_ROAD + E(b, c), data)
    assert s[S.PHASE] == S.PH_MAIN and s[S.ROADS_LEFT] == 13 and hand(s, 0).sum() == 0
    assert S.A_ROAD_BUILDING not in legal(s, data) and s[S.DEV_PLAYED] == 1


def test_road_building_with_one_road_piece_left():
    data = data_for(4, roads=2)
    a, b = V(0, 0, "N"), V(1, -1, "S")
    s = make_state(data, settlements={0: [a]}, roads={0: [E(a, b)]}, dev={0: {S.ROAD_BUILDING: 1}})
    s = apply(s, S.A_ROAD_BUILDING, data)
    assert s[S.FREE_ROADS] == 1
    s = apply(s, legal(s, data)[0], data)
    assert s[S.PHASE] == S.PH_MAIN and s[S.ROADS_LEFT] == 0


def test_year_of_plenty_takes_only_what_the_bank_holds():
    data = data_for(4)
    s = make_state(data, dev={0: {S.YEAR_OF_PLENTY: 1}}, hands={1: {ORE: 19}})
    s = apply(s, S.A_YOP, data)
    assert S.A_PICK + ORE not in legal(s, data) and len(legal(s, data)) == 4
    s = apply(s, S.A_PICK + BRICK, data)
    s = apply(s, S.A_PICK + BRICK, data)
    assert hand(s, 0)[BRICK] == 2 and s[S.PHASE] == S.PH_MAIN


def test_buying_draws_from_the_deck_and_stops_when_empty():
    data = data_for(
        4,
        dev_knight=1,
        dev_road_building=0,
        dev_year_of_plenty=0,
        dev_monopoly=0,
        dev_victory_point=0,
    )
    s = make_state(data, hands={0: {WOOL: 2, GRAIN: 2, ORE: 2}})
    s = apply(s, S.A_BUY, data)
    assert s[S.DEV_NEW + S.KNIGHT] == 1 and s[S.DECK_N] == 0
    assert S.A_BUY not in legal(s, data), "the deck is empty"


def _paths(n, start):
    """Every simple path of ``n`` edges (vertex lists) from ``start``, depth first."""

    def walk(path):
        if len(path) == n + 1:
            yield path
            return
        for w in B.vertex_vertices[path[-1]]:
            if w >= 0 and w not in path:
                yield from walk([*path, int(w)])

    yield from walk([start])


def _line(n, start, cut=None):
    """The first simple path of ``n`` edges from ``start``; with ``cut``, one whose vertex
    ``cut`` has a third edge (where an opponent's road can reach it)."""
    for p in _paths(n, start):
        if cut is None or (B.vertex_vertices[p[cut]] >= 0).sum() == 3:
            return p
    return None


def test_longest_road_needs_a_strictly_longer_road_to_change_hands():
    data = data_for(4)
    p0 = _line(5, V(0, -2, "N"))
    p1 = _line(6, V(0, 2, "S"))
    assert not set(p0) & set(p1)
    e0 = [E(a, b) for a, b in zip(p0, p0[1:], strict=False)]
    e1 = [E(a, b) for a, b in zip(p1, p1[1:], strict=False)]
    s = make_state(data, roads={0: e0, 1: e1[:4]}, cur=1, hands={1: {LUMBER: 2, BRICK: 2}})
    s[S.LR_HOLDER] = 0
    s = apply(s, S.A_ROAD + e1[4], data)
    assert s[S.ROAD_LEN + 1] == 5 and s[S.LR_HOLDER] == 0, "a tie does not take the card"
    s = apply(s, S.A_ROAD + e1[5], data)
    assert s[S.LR_HOLDER] == 1


def test_A3_broken_holder_and_a_tie_set_the_card_aside():
    """Seat 0 holds with 7; seat 2's settlement cuts it into 3 + 4; seats 1 and 3 have 5
    each: a tie for the longest, so the card is set aside until a unique longest road."""
    data = data_for(4)
    p0 = _line(7, V(0, -2, "N"), cut=3)
    mid = p0[3]
    e0 = [E(a, b) for a, b in zip(p0, p0[1:], strict=False)]
    spur = next(int(e) for e in B.vertex_edges[mid] if e >= 0 and int(e) not in e0)
    used = set(p0) | {int(w) for w in B.vertex_vertices[mid] if w >= 0}
    others = []
    for start in (V(0, 2, "S"), V(-2, 2, "S"), V(2, 0, "S"), V(-2, 0, "N")):
        path = _line(5, start)
        if path and not set(path) & used:
            others.append(path)
            used |= set(path)
        if len(others) == 2:
            break
    assert len(others) == 2
    e1 = [E(a, b) for a, b in zip(others[0], others[0][1:], strict=False)]
    e3 = [E(a, b) for a, b in zip(others[1], others[1][1:], strict=False)]
    s = make_state(data, roads={0: e0, 1: e1, 2: [spur], 3: e3}, cur=2, hands={2: SETTLEMENT})
    s[S.LR_HOLDER] = 0
    assert [int(s[S.ROAD_LEN + p]) for p in range(4)] == [7, 5, 1, 5]
    s = apply(s, S.A_SETTLE + mid, data)
    assert s[S.ROAD_LEN] == 4 and s[S.LR_HOLDER] == -1


def test_A3_broken_holder_still_among_the_longest_keeps_the_card():
    data = data_for(4)
    p0 = _line(7, V(0, -2, "N"), cut=2)
    e0 = [E(a, b) for a, b in zip(p0, p0[1:], strict=False)]
    cut = p0[2]  # 2 + 5: seat 0 keeps 5
    spur = next(int(e) for e in B.vertex_edges[cut] if e >= 0 and int(e) not in e0)
    used = set(p0) | {int(w) for w in B.vertex_vertices[cut] if w >= 0}
    other = next(
        p
        for p in (_line(5, v) for v in (V(0, 2, "S"), V(-2, 2, "S"), V(2, 0, "S")))
        if p and not set(p) & used
    )
    e1 = [E(a, b) for a, b in zip(other, other[1:], strict=False)]
    s = make_state(data, roads={0: e0, 1: e1, 2: [spur]}, cur=2, hands={2: SETTLEMENT})
    s[S.LR_HOLDER] = 0
    s = apply(s, S.A_SETTLE + cut, data)
    assert s[S.ROAD_LEN] == 5 and s[S.ROAD_LEN + 1] == 5 and s[S.LR_HOLDER] == 0


def test_win_needs_the_players_own_turn():
    """Seat 1 reaches 10 by taking Longest Road when seat 0 breaks seat 2's road during seat
    0's turn: the game goes on until seat 1's turn starts."""
    data = data_for(4)
    s = make_state(data)
    s[S.LR_HOLDER] = -1
    # seat 1 at 10 VP outside its turn: 4 cities + 2 VP cards
    vs = [V(0, -2, "N"), V(2, -2, "N"), V(-2, 0, "N"), V(0, 2, "S")]
    s = make_state(data, cities={1: vs}, dev={1: {S.VICTORY_POINT: 2}}, cur=0)
    assert vp(s, data, 1) == 10
    s = apply(s, S.A_END, data)  # seat 0 ends its turn: seat 1's turn starts and he wins
    assert rules.is_over(s) and s[S.WINNER] == 1 and s[S.CUR] == 1


def test_step_never_modifies_its_input_on_every_phase():
    data = data_for(6)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    out = np.zeros(S.STATE_LEN, np.int32)
    s = dealt(data, 6, 5)
    pick = np.random.default_rng(1)
    phases = set()
    from tests.games.catan.helpers import rng

    r = rng(3)
    for _ in range(3000):
        if rules.is_over(s):
            break
        phases.add(int(s[S.PHASE]))
        n = rules.legal_actions(s, data, buf)
        before = s.copy()
        rules.step(s, buf[int(pick.integers(n))], data, r, out)
        assert (s == before).all()
        s, out = out.copy(), s
    assert {S.PH_SETUP_SETTLE, S.PH_PRE_ROLL, S.PH_MAIN, S.PH_SBP, S.PH_ROBBER} <= phases
