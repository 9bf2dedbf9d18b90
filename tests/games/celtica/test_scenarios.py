"""Rulebook scenarios T1-T13 of rules/celtica.md §11, one test each, on hand-built states.

Default data (§9 track) unless a test says otherwise. The track, for reference::

    0 Start  1 S  2 v1  3 m1  4 R1  5 c2  6 S  7 m2  8 R2  9 c3  10 S
    11 m2  12 R2  13 c3  14 S  15 c4  16 S  17 R2  18 R3  19 finish 4
    (S sacred, v village, m monastery, c castle, R ruin; number = fragments)
"""

import numpy as np
import pytest

from sim.core.registry import make_setup
from sim.core.results import ChunkResult, rank_and_win
from sim.games.celtica import state as S
from sim.games.celtica.play import PLAYER_EXTRAS, write_results
from sim.games.celtica.rules import current_player, is_over
from strategies.celtica import greedy_action
from tests.games.celtica.helpers import (
    BLACK,
    BROWN,
    GREY,
    RED,
    WHITE,
    apply,
    data_for,
    frag,
    hand,
    legal,
    make_state,
    play,
    xp_hand,
)

GREEDY = make_setup("celtica", 4, {}, "greedy").bot_arrays()[1][0]


def test_T1_village_gives_one_fragment_of_choice():
    data = data_for(4)
    s = make_state(data, 4, hands={0: {WHITE: 2, RED: 1}, 1: {RED: 3}}, frags={0: {0: 1, 1: 1}})
    reserve = s[S.RESERVE_N]
    s = apply(s, play(WHITE, 2), data)
    assert s[S.POS + WHITE] == 2 and s[S.PHASE] == S.PH_DIG and s[S.PENDING] == 1
    assert s[S.DISCARD + WHITE] == 2
    assert legal(s, data) == [S.A_TAKE + t for t in range(9)]  # any display fragment
    s = apply(s, S.A_TAKE + 7, data)
    assert frag(s, 0).sum() == 3 and frag(s, 0)[7] == 1
    assert s[S.DISPLAY_N] == 9 and s[S.RESERVE_N] == reserve - 1
    assert current_player(s) == 1 and s[S.PHASE] == S.PH_PLAY


def test_T2_ruin_returns_two_of_choice_and_pays_an_xp_card():
    data = data_for(4)
    s = make_state(
        data,
        4,
        pos={RED: 7},
        hands={0: {RED: 1, GREY: 1}, 1: {RED: 2}},
        frags={0: {0: 2, 3: 1, 5: 2}},
    )
    xp_pile = s[S.XP_PILE_N]
    s = apply(s, play(RED, 1), data)
    assert s[S.POS + RED] == 8 and s[S.PHASE] == S.PH_RUIN and s[S.PENDING] == 2
    assert legal(s, data) == [S.A_RETURN + t for t in (0, 3, 5)]  # his own types only
    s = apply(s, S.A_RETURN + 0, data)
    s = apply(s, S.A_RETURN + 5, data)
    assert frag(s, 0).tolist()[:6] == [1, 0, 0, 1, 0, 1]
    assert s[S.RETURNED_N] == 2 and s[S.RETURNED + 0] == 1 and s[S.RETURNED + 5] == 1
    assert xp_hand(s, 0).sum() == 1 and s[S.XP_PILE_N] == xp_pile - 1
    assert current_player(s) == 1


@pytest.mark.parametrize("owned", [0, 1])
def test_T3_ruin_with_nothing_or_little_to_lose_still_pays_xp(owned):
    data = data_for(4)
    s = make_state(data, 4, pos={RED: 7}, hands={0: {RED: 2}, 1: {GREY: 1}}, frags={0: {4: owned}})
    s = apply(s, play(RED, 1), data)
    if owned:
        assert s[S.PHASE] == S.PH_RUIN and s[S.PENDING] == 1
        s = apply(s, S.A_RETURN + 4, data)
    assert frag(s, 0).sum() == 0 and s[S.RETURNED_N] == owned
    assert xp_hand(s, 0).sum() == 1 and s[S.PHASE] == S.PH_PLAY and current_player(s) == 1


def test_T4_druid_and_xp_cards_combine():
    data = data_for(4)
    s = make_state(data, 4, pos={RED: 1}, hands={0: {RED: 2}, 1: {GREY: 1}}, xp={0: {RED: 2}})
    assert play(RED, 2, 2) in legal(s, data)
    s = apply(s, play(RED, 2, 2), data)
    assert s[S.POS + RED] == 5 and s[S.PHASE] == S.PH_DIG and s[S.PENDING] == 2
    assert s[S.DISCARD + RED] == 2 and s[S.XP_DISCARD + RED] == 2
    assert hand(s, 0).sum() == 0 and xp_hand(s, 0).sum() == 0
    s = apply(s, S.A_TAKE + 2, data)
    s = apply(s, S.A_TAKE + 8, data)
    assert frag(s, 0)[2] == 1 and frag(s, 0)[8] == 1 and s[S.DISPLAY_N] == 9
    # from Start, four steps land on the ruin at 4 instead
    s = make_state(data, 4, hands={0: {RED: 2}, 1: {GREY: 1}}, xp={0: {RED: 2}}, frags={0: {1: 1}})
    s = apply(s, play(RED, 2, 2), data)
    assert s[S.POS + RED] == 4 and s[S.PHASE] == S.PH_RUIN


def test_T4b_xp_cards_need_a_druid_card_in_hand():
    data = data_for(2)
    # seat 1 holds only XP cards: it is skipped, seat 0 plays again
    s = make_state(data, 2, hands={0: {WHITE: 2}}, xp={1: {RED: 3}}, pos={WHITE: 1})
    s = apply(s, play(WHITE, 1), data)  # 1 -> 2, the village
    s = apply(s, S.A_TAKE + 0, data)
    assert current_player(s) == 0 and s[S.ROUND] == 1
    s = apply(s, play(WHITE, 1), data)  # 2 -> 3, the monastery; his last card
    s = apply(s, S.A_TAKE + 1, data)
    assert s[S.ROUND] == 2, "nobody holds a Druid card: the round is over"
    assert xp_hand(s, 1).tolist() == [0, 3, 0, 0, 0], "XP cards carry over to the next round"
    assert hand(s, 0).sum() == 5 and hand(s, 1).sum() == 5
    # with one brown Druid card, two red XP cards alone are a legal move
    s = make_state(data, 2, hands={0: {BROWN: 1}, 1: {GREY: 1}}, xp={0: {RED: 2}})
    moves = legal(s, data)
    assert play(RED, 0, 2) in moves and play(RED, 0, 1) in moves
    s = apply(s, play(RED, 0, 2), data)
    assert s[S.POS + RED] == 2 and hand(s, 0).tolist() == [0, 0, 0, 1, 0]


def _t5_state(data, fragments):
    return make_state(
        data,
        4,
        seat=2,
        hands={2: {RED: 1}},
        pos={RED: 15, WHITE: 16, GREY: 17, BROWN: 11, BLACK: 7},
        frags={2: fragments},
    )


def test_T5_sacred_place_draw_is_optional_and_may_force_a_ruin():
    data = data_for(4)
    s = apply(_t5_state(data, {0: 2, 1: 2, 2: 1}), play(RED, 1), data)
    assert s[S.POS + RED] == 16 and s[S.PHASE] == S.PH_SACRED and current_player(s) == 2
    assert legal(s, data) == [S.A_DRAW, S.A_DECLINE]
    declined = apply(s, S.A_DECLINE, data)
    assert declined[S.ROUND] == 2, "declining ends the round at once"
    landing = {RED: (17, 2), WHITE: (17, 2), GREY: (18, 3), BROWN: (12, 2), BLACK: (8, 2)}
    seen = set()
    for seed in range(60):
        drawn = apply(s, S.A_DRAW, data, seed=seed)
        assert drawn[S.ROUND] == 1 and current_player(drawn) == 2, "he moves again at once"
        (colour,) = np.nonzero(hand(drawn, 2))[0]
        seen.add(int(colour))
        assert legal(drawn, data) == [play(colour, 1)]
        after = apply(drawn, play(colour, 1), data)
        where, cost = landing[colour]
        assert after[S.POS + colour] == where
        assert data.loc_kind[where] == S.K_RUIN and data.loc_value[where] == cost
        assert after[S.PHASE] == S.PH_RUIN and after[S.PENDING] == min(cost, 5)
    assert seen == {RED, WHITE, GREY, BROWN, BLACK}


def test_T5_greedy_declines_when_every_forced_move_is_a_ruin():
    data = data_for(4)
    s = apply(_t5_state(data, {0: 2, 1: 2, 2: 1}), play(RED, 1), data)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    assert greedy_action(s, data, 2, GREEDY, np.zeros(4, np.uint64), buf) == S.A_DECLINE
    # with no fragment to lose, a ruin only pays an XP card: drawing is now right
    s = apply(_t5_state(data, {}), play(RED, 1), data)
    assert greedy_action(s, data, 2, GREEDY, np.zeros(4, np.uint64), buf) == S.A_DRAW
    # while another player still holds cards, greedy draws
    s = make_state(
        data, 4, seat=2, hands={2: {RED: 1}, 3: {RED: 1}}, pos={RED: 15}, frags={2: {0: 2, 1: 2}}
    )
    s = apply(s, play(RED, 1), data)
    assert greedy_action(s, data, 2, GREEDY, np.zeros(4, np.uint64), buf) == S.A_DRAW


def _final(data, players, counts_by_seat):
    s = make_state(data, players, frags=counts_by_seat, display={})
    s[S.OVER] = 1
    s[S.PHASE] = S.PH_OVER
    result = ChunkResult.empty(1, players, 1, len(PLAYER_EXTRAS))
    write_results(
        s,
        data,
        0,
        result.rounds,
        result.turns,
        result.end_reason,
        result.score,
        result.components,
        result.extras,
    )
    return result


def test_T6_ranking_by_complete_then_largest_incomplete_amulets():
    data = data_for(3)
    a = {t: 4 if t < 4 else 3 if t < 7 else 2 for t in range(9)}  # [9, 9, 7, 4]
    b = {t: 3 if t < 8 else 2 for t in range(9)}  # [9, 9, 8]
    c = {t: 3 for t in range(9)}  # [9, 9, 9]
    assert sum(a.values()) == 29 and sum(b.values()) == 26 and sum(c.values()) == 27
    result = _final(data, 3, {0: a, 1: b, 2: c})
    assert result.score[0].tolist() == [2, 2, 3]
    assert result.extras[0, 0, :3].tolist() == [7, 4, 0]
    assert result.extras[0, 1, :3].tolist() == [8, 0, 0]
    keys = np.concatenate([result.score[:, :, None], result.extras[:, :, :10]], axis=2)
    rank, win = rank_and_win(keys.astype(np.int64))
    assert rank[0].tolist() == [3, 2, 1] and win[0].tolist() == [0.0, 0.0, 1.0]
    # a true tie shares the win
    result = _final(data, 3, {0: b, 1: b, 2: a})
    keys = np.concatenate([result.score[:, :, None], result.extras[:, :, :10]], axis=2)
    rank, win = rank_and_win(keys.astype(np.int64))
    assert rank[0].tolist() == [1, 1, 3] and win[0].tolist() == [0.5, 0.5, 0.0]


def test_T7_final_exchange_take_and_two_swaps():
    data = data_for(2)
    s = make_state(
        data,
        2,
        seat=0,
        phase=S.PH_EXCHANGE,
        xp={0: {RED: 2, GREY: 2}},
        frags={0: {0: 3, 1: 1}},
        display={t: 1 for t in range(9)},
    )
    s[S.EXCH_DONE] = 0
    s = apply(s, S.A_XTAKE + 4, data)  # 2 XP: take
    assert s[S.DISPLAY_N] == 8 and xp_hand(s, 0).sum() == 2 and frag(s, 0).sum() == 5
    assert S.A_XSWAP + 0 * 16 + 5 in legal(s, data)
    s = apply(s, S.A_XSWAP + 0 * 16 + 5, data)  # 1 XP: give an O1, take an O6
    assert s[S.DISPLAY_N] == 8 and s[S.DISPLAY + 0] == 2, "the given fragment fills the slot"
    assert current_player(s) == 0
    s = apply(s, S.A_XSWAP + 0 * 16 + 6, data)  # the last XP card
    assert xp_hand(s, 0).sum() == 0 and frag(s, 0).sum() == 5
    assert s[S.DISPLAY_N] == 9, "refilled to 9 once he has finished"
    assert s[S.XP_DISCARD_N] == 4


def test_T8_first_druid_home_finishes_the_round_without_a_new_deal():
    data = data_for(4)
    s = make_state(
        data,
        4,
        seat=1,
        pos={RED: 17},
        hands={1: {RED: 2, WHITE: 1}, 2: {GREY: 1}, 3: {BROWN: 1}},
    )
    s = apply(s, play(RED, 2), data)
    assert s[S.POS + RED] == 19 and s[S.HOME] == 1 and s[S.PENDING] == 4
    for t in range(4):
        s = apply(s, S.A_TAKE + t, data)
    assert frag(s, 1).sum() == 4 and not is_over(s) and current_player(s) == 2
    s = apply(s, play(GREY, 1), data)  # the others still move other druids
    assert s[S.POS + GREY] == 1 and s[S.PHASE] == S.PH_SACRED
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, play(BROWN, 1), data)
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, play(WHITE, 1), data)  # seat 1's last card: nobody holds one any more
    s = apply(s, S.A_DECLINE, data)
    assert s[S.ROUND] == 1 and s[S.HELD_N] == 0, "no new deal"
    assert s[S.REASON] == S.R_ROUND_END and s[S.PHASE] in (S.PH_EXCHANGE, S.PH_OVER)
    assert is_over(s), "nobody holds XP cards, so there is no exchange"


def test_T9_all_druids_home_ends_at_once():
    data = data_for(4)
    s = make_state(
        data,
        4,
        seat=1,
        pos={WHITE: 19, RED: 19, GREY: 19, BROWN: 19, BLACK: 17},
        hands={1: {BLACK: 2, WHITE: 1}, 2: {GREY: 3}, 3: {BROWN: 1}},
        xp={2: {RED: 2}},
    )
    s = apply(s, play(BLACK, 2), data)
    for t in range(4):
        s = apply(s, S.A_TAKE + t, data)
    assert frag(s, 1).sum() == 4
    assert s[S.REASON] == S.R_ALL_HOME and s[S.HELD_N] == 0
    assert all(hand(s, p).sum() == 0 for p in range(4)), "hands are discarded"
    assert s[S.PHASE] == S.PH_EXCHANGE and current_player(s) == 2, "left of the last mover"


def test_T10_cards_played_on_an_arrived_druid_have_no_effect():
    data = data_for(4)
    s = make_state(data, 4, pos={RED: 19}, hands={0: {RED: 2}, 1: {GREY: 1}})
    before = s.copy()
    s = apply(s, play(RED, 1), data)
    assert s[S.POS + RED] == 19 and s[S.DISCARD + RED] == 1
    assert (frag(s, 0) == frag(before, 0)).all() and s[S.DISPLAY_N] == 9
    assert current_player(s) == 1 and s[S.PHASE] == S.PH_PLAY


def test_T11_next_round_starts_left_of_the_last_mover():
    data = data_for(3)
    s = make_state(data, 3, seat=2, hands={2: {WHITE: 1}}, pos={WHITE: 1})
    s = apply(s, play(WHITE, 1), data)  # 1 -> 2, village
    s = apply(s, S.A_TAKE + 0, data)
    assert s[S.ROUND] == 2 and s[S.STARTER] == 0 and current_player(s) == 0
    assert [hand(s, p).sum() for p in range(3)] == [5, 5, 5]
    rot = data_for(3, round_starter="rotate")
    s = make_state(rot, 3, seat=0, hands={0: {WHITE: 1}}, pos={WHITE: 1})
    s[S.STARTER] = 1
    s = apply(s, play(WHITE, 1), rot)
    s = apply(s, S.A_TAKE + 0, rot)
    assert s[S.STARTER] == 2, "the rotate lever passes the start one seat on"


def test_T12_empty_reserve_takes_the_returned_pile():
    data = data_for(2)
    held = {t: 9 for t in range(9)}  # the display holds one of each type
    held[0] = 6  # 3 O1 are in the returned pile
    held[1] = held[2] = 8  # seat 1 holds the tenth O2 and O3
    s = make_state(
        data,
        2,
        seat=0,
        pos={RED: 4},
        hands={0: {RED: 1}, 1: {RED: 1}},
        frags={0: held, 1: {1: 1, 2: 1}},
        returned={0: 3},
        reserve={},
    )
    assert s[S.RESERVE_N] == 0 and s[S.RETURNED_N] == 3
    s = apply(s, play(RED, 1), data)  # 4 -> 5, the castle (2)
    s = apply(s, S.A_TAKE + 4, data)
    s = apply(s, S.A_TAKE + 5, data)
    assert s[S.DISPLAY_N] == 9 and s[S.RESERVE_N] == 1 and s[S.RETURNED_N] == 0
    assert not is_over(s) and s[S.PHASE] == S.PH_PLAY


def test_T13_no_fragment_left_ends_the_game_at_once():
    data = data_for(2)
    held = {t: 10 for t in range(9)}
    held[3] = 9
    held[7] = 9
    s = make_state(
        data,
        2,
        seat=0,
        pos={RED: 6},
        hands={0: {RED: 3}, 1: {RED: 2}},
        frags={0: held},
        display={3: 1, 7: 1},
        reserve={},
    )
    assert s[S.DISPLAY_N] == 2 and s[S.RESERVE_N] == 0 and s[S.RETURNED_N] == 0
    s = apply(s, play(RED, 3), data)  # 6 -> 9, a castle (3) with only 2 on display
    assert s[S.POS + RED] == 9 and s[S.PENDING] == 2
    s = apply(s, S.A_TAKE + 3, data)
    s = apply(s, S.A_TAKE + 7, data)
    assert frag(s, 0).sum() == 90 and s[S.DISPLAY_N] == 0
    assert s[S.REASON] == S.R_NO_FRAGMENTS and is_over(s) and s[S.HELD_N] == 0
