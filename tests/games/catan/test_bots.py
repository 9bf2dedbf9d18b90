"""Catan bots: greedy beats random, every invariant holds in greedy games (the compiled
checker of test_properties.py), and greedy reads no hidden card: re-dealing what its seat
cannot see (the other hands' contents, the other players' development cards against the deck)
never changes its action."""

import numpy as np
import polars as pl
import pytest

from sim.core import registry
from sim.core.batch import play_batch
from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan import state as S
from sim.games.catan.rules import current_player, init_state, is_over, step
from sim.games.catan.trade import known_held
from strategies.catan import GREEDY_CODE, choose_action
from strategies.catan.greedy import GREEDY_PARAMS, greedy_action
from tests.games.catan.helpers import data_for
from tests.games.catan.test_properties import ERRORS, play_checked

DEFAULTS = np.array([p.default for p in GREEDY_PARAMS], np.float64)


@pytest.fixture
def catan_registered(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, "catan", "sim.games.catan")


@pytest.mark.slow
@pytest.mark.parametrize("players,seat", [(3, 2), (4, 0), (4, 3), (6, 4)])
def test_greedy_beats_random(catan_registered, players, seat):
    bots = ["random"] * players
    bots[seat] = "greedy"
    setup = make_setup("catan", players, {}, ",".join(bots))
    games, table = play_batch(setup, range(100), root_seed=21)
    assert (games["end_reason"] == "vp_target").all()
    rate = table.filter(pl.col("seat") == seat)["win"].mean()
    assert rate > 0.8, f"greedy won {rate:.2f} against random"


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_after_every_step_greedy_games(players):
    data = data_for(players)
    codes = np.full(players, GREEDY_CODE, np.int64)
    codes[0] = 0  # one random seat keeps the games varied
    params = np.tile(DEFAULTS, (players, 1))
    n = 250  # 1,000 greedy games over the four player counts
    seeds = derive_game_seeds(17, players, np.arange(n))
    errors, steps, reasons, rounds = (np.zeros(n, np.int64) for _ in range(4))
    play_checked(data, players, codes, params, seeds, errors, steps, reasons, rounds)
    bad = np.flatnonzero(errors)
    assert not bad.size, f"game {bad[0]}: {ERRORS[errors[bad[0]]]}"
    assert (reasons == S.R_VP_TARGET).all()


def _redeal(s, seat, pick):
    """Same public information, other hidden cards: swap one card between two opponents'
    hands, and one opponent development card (held or new) with a card of the deck."""
    t = s.copy()
    n = int(t[S.NP])
    others = [p for p in range(n) if p != seat]
    for _ in range(4):
        a, b = pick.choice(others, 2, replace=False)
        ra = [r for r in range(S.N_RES) if t[S.HAND + a * S.N_RES + r] > 0]
        rb = [r for r in range(S.N_RES) if t[S.HAND + b * S.N_RES + r] > 0]
        # a pending domestic offer shows cards of the proposer and the accepting seats: kept
        ra = [r for r in ra if t[S.HAND + a * S.N_RES + r] > known_held(s, a, r)]
        rb = [r for r in rb if t[S.HAND + b * S.N_RES + r] > known_held(s, b, r)]
        if ra and rb:
            x, y = pick.choice(ra), pick.choice(rb)
            t[S.HAND + a * S.N_RES + x] -= 1
            t[S.HAND + a * S.N_RES + y] += 1
            t[S.HAND + b * S.N_RES + y] -= 1
            t[S.HAND + b * S.N_RES + x] += 1
    for base in (S.DEV, S.DEV_NEW):
        for p in others:
            held = [d for d in range(S.N_DEV) if t[base + p * S.N_DEV + d] > 0]
            deck = [d for d in range(S.N_DEV) if t[S.DECK + d] > 0]
            if held and deck:
                x, y = pick.choice(held), pick.choice(deck)
                t[base + p * S.N_DEV + x] -= 1
                t[base + p * S.N_DEV + y] += 1
                t[S.DECK + y] -= 1
                t[S.DECK + x] += 1
    return t


@pytest.mark.slow
def test_greedy_reads_no_hidden_card():
    players = 4
    data = data_for(players)
    pick = np.random.default_rng(5)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    checked = changed = 0
    for seed in derive_game_seeds(8, players, np.arange(6)):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(S.STATE_LEN, np.int32)
        out = np.zeros(S.STATE_LEN, np.int32)
        init_state(data, players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat].copy()
            act = int(greedy_action(a, data, seat, DEFAULTS, rng.copy(), buf))
            if a[S.TURNS] % 3 == 0:
                other = _redeal(a, seat, pick)
                changed += int((other != a).any())
                assert int(greedy_action(other, data, seat, DEFAULTS, rng.copy(), buf)) == act
                checked += 1
            chosen = choose_action(a, data, seat, GREEDY_CODE, DEFAULTS, streams[1 + seat], buf)
            assert int(chosen) == act
            step(a, chosen, data, streams[0], out)
            a, out = out, a
    assert checked > 200 and changed > 100


def test_determinize_keeps_what_the_seat_sees():
    from sim.games.catan.rules import determinize
    from tests.games.catan.helpers import check_books, rng

    players = 4
    data = data_for(players)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    streams = np.zeros((1 + players, 4), np.uint64)
    seed_streams(streams, np.uint64(3))
    a = np.zeros(S.STATE_LEN, np.int32)
    out = np.zeros(S.STATE_LEN, np.int32)
    init_state(data, players, streams[0], a)
    differ = 0
    for k in range(1500):
        if is_over(a):
            break
        seat = current_player(a)
        if k % 10 == 0:
            d = np.zeros_like(a)
            before = a.copy()
            determinize(a, data, seat, rng(k), d)
            assert (a == before).all()
            check_books(d, data)
            hidden = np.zeros(S.STATE_LEN, bool)
            for o in range(players):
                if o != seat:
                    hidden[S.HAND + o * S.N_RES : S.HAND + (o + 1) * S.N_RES] = True
                    hidden[S.DEV + o * S.N_DEV : S.DEV + (o + 1) * S.N_DEV] = True
                    hidden[S.DEV_NEW + o * S.N_DEV : S.DEV_NEW + (o + 1) * S.N_DEV] = True
            hidden[S.DECK : S.DECK + S.N_DEV] = True
            assert (d[~hidden] == a[~hidden]).all(), "a public value changed"
            for o in range(players):
                assert (
                    d[S.DEV + o * S.N_DEV : S.DEV + (o + 1) * S.N_DEV].sum()
                    == a[S.DEV + o * S.N_DEV : S.DEV + (o + 1) * S.N_DEV].sum()
                )
            differ += int((d != a).any())
        act = choose_action(a, data, seat, GREEDY_CODE, DEFAULTS, streams[1 + seat], buf)
        step(a, act, data, streams[0], out)
        a, out = out, a
    assert differ > 20


@pytest.mark.slow
def test_search_with_a_tiny_budget_plays_greedy(catan_registered):
    greedy = make_setup("catan", 4, {}, "greedy")
    search = make_setup("catan", 4, {}, "search:rollouts=4")
    g1, t1 = play_batch(greedy, range(5), root_seed=4)
    g2, t2 = play_batch(search, range(5), root_seed=4)
    assert t1["score"].to_list() == t2["score"].to_list()
    assert g1["turns"].to_list() == g2["turns"].to_list()


@pytest.mark.slow
def test_search_games_keep_every_invariant():
    from strategies.catan import SEARCH_DECL

    players = 4
    data = data_for(players)
    width = len(SEARCH_DECL.params)
    params = np.zeros((players, width), np.float64)
    for seat in range(players):
        params[seat, : len(DEFAULTS)] = DEFAULTS
    params[1] = [p.default for p in SEARCH_DECL.params]
    params[1, 0] = 16  # rollouts
    codes = np.array([GREEDY_CODE, 2, GREEDY_CODE, GREEDY_CODE], np.int64)
    n = 3
    seeds = derive_game_seeds(5, players, np.arange(n))
    errors, steps, reasons, rounds = (np.zeros(n, np.int64) for _ in range(4))
    play_checked(data, players, codes, params, seeds, errors, steps, reasons, rounds)
    bad = np.flatnonzero(errors)
    assert not bad.size, f"game {bad[0]}: {ERRORS[errors[bad[0]]]}"
    assert (reasons == S.R_VP_TARGET).all()
