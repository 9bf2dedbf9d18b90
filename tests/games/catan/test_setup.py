"""Catan setup kernel (rules/catan-base.md §3.1-3.2): terrain and harbour shuffles, number
tokens by the spiral or at random with no 6 next to an 8, the robber on the desert, bank, deck,
pieces; the same seed gives the same board."""

import itertools
from collections import Counter

import numpy as np
import pytest

from sim.games.catan import params as P
from sim.games.catan import state as S
from sim.games.catan.rules_setup import place_numbers, red_adjacent
from tests.games.catan.helpers import DESERT, board, data_for, dealt, rng

SEEDS = range(300)


def _numbers(s, n_hex):
    return [int(x) for x in s[S.HEX_NUMBER : S.HEX_NUMBER + n_hex]]


def _terrain(s, n_hex):
    return [int(x) for x in s[S.HEX_TERRAIN : S.HEX_TERRAIN + n_hex]]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("placement", ["spiral", "random_no_red_adjacent"])
def test_pools_robber_bank_deck_pieces(players, placement):
    data = data_for(players, number_placement=placement)
    b = board(players)
    terr_pool, tokens, harb_pool = P.board_pools(b.name)
    for seed in range(40):
        s = dealt(data, players, seed)
        terrain = _terrain(s, b.n_hexes)
        numbers = _numbers(s, b.n_hexes)
        assert Counter(terrain) == {t: c for t, c in enumerate(terr_pool) if c}
        assert sorted(n for n in numbers if n) == sorted(tokens), "token multiset"
        assert all((n == 0) == (t == DESERT) for t, n in zip(terrain, numbers, strict=True))
        assert terrain[s[S.ROBBER]] == DESERT
        assert s[S.ROBBER] == terrain.index(DESERT), "the robber starts on the first desert"
        harbours = [int(x) for x in s[S.SLOT_TYPE : S.SLOT_TYPE + b.n_slots]]
        assert Counter(harbours) == {t: c for t, c in enumerate(harb_pool) if c}
        assert (s[S.SLOT_TYPE + b.n_slots : S.SLOT_TYPE + S.MAX_SLOTS] == -1).all()
        bank = 19 if players <= 4 else 24
        assert (s[S.BANK : S.BANK + 5] == bank).all()
        assert s[S.DECK_N] == (25 if players <= 4 else 34)
        assert (s[S.V_OWNER : S.V_OWNER + S.MAX_V] == -1).all()
        assert (s[S.E_OWNER : S.E_OWNER + S.MAX_E] == -1).all()
        assert (s[S.ROADS_LEFT : S.ROADS_LEFT + players] == 15).all()
        assert (s[S.SETTLE_LEFT : S.SETTLE_LEFT + players] == 5).all()
        assert (s[S.CITIES_LEFT : S.CITIES_LEFT + players] == 4).all()
        assert s[S.PHASE] == S.PH_SETUP_SETTLE and s[S.SEAT] == 0 and s[S.CUR] == 0
        assert s[S.LR_HOLDER] == -1 and s[S.LA_HOLDER] == -1 and s[S.OVER] == 0


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("placement", ["spiral", "random_no_red_adjacent"])
def test_no_6_next_to_8_over_many_seeds(players, placement):
    data = data_for(players, number_placement=placement)
    b = board(players)
    for seed in SEEDS:
        s = dealt(data, players, seed)
        numbers = _numbers(s, b.n_hexes)
        for h, n in enumerate(numbers):
            if n in (6, 8):
                for m in b.hex_neighbours[h]:
                    assert m < 0 or numbers[m] not in (6, 8), (seed, h, m)
        assert not red_adjacent(s, data)


@pytest.mark.parametrize("players", [5, 6])
def test_section_9_2_the_printed_5_6_spiral_never_puts_6_and_8_side_by_side(players):
    """§9.2: "The spiral token order never puts 6 and 8 next to each other, for any desert
    position and rotation". The setup kernel deals the large board's tokens (the printed 5-6
    order) along each rotation the engine can draw, for every pair of desert hexes the terrain
    shuffle can produce: no 6 or 8 ever touches another 6 or 8."""
    base = data_for(players)
    b = board(players)
    n_hex, n_rot = b.n_hexes, int(base[P.G_ROTATIONS])
    terrains, tokens, _ = P.board_pools(b.name)
    deserts = terrains[DESERT]
    assert n_rot == b.spiral.shape[0] >= 2 and deserts == 2
    spiral = P.table(base, "spiral")
    cases = 0
    for k in range(n_rot):
        # the kernel draws k in 0..G_ROTATIONS-1: a one-rotation copy holding row k forces k
        data = base.copy()
        data[P.G_ROTATIONS] = 1
        data[P.D_SPIRAL : P.D_SPIRAL + S.MAX_HEX] = spiral[k]
        for des in itertools.combinations(range(n_hex), deserts):
            s = np.zeros(S.STATE_LEN, np.int32)
            terrain = s[S.HEX_TERRAIN : S.HEX_TERRAIN + n_hex]
            terrain[:] = 0
            terrain[list(des)] = DESERT
            place_numbers(data, rng(cases), s)
            numbers = _numbers(s, n_hex)
            assert [numbers[h] for h in b.spiral[k] if numbers[h]] == tokens, (k, des)
            assert not red_adjacent(s, data), (k, des)
            cases += 1
    assert cases == n_rot * len(list(itertools.combinations(range(n_hex), deserts)))


def test_spiral_follows_the_rotated_path():
    """With the spiral, reading the hexes along one of the six rotations of the §9.2 path,
    deserts skipped, gives exactly the official token order."""
    data = data_for(4)
    b = board(4)
    _, tokens, _ = P.board_pools("standard")
    rotations_seen = set()
    for seed in range(60):
        s = dealt(data, 4, seed)
        numbers = _numbers(s, 19)
        matches = [
            k
            for k in range(6)
            if [numbers[h] for h in b.spiral[k] if numbers[h]] == tokens
            and numbers[b.spiral[k][0]] in (0, tokens[0])
        ]
        assert matches, seed
        rotations_seen.update(matches)
    assert len(rotations_seen) == 6, "every rotation occurs"


def test_random_placement_differs_from_spiral():
    spiral = data_for(4)
    rand = data_for(4, number_placement="random_no_red_adjacent")
    b = board(4)
    _, tokens, _ = P.board_pools("standard")
    off_spiral = 0
    for seed in range(30):
        numbers = _numbers(dealt(rand, 4, seed), 19)
        if not any([numbers[h] for h in b.spiral[k] if numbers[h]] == tokens for k in range(6)):
            off_spiral += 1
        # terrain draws are the same stream prefix: the same seed, the same terrain
        assert _terrain(dealt(spiral, 4, seed), 19) == _terrain(dealt(rand, 4, seed), 19)
    assert off_spiral >= 25


@pytest.mark.parametrize("players", [3, 5])
def test_same_seed_same_board_different_seeds_differ(players):
    data = data_for(players)
    a = dealt(data, players, 7)
    b = dealt(data, players, 7)
    assert (a == b).all()
    boards = {tuple(dealt(data, players, seed)[S.HEX_TERRAIN : S.SLOT_TYPE]) for seed in range(20)}
    assert len(boards) == 20


def test_start_seat_lever():
    data = data_for(4, start_seat=2)
    s = dealt(data, 4, 1)
    assert s[S.START] == 2 and s[S.SEAT] == 2 and s[S.CUR] == 2


def test_state_fits_the_action_ranges():
    assert S.A_STEAL + S.MAX_PLAYERS == S.A_OFFER
    assert S.A_OFFER + S.N_SHAPES * S.N_RES * S.N_RES == S.A_ACCEPT < S.A_DECLINE < S.A_TRADE_WITH
    assert S.A_TRADE_WITH + S.MAX_PLAYERS == S.A_CANCEL == S.MAX_ACTIONS - 1
    assert len({S.A_ROLL, S.A_END, S.A_BUY, S.A_KNIGHT, S.A_ROAD_BUILDING, S.A_YOP}) == 6
    assert S.trade_action(4, 3) == S.A_TRADE + 23 < S.A_ROBBER
    assert np.int32(S.STATE_LEN) == S.STATE_LEN
