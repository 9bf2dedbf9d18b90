"""Domestic trade (sim/games/catan/trade.py): rules/catan-base.md §5 "Domestic trade: only
between the active player and another player, at any agreed terms. Giving cards away, or
trading a resource for the same resource, is not allowed", B10 (no trade in the Special
Building Phase) and A4 (the lever ``domestic_trade``), on hand-built states; the greedy bot's
offers and answers; the act_* counts with the lever on and off."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.check import check_games
from sim.core.registry import make_setup
from sim.core.rng import new_streams, seed_streams
from sim.games.catan import params as P
from sim.games.catan import rules
from sim.games.catan import state as S
from sim.games.catan import trade as T
from sim.games.catan.decisions import DECISION_KINDS
from sim.games.catan.play import play
from strategies.catan import greedy as G
from strategies.catan import greedy_trade as GT
from tests.games.catan.helpers import (
    BRICK,
    GRAIN,
    LUMBER,
    ORE,
    WOOL,
    apply,
    board,
    data_for,
    hand,
    legal,
    make_state,
)

B = board(4)


def offers(acts):
    return [a for a in acts if S.A_OFFER <= a < S.A_ACCEPT]


def one_for_one(give, get):
    return int(T.offer_action(0, give, get))


def test_S5_domestic_trade_a_resource_for_the_same_resource_is_not_offered():
    data = data_for(4)
    s = make_state(data, hands={p: {r: 2 for r in range(S.N_RES)} for p in range(4)})
    listed = offers(legal(s, data))
    assert listed, "the active player holding cards may offer"
    for a in listed:
        assert T.offer_give(a) != T.offer_get(a)
        assert T.give_count(a) >= 1 and T.get_count(a) >= 1, "never a gift"


def test_S5_domestic_trade_only_the_active_player_offers_and_only_what_he_holds():
    data = data_for(4)
    s = make_state(data, cur=1, hands={1: {WOOL: 1}, 2: {ORE: 3}})
    listed = offers(legal(s, data))
    assert listed and all(T.offer_give(a) == WOOL and T.give_count(a) == 1 for a in listed)
    for phase in (S.PH_PRE_ROLL, S.PH_DISCARD, S.PH_ROBBER):
        other = s.copy()
        other[S.PHASE] = phase
        if phase == S.PH_DISCARD:
            other[S.DISCARD_OWED + 1] = 1
        assert not offers(legal(other, data)), "offers only in the trade and build phase"


def test_S5_domestic_trade_the_others_answer_in_turn_order_and_the_cards_change_hands():
    data = data_for(4)
    s = make_state(data, cur=1, hands={1: {WOOL: 2}, 2: {ORE: 1}, 3: {GRAIN: 1}, 0: {ORE: 2}})
    s = apply(s, one_for_one(WOOL, ORE), data)
    assert s[S.PHASE] == S.PH_TRADE and s[S.OFFERS_MADE] == 1
    answered = []
    while s[S.SEAT] != s[S.CUR]:
        p = int(s[S.SEAT])
        answered.append(p)
        acts = legal(s, data)
        if p == 3:
            assert acts == [S.A_DECLINE], "accept only with the cards asked for"
        else:
            assert S.A_ACCEPT in acts and S.A_DECLINE in acts
        s = apply(s, S.A_ACCEPT if p != 3 else S.A_DECLINE, data)
    assert answered == [2, 3, 0]
    assert legal(s, data) == [S.A_TRADE_WITH + 0, S.A_TRADE_WITH + 2, S.A_CANCEL]
    bank = s[S.BANK : S.BANK + S.N_RES].copy()
    s = apply(s, S.A_TRADE_WITH + 2, data)  # apply checks every resource is conserved
    assert list(hand(s, 1)) == [0, 0, 1, 0, 1] and list(hand(s, 2)) == [0, 0, 1, 0, 0]
    assert list(hand(s, 0)) == [0, 0, 0, 0, 2], "the other acceptance is not traded"
    assert (s[S.BANK : S.BANK + S.N_RES] == bank).all(), "the bank takes no part"
    assert s[S.PHASE] == S.PH_MAIN and s[S.SEAT] == 1 and s[S.OFFER] == 0


def test_S5_domestic_trade_an_offer_nobody_accepts_lapses():
    data = data_for(3)
    s = make_state(data, players=3, hands={0: {BRICK: 2}, 1: {ORE: 1}, 2: {ORE: 1}})
    s = apply(s, int(T.offer_action(1, BRICK, ORE)), data)  # 2 brick for 1 ore
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, S.A_DECLINE, data)
    assert s[S.PHASE] == S.PH_MAIN and s[S.SEAT] == 0 and list(hand(s, 0)) == [0, 2, 0, 0, 0]


def test_S5_domestic_trade_the_proposer_may_trade_with_nobody():
    data = data_for(3)
    s = make_state(data, players=3, hands={0: {LUMBER: 1}, 1: {ORE: 2}, 2: {}})
    s = apply(s, int(T.offer_action(2, LUMBER, ORE)), data)  # 1 lumber for 2 ore
    assert legal(s, data) == [S.A_ACCEPT, S.A_DECLINE]
    s = apply(s, S.A_ACCEPT, data)
    assert legal(s, data) == [S.A_DECLINE], "seat 2 holds no ore"
    s = apply(s, S.A_DECLINE, data)
    s = apply(s, S.A_CANCEL, data)
    assert list(hand(s, 0)) == [1, 0, 0, 0, 0] and list(hand(s, 1)) == [0, 0, 0, 0, 2]
    assert s[S.PHASE] == S.PH_MAIN


def test_offers_per_turn_are_bounded_by_the_lever_and_counted_per_turn():
    limit = 3
    data = data_for(3, trade_offers_per_turn=limit)
    s = make_state(data, players=3, hands={0: {WOOL: 5}, 1: {ORE: 1}, 2: {ORE: 1}})
    for _ in range(limit):
        assert offers(legal(s, data))
        s = apply(s, one_for_one(WOOL, ORE), data)
        s = apply(s, S.A_DECLINE, data)
        s = apply(s, S.A_DECLINE, data)
    assert not offers(legal(s, data)), "the bound is reached"
    s = apply(s, S.A_END, data)
    assert s[S.OFFERS_MADE] == 0, "a new turn makes new offers"


def test_A4_domestic_trade_false_lists_no_offer():
    data = data_for(4, domestic_trade=False)
    s = make_state(data, hands={p: {r: 2 for r in range(S.N_RES)} for p in range(4)})
    assert not offers(legal(s, data))
    assert data[P.G_DOMESTIC] == 0 and data_for(4)[P.G_DOMESTIC] == 1


def test_B10_special_building_phase_no_trade():
    data = data_for(6)
    everyone = {p: {LUMBER: 1, BRICK: 1, WOOL: 4, GRAIN: 1, ORE: 1} for p in range(6)}
    s = make_state(data, players=6, cur=2, hands=everyone)
    assert offers(legal(s, data)), "in the active player's own phase he may offer"
    s = apply(s, S.A_END, data)
    while s[S.PHASE] == S.PH_SBP:
        acts = legal(s, data)
        assert not offers(acts) and not any(a >= S.A_ACCEPT for a in acts), "no trade"
        s = apply(s, S.A_END, data)


def test_determinize_keeps_what_a_pending_offer_shows():
    data = data_for(4)
    s = make_state(
        data, cur=1, hands={1: {WOOL: 2, GRAIN: 1}, 2: {ORE: 1, BRICK: 3}, 3: {LUMBER: 2}}
    )
    s = apply(s, one_for_one(WOOL, ORE), data)
    s = apply(s, S.A_ACCEPT, data)  # seat 2
    assert s[S.SEAT] == 3
    out = np.zeros_like(s)
    streams = new_streams(1)
    for seed in range(40):
        seed_streams(streams, np.uint64(seed))
        rules.determinize(s, data, 3, streams[0], out)
        assert out[S.HAND + 2 * S.N_RES + ORE] >= 1, "seat 2 accepted: it holds the ore"
        assert out[S.HAND + 1 * S.N_RES + WOOL] >= 1, "the proposer holds what he offers"
        assert list(hand(out, 3)) == list(hand(s, 3))
        for p in range(4):
            assert out[S.HAND_N + p] == s[S.HAND_N + p] == hand(out, p).sum()


def test_greedy_parameter_indices_match_its_parameter_set():
    names = [q.name for q in G.GREEDY_PARAMS]
    for index, name in ((GT.P_VP, "vp"), (GT.P_DEV, "dev"), (GT.P_ROAD, "road")):
        assert names[index] == name
    assert names[GT.P_TRADE_MARGIN] == "trade_margin" and G.P_TRADE_MARGIN == GT.P_TRADE_MARGIN


def test_greedy_offers_what_completes_a_city_and_declines_what_helps_the_proposer_more():
    data = data_for(4)
    city_at = B.vertex_id(0, 0, "N")
    s = make_state(
        data,
        cur=0,
        settlements={0: [city_at], 1: [B.vertex_id(2, -2, "N")]},
        hands={0: {GRAIN: 2, ORE: 2, LUMBER: 1}, 1: {ORE: 1, WOOL: 1}},
    )
    s[S.SETTLE_LEFT + 0] = 0  # no settlement piece left (greedy reads the supply): a city next
    params = np.array([q.default for q in G.GREEDY_PARAMS], np.float64)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    streams = new_streams(1)
    a = int(G.greedy_action(s, data, 0, params, streams[0], buf))
    assert S.A_OFFER <= a < S.A_ACCEPT, "nothing to build: an offer"
    assert T.offer_get(a) == ORE and T.offer_give(a) == LUMBER, "lumber for the city's third ore"
    assert T.give_count(a) == 1 and T.get_count(a) == 1, "the first of equal offers"
    s = apply(s, a, data)
    assert s[S.SEAT] == 1
    # seat 1 would give its only ore (its city and card) for a lumber: it loses
    answer = int(G.greedy_action(s, data, 1, params, streams[0], buf))
    assert answer == S.A_DECLINE


def _acts(domestic):
    setup = make_setup("catan", 4, {"domestic_trade": domestic}, "greedy")
    result = play(setup, np.arange(40, dtype=np.uint64))
    return result.actions.sum(axis=(0, 1))


def test_greedy_act_offer_and_accept_counted_with_trade_on_and_zero_with_it_off():
    on, off = _acts(True), _acts(False)
    for kind in ("offer", "accept", "decline", "trade_player"):
        j = DECISION_KINDS.index(kind)
        assert on[j] > 0, kind
        assert off[j] == 0, kind


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    players=st.sampled_from([3, 4, 5, 6]),
    bound=st.integers(1, 4),
    bots=st.sampled_from(["random", "greedy", "mixed"]),
)
def test_property_games_with_trade_keep_every_invariant_and_end(seed, players, bound, bots):
    """Resources conserved through every offer, answer and trade (and every other invariant of
    ``menhir check``, ``step``'s input untouched among them); every game ends by a rule."""
    params = {"domestic_trade": True, "trade_offers_per_turn": bound}
    if bots == "mixed":
        bots = ",".join(("random", "greedy")[p % 2] for p in range(players))
    report = check_games(make_setup("catan", players, params, bots), 4, seed)
    assert report.violations == 0 and report.capped == 0


def test_trace_shows_offers_answers_and_trades():
    from sim.games.catan.trace import trace

    setup = make_setup("catan", 4, {}, "greedy")
    seen = {"offers": 0, "declines": 0, "accepts": 0, "with seat": 0}
    for seed in range(10):
        lines, _ = trace(setup, seed)
        for line in lines:
            for key in seen:
                if f" {key}" in line:
                    seen[key] += 1
    assert all(seen.values()), seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    counts=st.lists(st.integers(0, 4), min_size=5, max_size=5).filter(any),
    settle_left=st.integers(0, 5),
    margin=st.sampled_from([0.0, 0.5, 1.0, 3.0]),
    lapsed=st.integers(0, 59),
)
def test_greedy_offer_bounds_and_one_table_pick_as_valuing_every_offer(
    counts, settle_left, margin, lapsed
):
    """Issue 42: greedy values a decision's offers from one build table, highest
    :func:`get_bounds` first, and values none whose bound cannot beat the best so far. No
    offer is worth more than the bound of what it asks for, and the pick is the first best of
    :func:`action_value` over every legal action, offers valued one by one as before."""
    data = data_for(4)
    hand_of = dict(zip((BRICK, LUMBER, WOOL, GRAIN, ORE), counts, strict=True))
    s = make_state(
        data,
        cur=0,
        settlements={0: [B.vertex_id(0, 0, "N")], 1: [B.vertex_id(2, -2, "N")]},
        hands={0: hand_of, 1: {ORE: 2, WOOL: 2, GRAIN: 1}},
    )
    s[S.SETTLE_LEFT + 0] = settle_left
    s[S.LAPSED] = S.A_OFFER + lapsed
    params = np.array([q.default for q in G.GREEDY_PARAMS], np.float64)
    params[G.P_TRADE_MARGIN] = margin
    weights, needs = np.zeros(4), np.zeros(4, np.int64)
    GT.build_table(s, data, 0, params, weights, needs)
    bounds = np.zeros(GT.N_GET_BOUNDS)
    top = {n: GT.get_bounds(s, data, 0, weights, needs, n, bounds) for n in (1, 2)}
    assert top[1] <= top[2] == bounds[1::2].max()
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    acts = [int(a) for a in buf[: rules.legal_actions(s, data, buf)]]  # in listed order
    assert offers(acts), "a card in hand and cards elsewhere: some offer is listed"
    for a in offers(acts):  # an offer not worth making is -1, whatever the bound
        bound = bounds[2 * T.offer_get(a) + T.get_count(a) - 1] - margin
        assert GT.offer_value(s, data, 0, a, params, weights, needs) <= max(bound, -1.0)
    pick = int(G.greedy_action(s, data, 0, params, new_streams(1)[0], buf))
    assert pick == _first_best(s, data, 0, params)


def _first_best(s, data, seat, params):
    """The first best :func:`action_value` over every legal action, offers and answers valued
    one by one: greedy's pick before issue 42's shortcuts (value_offers, answer_offer)."""
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    acts = [int(a) for a in buf[: rules.legal_actions(s, data, buf)]]  # listed, not sorted
    mask = G.places_mask(s, data, seat, sum(a < S.A_ROLL for a in acts))
    can_settle = any(S.A_SETTLE <= a < S.A_CITY for a in acts)
    n_roads = sum(S.A_ROAD <= a < S.A_ROLL for a in acts)
    values = [G.action_value(s, data, seat, a, params, can_settle, n_roads, mask) for a in acts]
    return acts[int(np.argmax(values))]


def _trading_state(data, hands, give, get):
    """Seat 0's turn with these ``hands`` (per seat, by resource index), seat 0 able to pay
    every offer shape of ``give`` and some seat holding as many cards as any shape asks for."""
    hands[0][give] = max(hands[0][give], 2)
    if sum(hands[1]) < 2:
        hands[1][get] = 2
    return make_state(
        data,
        cur=0,
        settlements={0: [B.vertex_id(0, 0, "N")], 1: [B.vertex_id(2, -2, "N")]},
        hands={p: dict(enumerate(h)) for p, h in enumerate(hands)},
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hands=st.lists(st.lists(st.integers(0, 3), min_size=5, max_size=5), min_size=4, max_size=4),
    shape=st.integers(0, 2),
    give_get=st.permutations(range(5)),
    cities_left=st.integers(0, 1),
)
def test_greedy_answers_an_offer_as_valuing_its_legal_answers(hands, shape, give_get, cities_left):
    """Issue 42: a seat answering an offer (45% of a game's decisions with trade on) answers
    without listing its actions; the answer is the first best of valuing them, accept (when it
    holds the cards) or decline, for every seat in turn."""
    data = data_for(4)
    give, get = give_get[0], give_get[1]
    s = _trading_state(data, hands, give, get)
    s[S.CITIES_LEFT + 1] = cities_left
    params = np.array([q.default for q in G.GREEDY_PARAMS], np.float64)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    stream = new_streams(1)[0]
    offer = int(T.offer_action(shape, give, get))
    assert offer in legal(s, data)
    s = apply(s, offer, data)
    answers = set()
    while s[S.PHASE] == S.PH_TRADE and s[S.SEAT] != 0:
        seat = int(s[S.SEAT])
        answer = int(G.greedy_action(s, data, seat, params, stream, buf))
        assert answer == _first_best(s, data, seat, params)
        answers.add(answer)
        s = apply(s, answer, data)
    assert answers <= {S.A_ACCEPT, S.A_DECLINE} and answers


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hands=st.lists(st.lists(st.integers(0, 3), min_size=5, max_size=5), min_size=4, max_size=4),
    shape=st.integers(0, 2),
    give_get=st.permutations(range(5)),
)
def test_greedy_accepts_when_its_gain_is_positive_and_beats_the_proposers(hands, shape, give_get):
    """greedy_trade's rule, from its two gains: accept (1) only when the seat's own gain is
    above 0 and above the proposer's as estimated from public information, else -1 (issue 42:
    the proposer's gain is computed only when the own gain is positive)."""
    data = data_for(4)
    give, get = give_get[0], give_get[1]
    s = _trading_state(data, hands, give, get)
    params = np.array([q.default for q in G.GREEDY_PARAMS], np.float64)
    offer = int(T.offer_action(shape, give, get))
    s = apply(s, offer, data)
    n_give, n_get = int(T.give_count(offer)), int(T.get_count(offer))
    theirs = GT.public_gain(s, data, 0, params, give, n_give, get, n_get)
    for seat in (1, 2, 3):
        mine = GT.own_gain(s, data, seat, params, get, n_get, give, n_give)
        expected = 1.0 if mine > 0.0 and mine > theirs else -1.0
        assert GT.answer_value(s, data, seat, S.A_ACCEPT, params) == expected
